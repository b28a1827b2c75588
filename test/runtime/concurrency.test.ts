/**
 * docs/runtime.md step 4: a fan-out takes as long as its slowest
 * sub-agent, not the sum; a sub-agent over its time budget returns within it
 * while its siblings complete. Timings are real (generous bounds for CI).
 */
import { expect, test } from 'vitest';
import { makeBundle } from './fixtures/bundle.js';
import { ask, callsOf, routingOf, setup, toolResults } from './helpers.js';

test('mixed intent: two sub-agents of 300 ms each finish in ~300 ms, not 600', async () => {
  const s = setup({
    llm: {
      concierge: [{ tool_calls: [ask('billing', { query: 'inv', intent_count: 2 }), ask('travel', { query: 'trips', intent_count: 2 })] }, { text: 'both' }],
      billing: [{ delay_ms: 300, text: 'b' }],
      travel: [{ delay_ms: 300, text: 't' }],
    },
  });
  const t0 = performance.now();
  const r = await s.turn('invoice and trips');
  const wall = performance.now() - t0;
  expect(r.text).toBe('both');
  expect(wall).toBeGreaterThanOrEqual(295);
  expect(wall).toBeLessThan(500);
  const [b] = callsOf(s.calls, 'billing');
  const [t] = callsOf(s.calls, 'travel');
  // Overlapping invocation timestamps (docs/runtime.md step 4: sub-agents run concurrently).
  expect(b.started_ms).toBeLessThan(t.ended_ms);
  expect(t.started_ms).toBeLessThan(b.ended_ms);
  const spans = routingOf(r.events).spans;
  expect(spans[0].started_ms).toBeLessThan(spans[1].ended_ms);
  expect(spans[1].started_ms).toBeLessThan(spans[0].ended_ms);
});

test('fan-out of 3 (100/150/200 ms) is bounded by the slowest', async () => {
  const s = setup({
    llm: {
      concierge: [{ tool_calls: ['billing', 'travel', 'rewards'].map((a) => ask(a, { query: a, intent_count: 3 })) }, { text: 'all' }],
      billing: [{ delay_ms: 100, text: 'b' }],
      travel: [{ delay_ms: 150, text: 't' }],
      rewards: [{ delay_ms: 200, text: 'r' }],
    },
  });
  const t0 = performance.now();
  await s.turn('all three');
  const wall = performance.now() - t0;
  expect(wall).toBeGreaterThanOrEqual(195);
  expect(wall).toBeLessThan(380);
});

test('a sub-agent over its time budget returns within it (timeout) while its sibling completes', async () => {
  const bundle = makeBundle({ billing: { policy: { time_budget_ms: 150 } } });
  const s = setup({
    bundle,
    llm: {
      concierge: [
        { tool_calls: [ask('billing', { query: 'inv', intent_count: 2 }), ask('travel', { query: 'trips', intent_count: 2 })] },
        { text: 'travel only' },
      ],
      // The slow reply would be followed by a fallback, but no time is left for one.
      billing: [{ delay_ms: 2_000, text: 'too late' }, { text: 'never' }],
      travel: [{ delay_ms: 300, text: 'Three trips.' }],
    },
  });
  const t0 = performance.now();
  const r = await s.turn('invoice and trips');
  const wall = performance.now() - t0;
  expect(wall).toBeLessThan(600);
  expect(r.outcomes).toEqual({ billing: 'timeout', travel: 'ok' });
  const [billingSpan, travelSpan] = routingOf(r.events).spans;
  expect(billingSpan.ended_ms - billingSpan.started_ms).toBeGreaterThanOrEqual(140);
  expect(billingSpan.ended_ms - billingSpan.started_ms).toBeLessThan(260);
  expect(travelSpan.ended_ms - travelSpan.started_ms).toBeGreaterThanOrEqual(290);
  const results = toolResults(callsOf(s.calls, 'concierge')[1]);
  expect(results).toEqual([
    { name: 'ask_billing', result: { ok: false, failure: 'timeout', message: 'The billing specialist did not answer in time.' } },
    { name: 'ask_travel', result: { ok: true, answer: 'Three trips.' } },
  ]);
  expect(callsOf(s.calls, 'billing')).toHaveLength(1);
});

test('a hanging tool is abandoned at the budget; its handler sees the abort', async () => {
  const bundle = makeBundle({ travel: { policy: { time_budget_ms: 100 } } });
  let aborted = false;
  const s = setup({
    bundle,
    llm: {
      concierge: [{ tool_calls: [ask('travel', { query: 'q', intent_count: 1 })] }, { text: 'x' }],
      travel: [{ tool_calls: [{ name: 'search_trips', arguments: { city: 'Rome' } }] }, { text: 'never' }],
    },
    handlers: {
      // Ignores its signal entirely: the runtime must not wait for it.
      search_trips: (_args, ctx) => {
        ctx.signal.addEventListener('abort', () => (aborted = true));
        return new Promise(() => undefined);
      },
    },
  });
  const t0 = performance.now();
  const r = await s.turn('hi');
  expect(performance.now() - t0).toBeLessThan(400);
  expect(r.outcomes).toEqual({ travel: 'timeout' });
  expect(aborted).toBe(true);
});

test('a sub-agent’s tool calls of one reply also run concurrently', async () => {
  const s = setup({
    llm: {
      concierge: [{ tool_calls: [ask('travel', { query: 'q', intent_count: 1 })] }, { text: 'x' }],
      travel: [{ tool_calls: ['Rome', 'Paris', 'Oslo'].map((city) => ({ name: 'search_trips', arguments: { city } })) }, { text: 't' }],
    },
    tools: { search_trips: { delay_ms: 200, result: { trips: 1 } } },
  });
  const t0 = performance.now();
  await s.turn('hi');
  expect(performance.now() - t0).toBeLessThan(450);
});
