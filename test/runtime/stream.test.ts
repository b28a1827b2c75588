/**
 * Streaming turns (issue 10): `runtime.stream` delivers typed events as they
 * happen — the preamble before any sub-agent ends, overlapping sub-agent spans,
 * handler statuses inside their span, relay order, prompt cancellation, a slow
 * reader that stalls nothing — plus per-turn cohorts, the failsafe count, the
 * request hints, usage/cost per agent, traceparent and onError.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createMemorySessionStore,
  createRuntime,
  createScriptedClient,
  createScriptedTools,
  createSequentialIds,
  parseScript,
  RuntimeUsageError,
  TurnError,
  type ErrorInfo,
  type RuntimeEvent,
  type ScriptReply,
  type TurnRequest,
} from '../../src/runtime/index.js';
import { makeBundle, type BundleOverrides } from './fixtures/bundle.js';
import { ask, callsOf, CTX, routingOf, setup } from './helpers.js';

type Ev<T extends RuntimeEvent['type']> = Extract<RuntimeEvent, { type: T }>;
const of = <T extends RuntimeEvent['type']>(events: RuntimeEvent[], type: T) => events.filter((e): e is Ev<T> => e.type === type);
const indexOf = (events: RuntimeEvent[], pred: (e: RuntimeEvent) => boolean) => events.findIndex(pred);
const deltas = (events: RuntimeEvent[]) => of(events, 'text_delta').map((e) => [e.agent, e.delta]);

let unhandled = 0;
const onUnhandled = () => void unhandled++;
beforeAll(() => void process.on('unhandledRejection', onUnhandled));
afterAll(() => void process.off('unhandledRejection', onUnhandled));

function streamRuntime(llm: Record<string, ScriptReply[]>, opts: { overrides?: BundleOverrides; tools?: Parameters<typeof createScriptedTools>[0] } = {}) {
  const seen: RuntimeEvent[] = [];
  const runtime = createRuntime({
    bundle: makeBundle(opts.overrides),
    llm: createScriptedClient(llm),
    tools: createScriptedTools(opts.tools),
    onEvent: (e) => seen.push(e),
    ids: createSequentialIds('stream'),
  });
  const req = (over: Partial<TurnRequest> = {}): TurnRequest => ({ agent: 'concierge', message: 'hi', context: { ...CTX }, ...over });
  return { runtime, seen, req };
}

describe('a streaming turn', () => {
  test('the preamble streams before the sub-agent runs; text = preamble then answer; history keeps the preamble where it was written', async () => {
    const sessions = createMemorySessionStore();
    const s = setup({
      sessions,
      llm: {
        concierge: [
          { text: 'Let me check your points.', chunk_ms: 5, tool_calls: [ask('rewards', { query: 'points', intent_count: 1 })] },
          { text: 'You have 500 points.' },
        ],
        rewards: [{ delay_ms: 150, text: '500 points.' }],
      },
    });
    const r = await s.turn('my points?');
    expect(r.text).toBe('Let me check your points.\n\nYou have 500 points.');
    expect(deltas(r.events)).toEqual([
      ['concierge', 'Let '],
      ['concierge', 'me '],
      ['concierge', 'check '],
      ['concierge', 'your '],
      ['concierge', 'points.'],
      ['concierge', '\n\n'],
      ['concierge', 'You '],
      ['concierge', 'have '],
      ['concierge', '500 '],
      ['concierge', 'points.'],
    ]);
    const firstDelta = indexOf(r.events, (e) => e.type === 'text_delta');
    const agentStart = indexOf(r.events, (e) => e.type === 'agent_start');
    const agentEnd = indexOf(r.events, (e) => e.type === 'agent_end');
    expect(firstDelta).toBeLessThan(agentStart);
    expect(r.events[firstDelta].at_ms).toBeLessThan(r.events[agentEnd].at_ms - 100);
    expect(of(r.events, 'text')).toEqual([{ type: 'text', agent: 'concierge', text: r.text, at_ms: expect.any(Number) }]);
    // The compose call sees the preamble next to its tool call; the history keeps it before the answer.
    const compose = callsOf(s.calls, 'concierge')[1];
    expect(compose.messages[1]).toMatchObject({ role: 'assistant', content: 'Let me check your points.', toolCalls: [{ name: 'ask_rewards' }] });
    expect(await sessions.get(CTX.episode, 'concierge')).toEqual([
      { role: 'user', content: 'my points?' },
      { role: 'assistant', content: 'Let me check your points.' },
      { role: 'assistant', content: 'You have 500 points.' },
    ]);
    // Sub-agents' words are not the user's to see.
    expect(of(r.events, 'text_delta').every((e) => e.agent === 'concierge')).toBe(true);
  });

  test('every event carries at_ms; turn_start first, routing then turn_end last; model and agent spans bracket their work', async () => {
    const s = setup({
      bundle: makeBundle({ concierge: { policy: { max_recursion_depth: 2 } }, travel: { policy: { max_recursion_depth: 1 } } }),
      llm: {
        concierge: [{ tool_calls: [ask('travel', { query: 'trip', intent_count: 1 })] }, { text: 'Done.', usage: { inputTokens: 10, outputTokens: 2 } }],
        travel: [
          { tool_calls: [ask('weather', { query: 'rome' })], usage: { inputTokens: 5, outputTokens: 1 } },
          { text: 'Sunny trip.', usage: { inputTokens: 7, outputTokens: 3 } },
        ],
        weather: [{ text: 'Sunny.', usage: { inputTokens: 3, outputTokens: 1 } }],
      },
    });
    const r = await s.turn('trip?');
    expect(r.events.every((e) => typeof e.at_ms === 'number' && e.at_ms >= 0)).toBe(true);
    const times = r.events.map((e) => e.at_ms);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(r.events[0]).toMatchObject({ type: 'turn_start', agent: 'concierge', trace_id: r.trace_id, span_id: routingOf(r.events).span_id });
    expect(r.events.map((e) => e.type).slice(-3)).toEqual(['text', 'routing', 'turn_end']);
    expect(r.events.at(-1)).toMatchObject({ type: 'turn_end', outcome: 'ok', usage: { inputTokens: 25, outputTokens: 7 } });
    expect(of(r.events, 'model_start')).toHaveLength(5);
    expect(of(r.events, 'model_end').map((e) => e.outcome)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(
      of(r.events, 'model_end')
        .filter((e) => e.agent === 'travel')
        .map((e) => e.usage),
    ).toEqual([
      { inputTokens: 5, outputTokens: 1 },
      { inputTokens: 7, outputTokens: 3 },
    ]);
    expect(new Set(of(r.events, 'model_start').map((e) => e.call_id)).size).toBe(5);
    // agent_end usage includes nested sub-agents: travel's own 12/4 plus weather's 3/1.
    const ends = Object.fromEntries(of(r.events, 'agent_end').map((e) => [e.agent, e]));
    expect(ends.travel.usage).toEqual({ inputTokens: 15, outputTokens: 5 });
    expect(ends.weather.usage).toEqual({ inputTokens: 3, outputTokens: 1 });
    const starts = Object.fromEntries(of(r.events, 'agent_start').map((e) => [e.agent, e]));
    expect(starts.weather.parent_span_id).toBe(starts.travel.span_id);
    expect(starts.travel).toMatchObject({ tool: 'ask_travel', parent_span_id: routingOf(r.events).span_id });
    // No pricing in the fixture models: cost is unknown, never 0.
    expect(r.events.some((e) => 'cost_usd' in e)).toBe(false);
  });

  test('cost_usd on model_end, agent_end and turn_end when the models declare pricing', async () => {
    const bundle = makeBundle();
    for (const m of Object.values(bundle.models)) m.pricing = { input: 1, output: 10 };
    const runtime = createRuntime({
      bundle,
      llm: createScriptedClient({
        concierge: [
          { tool_calls: [ask('support', { query: 'q', intent_count: 1 })], usage: { inputTokens: 1000, outputTokens: 100 } },
          { text: 'ok', usage: { inputTokens: 1000, outputTokens: 0 } },
        ],
        support: [{ text: 'a', usage: { inputTokens: 500, outputTokens: 50 } }],
      }),
      tools: {},
    });
    const r = await runtime.turn({ agent: 'concierge', message: 'x', context: CTX });
    expect(of(r.events, 'agent_end')[0].cost_usd).toBeCloseTo((500 + 50 * 10) / 1e6, 12);
    expect(r.events.at(-1)).toMatchObject({ type: 'turn_end' });
    expect((r.events.at(-1) as Ev<'turn_end'>).cost_usd).toBeCloseTo((2500 + 150 * 10) / 1e6, 12);
    expect(r.cost_usd).toBe((r.events.at(-1) as Ev<'turn_end'>).cost_usd);
    expect(of(r.events, 'model_end').every((e) => typeof e.cost_usd === 'number')).toBe(true);
  });

  test('two concurrent sub-agents each emit agent_start before either emits agent_end', async () => {
    const s = setup({
      llm: {
        concierge: [{ tool_calls: [ask('billing', { query: 'a', intent_count: 2 }), ask('support', { query: 'b', intent_count: 2 })] }, { text: 'Both.' }],
        billing: [{ delay_ms: 60, text: 'Billing.' }],
        support: [{ delay_ms: 30, text: 'Support.' }],
      },
    });
    const r = await s.turn('two things');
    const pos = (type: string, agent: string) => indexOf(r.events, (e) => e.type === type && 'agent' in e && e.agent === agent);
    const firstEnd = Math.min(pos('agent_end', 'billing'), pos('agent_end', 'support'));
    expect(pos('agent_start', 'billing')).toBeLessThan(firstEnd);
    expect(pos('agent_start', 'support')).toBeLessThan(firstEnd);
    expect(
      of(r.events, 'agent_end')
        .map((e) => [e.agent, e.outcome])
        .sort(),
    ).toEqual([
      ['billing', 'ok'],
      ['support', 'ok'],
    ]);
  });

  test("a handler's status lands between its sub-agent's start and end, with that span id; undeclared ids are dropped", async () => {
    const bundle = makeBundle({
      travel: { status_events: ['comparing_prices'] },
      concierge: {
        status_rendering: { searching_trips: 'Searching trips…', comparing_prices: 'Comparing prices…', looking_up_points: 'Checking your points…' },
      },
    });
    bundle.tools.search_trips.status_events = ['searching_trips', 'comparing_prices'];
    const runtime = createRuntime({
      bundle,
      llm: createScriptedClient({
        concierge: [{ tool_calls: [ask('travel', { query: 'rome', intent_count: 1 })] }, { text: 'Found trips.' }],
        travel: [{ tool_calls: [{ name: 'search_trips', arguments: { city: 'Rome' } }] }, { text: 'Two trips.' }],
      }),
      tools: {
        search_trips: async (_args, ctx) => {
          await new Promise((r) => setTimeout(r, 20));
          ctx.emitStatus('comparing_prices');
          ctx.emitStatus('comparing_prices'); // collapsed
          ctx.emitStatus('looking_up_points'); // not this tool's: dropped
          await new Promise((r) => setTimeout(r, 20));
          return { trips: 2 };
        },
      },
    });
    const r = await runtime.turn({ agent: 'concierge', message: 'trips', context: CTX });
    const start = of(r.events, 'agent_start')[0];
    const statuses = of(r.events, 'status');
    expect(statuses.map((e) => [e.event, e.span_id, e.agent])).toEqual([
      ['searching_trips', start.span_id, 'travel'],
      ['comparing_prices', start.span_id, 'travel'],
    ]);
    const at = (e: RuntimeEvent) => r.events.indexOf(e);
    const end = of(r.events, 'agent_end')[0];
    for (const st of statuses) {
      expect(at(st)).toBeGreaterThan(at(start));
      expect(at(st)).toBeLessThan(at(end));
    }
    const toolStart = of(r.events, 'tool_start')[0];
    const toolEnd = of(r.events, 'tool_end')[0];
    expect(toolStart).toMatchObject({ agent: 'travel', tool: 'search_trips', span_id: start.span_id });
    expect(toolEnd).toMatchObject({ agent: 'travel', tool: 'search_trips', outcome: 'ok', tool_call_id: toolStart.tool_call_id });
    expect(at(statuses[1])).toBeLessThan(at(toolEnd));
  });

  test('a client with only complete() still works: each reply is one delta', async () => {
    const inner = createScriptedClient({
      concierge: [{ text: 'On it.', tool_calls: [ask('support', { query: 'q', intent_count: 1 })] }, { text: 'Here you go.' }],
      support: [{ text: 'a' }],
    });
    const runtime = createRuntime({ bundle: makeBundle(), llm: { complete: (req) => inner.complete(req) }, tools: {} });
    const r = await runtime.turn({ agent: 'concierge', message: 'x', context: CTX });
    expect(deltas(r.events)).toEqual([
      ['concierge', 'On it.'],
      ['concierge', '\n\n'],
      ['concierge', 'Here you go.'],
    ]);
    expect(r.text).toBe('On it.\n\nHere you go.');
  });
});

describe('relay mode (dispatch.stream: relay)', () => {
  const relay: BundleOverrides = { concierge: { stream: 'relay' } };

  test('answers stream in call order when the first-called sub-agent is the slowest; the root model is not called again', async () => {
    const { runtime, req } = streamRuntime(
      {
        concierge: [
          {
            text: 'Checking both.',
            tool_calls: [
              ask('billing', { query: 'a', intent_count: 3 }),
              ask('rewards', { query: 'b', intent_count: 3 }),
              ask('support', { query: 'c', intent_count: 3 }),
            ],
          },
        ],
        billing: [{ delay_ms: 150, text: 'You have two open invoices.', chunk_ms: 10 }],
        rewards: [{ delay_ms: 10, text: 'You have 500 points.' }],
        support: [{ delay_ms: 20, error: 'RAW-upstream 502' }],
      },
      { overrides: relay },
    );
    const events: RuntimeEvent[] = [];
    const s = runtime.stream(req());
    for await (const e of s) events.push(e);
    const r = await s.result;
    expect(r.text).toBe(
      'Checking both.\n\nYou have two open invoices.\n\nYou have 500 points.\n\nThe support specialist ran into a problem and could not answer.',
    );
    expect(events).toEqual(r.events);
    const ds = of(events, 'text_delta');
    // One run of deltas per speaker, in call order (the "\n\n" between runs belongs to the next speaker).
    expect(ds.map((e) => e.agent).filter((a, i, all) => a !== all[i - 1])).toEqual(['concierge', 'billing', 'rewards', 'support']);
    expect(ds.filter((e) => e.agent === 'billing').map((e) => e.delta)).toEqual(['\n\n', 'You ', 'have ', 'two ', 'open ', 'invoices.']);
    // billing streams live (before its span ends); rewards was buffered until billing finished.
    const billingEnd = events.findIndex((e) => e.type === 'agent_end' && e.agent === 'billing');
    const rewardsEnd = events.findIndex((e) => e.type === 'agent_end' && e.agent === 'rewards');
    expect(events.indexOf(ds[2])).toBeLessThan(billingEnd);
    expect(rewardsEnd).toBeLessThan(billingEnd);
    const firstRewards = events.indexOf(ds.find((e) => e.agent === 'rewards')!);
    expect(firstRewards).toBeGreaterThan(rewardsEnd);
    expect(firstRewards).toBeGreaterThan(events.indexOf(ds.filter((e) => e.agent === 'billing').at(-1)!));
    expect(events[firstRewards].at_ms).toBeGreaterThanOrEqual(100);
    expect(of(events, 'model_start').filter((e) => e.agent === 'concierge')).toHaveLength(1);
    expect(JSON.stringify(events)).not.toContain('RAW-');
    expect(r.outcomes).toEqual({ billing: 'ok', rewards: 'ok', support: 'error' });
  });

  test('a reply with only its own tools still composes; the cap-dropped call says so plainly', async () => {
    const { runtime, req } = streamRuntime(
      {
        concierge: [
          { tool_calls: [{ name: 'record_feedback', arguments: { positive: true } }] },
          { tool_calls: [ask('support', { query: 'b', intent_count: 2 }), ask('billing', { query: 'a', intent_count: 2 })] },
        ],
        support: [{ text: 'Returns take five days.' }],
      },
      { overrides: { concierge: { stream: 'relay', fan_out_cap: 1 } }, tools: { record_feedback: { result: { saved: true } } } },
    );
    const r = await runtime.turn(req());
    expect(r.text).toBe('Returns take five days.\n\nI could not look into every part of your request in this turn; ask me about the rest next.');
  });
});

describe('cancellation and backpressure', () => {
  test('abort mid-stream ends the stream promptly with turn_end, no unhandled rejection', async () => {
    const before = unhandled;
    const { runtime, req } = streamRuntime({
      concierge: [{ text: 'One moment.', tool_calls: [ask('billing', { query: 'a', intent_count: 1 })] }],
      billing: [{ delay_ms: 1500, text: 'late' }],
    });
    const controller = new AbortController();
    const s = runtime.stream(req({ signal: controller.signal }));
    const events: RuntimeEvent[] = [];
    let abortedAt = 0;
    for await (const e of s) {
      events.push(e);
      if (e.type === 'agent_start') {
        abortedAt = performance.now();
        controller.abort();
      }
    }
    const took = performance.now() - abortedAt;
    expect(took).toBeLessThan(200);
    expect(events.at(-1)).toMatchObject({ type: 'turn_end', outcome: 'cancelled' });
    await expect(s.result).rejects.toBeInstanceOf(TurnError);
    await new Promise((r) => setTimeout(r, 30));
    expect(unhandled).toBe(before);
  });

  test('leaving the iteration early cancels the turn; its result rejects (handled) and nothing leaks', async () => {
    const before = unhandled;
    const { runtime, seen, req } = streamRuntime({
      concierge: [{ text: 'One moment please.', tool_calls: [ask('billing', { query: 'a', intent_count: 1 })] }],
      billing: [{ delay_ms: 1500, text: 'late' }],
    });
    const s = runtime.stream(req());
    const t0 = performance.now();
    for await (const e of s) if (e.type === 'text_delta') break;
    const err = await s.result.catch((e: unknown) => e);
    expect(performance.now() - t0).toBeLessThan(300);
    expect(err).toMatchObject({ kind: 'cancelled' });
    expect(seen.at(-1)).toMatchObject({ type: 'turn_end', outcome: 'cancelled' });
    // A stream nobody awaits the result of, cancelled: still no unhandled rejection.
    const t = runtime.stream(req({ context: { ...CTX, episode: 'ep-2' } }));
    t.cancel();
    await new Promise((r) => setTimeout(r, 30));
    expect(unhandled).toBe(before);
  });

  test('a slow reader stalls nothing: sub-agents finish while nobody reads; every event is still delivered, in order', async () => {
    const { runtime, seen, req } = streamRuntime({
      concierge: [
        { text: 'On it.', tool_calls: [ask('billing', { query: 'a', intent_count: 2 }), ask('support', { query: 'b', intent_count: 2 })] },
        { text: 'Both done.' },
      ],
      billing: [{ delay_ms: 20, text: 'b' }],
      support: [{ delay_ms: 20, text: 's' }],
    });
    const s = runtime.stream(req());
    const r = await s.result; // nobody has read a single event yet
    expect(seen.at(-1)).toMatchObject({ type: 'turn_end', outcome: 'ok' });
    expect(r.text).toBe('On it.\n\nBoth done.');
    const read: RuntimeEvent[] = [];
    for await (const e of s) {
      read.push(e);
      await new Promise((res) => setTimeout(res, 1)); // a slow reader
    }
    expect(read).toEqual(seen);
  });
});

describe('per-turn cohorts, the failsafe count, request hints, traceparent, onError', () => {
  test('flags on a turn select the cohort for that turn; the runtime flags are the default; unknown flags are usage errors', async () => {
    const s = setup({ llm: { concierge: [{ text: 'a' }, { text: 'b' }] } });
    await s.runtime.turn({ agent: 'concierge', message: 'x', context: CTX, flags: ['v2'] });
    await s.runtime.turn({ agent: 'concierge', message: 'y', context: CTX });
    expect(s.calls.map((c) => c.system.prefix_sha256)).toHaveLength(2);
    expect(s.calls[0].system.prefix_sha256).not.toBe(s.calls[1].system.prefix_sha256);
    expect(() => s.runtime.stream({ agent: 'concierge', message: 'x', context: CTX, flags: ['v3'] })).toThrow(RuntimeUsageError);
    expect(() => s.runtime.stream({ agent: 'concierge', message: 'x', context: CTX, flags: ['v3'] })).toThrow(
      'Unknown feature flag "v3". Did you mean "v2"? Known flags: v2.',
    );
    // Flags in the context were silently ignored before; now they are a usage error pointing at the request field.
    await expect(s.runtime.turn({ agent: 'concierge', message: 'x', context: { ...CTX, flags: 'v2' } })).rejects.toThrow(
      'pass feature flags on the request itself',
    );
  });

  test('the intent-count failsafe counts every call the model emitted, valid or not', async () => {
    const s = setup({
      llm: {
        concierge: [{ tool_calls: [ask('billing', { query: 'a', intent_count: 2 }), { name: 'ask_nobody', arguments: { query: 'b' } }] }, { text: 'Done.' }],
        billing: [{ text: 'ok' }],
      },
    });
    const r = await s.turn('two');
    expect(routingOf(r.events)).toMatchObject({ intent_retry: false, intent_count: 2 });
    expect(callsOf(s.calls, 'concierge')).toHaveLength(2);
  });

  test('every request carries prefixSha256, toolShapes aligned with tools, and the deadline', async () => {
    const seenReqs: { agent: string; sha?: string; names: string[]; openai: string[]; anthropic: string[]; deadline?: number }[] = [];
    const inner = createScriptedClient({
      concierge: [{ tool_calls: [ask('support', { query: 'q', intent_count: 1 })] }, { text: 'ok' }],
      support: [{ text: 'a' }],
    });
    const t0 = Date.now();
    const runtime = createRuntime({
      bundle: makeBundle(),
      llm: {
        complete: (req) => inner.complete(req),
        stream(req) {
          seenReqs.push({
            agent: req.agent,
            sha: req.system.prefixSha256,
            names: req.tools.map((t) => t.name),
            openai: req.toolShapes?.openai.map((t) => t.function.name) ?? [],
            anthropic: req.toolShapes?.anthropic.map((t) => t.name) ?? [],
            deadline: req.deadline,
          });
          return inner.stream!(req);
        },
      },
      tools: {},
    });
    await runtime.turn({ agent: 'concierge', message: 'x', context: CTX });
    expect(seenReqs.map((r) => r.agent)).toEqual(['concierge', 'support', 'concierge']);
    for (const r of seenReqs) {
      expect(r.sha).toMatch(/^[0-9a-f]{64}$/);
      expect(r.openai).toEqual(r.names);
      expect(r.anthropic).toEqual(r.names);
      expect(r.deadline).toBeGreaterThanOrEqual(t0);
    }
    // concierge's budget is 10 s, support's 2 s (inside it).
    expect(seenReqs[0].deadline! - t0).toBeGreaterThan(9_000);
    expect(seenReqs[1].deadline! - t0).toBeLessThanOrEqual(2_100);
  });

  test('traceparent continues the caller trace; a malformed one starts a new trace', async () => {
    const s = setup({ llm: { concierge: [{ text: 'a' }, { text: 'b' }] } });
    const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const r = await s.runtime.turn({ agent: 'concierge', message: 'x', context: CTX, traceparent: `00-${trace}-00f067aa0ba902b7-01` });
    expect(r.trace_id).toBe(trace);
    expect(r.events[0]).toMatchObject({ type: 'turn_start', trace_id: trace, parent_span_id: '00f067aa0ba902b7' });
    const bad = await s.runtime.turn({ agent: 'concierge', message: 'x', context: CTX, traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` });
    expect(bad.trace_id).not.toBe('0'.repeat(32));
    expect(bad.events[0]).not.toHaveProperty('parent_span_id');
  });

  test('onError receives the raw cause of model, tool, session and listener failures; events never do', async () => {
    const errors: [string, ErrorInfo][] = [];
    const runtime = createRuntime({
      bundle: makeBundle(),
      llm: createScriptedClient({
        concierge: [{ error: 'RAW-model-down' }, { tool_calls: [ask('billing', { query: 'a', intent_count: 1 })] }, { text: 'ok' }],
        billing: [{ tool_calls: [{ name: 'get_invoices', arguments: {} }] }, { text: 'none' }],
      }),
      tools: createScriptedTools({ get_invoices: { throw: 'RAW-db-timeout' } }),
      sessions: {
        get: () => {
          throw new Error('RAW-store-offline');
        },
        append: () => undefined,
      },
      onEvent: (e) => {
        if (e.type === 'turn_start') throw new Error('RAW-listener');
      },
      onError: (e, info) => void errors.push([(e as Error).message, info]),
    });
    const r = await runtime.turn({ agent: 'concierge', message: 'x', context: CTX });
    const kinds = errors.map(([m, i]) => `${i.kind}:${i.agent}${i.tool ? `:${i.tool}` : ''}:${m}`);
    expect(kinds).toEqual([
      'hook:concierge:RAW-listener',
      'session:concierge:RAW-store-offline',
      'model:concierge:RAW-model-down',
      'session:billing:RAW-store-offline',
      'tool:billing:get_invoices:RAW-db-timeout',
    ]);
    expect(errors.every(([, i]) => /^[0-9a-f]{16}$/.test(i.span_id))).toBe(true);
    expect(JSON.stringify(r.events)).not.toContain('RAW-');
  });
});

describe('the scripted client streams', () => {
  test('word by word, delay_ms before the first word and chunk_ms between words; the deltas join to the text exactly', async () => {
    const text = '  Two  open invoices,\nboth due soon. ';
    const client = createScriptedClient({
      billing: [{ delay_ms: 40, chunk_ms: 20, text, status: ['fetching_invoices'], tool_calls: [{ name: 'get_invoices', arguments: {} }] }],
    });
    const bundle = makeBundle();
    const t0 = performance.now();
    const times: number[] = [];
    const chunks: unknown[] = [];
    const req = {
      agent: 'billing',
      model: { ...bundle.models['sub-model'], id: 'sub-model' },
      system: { prefix: '', suffix: '' },
      messages: [],
      tools: [],
      parallelToolCalls: false,
      signal: new AbortController().signal,
    };
    for await (const c of client.stream!(req)) {
      chunks.push(c);
      times.push(performance.now() - t0);
    }
    const deltas = chunks.filter((c): c is { type: 'text_delta'; delta: string } => (c as { type: string }).type === 'text_delta').map((c) => c.delta);
    expect(deltas).toEqual(['  Two  ', 'open ', 'invoices,\n', 'both ', 'due ', 'soon. ']);
    expect(deltas.join('')).toBe(text);
    expect(chunks[0]).toEqual({ type: 'status', event: 'fetching_invoices' });
    expect(chunks.slice(-2)).toEqual([
      { type: 'tool_call', call: { id: 'call_billing_1', name: 'get_invoices', arguments: '{}' } },
      { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } },
    ]);
    expect(times[1]).toBeGreaterThanOrEqual(35);
    expect(times.at(-1)! - times[1]).toBeGreaterThanOrEqual(5 * 20 - 10);
  });

  test('chunk_ms is validated like delay_ms', () => {
    const bad = parseScript({ llm: { a: [{ text: 'x', chunk_ms: -1 }] } });
    expect(bad).toEqual({ ok: false, problems: [{ path: ['llm', 'a', 0, 'chunk_ms'], message: 'must be a number of milliseconds between 0 and 600000' }] });
    expect(parseScript({ llm: { a: [{ text: 'x', chunk_ms: 15 }] } }).ok).toBe(true);
  });
});
