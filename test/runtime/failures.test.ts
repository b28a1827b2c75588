/**
 * docs/runtime.md step 5: every failure is a typed tool result in plain words; siblings
 * keep running; envelopes are checked; the root's own failures reject the turn.
 */
import { describe, expect, test } from 'vitest';
import { RuntimeUsageError, ScriptExhaustedError, TurnError } from '../../src/runtime/index.js';
import { makeBundle } from './fixtures/bundle.js';
import { ask, callsOf, env, routingOf, setup, toolResults } from './helpers.js';

const oneAsk = (agent: string, query = 'q') => ({ tool_calls: [ask(agent, { query, intent_count: 1 })] });
const resultFor = (calls: Parameters<typeof callsOf>[0], name: string) => toolResults(callsOf(calls, 'concierge').at(-1)!).find((t) => t.name === name)!.result;

describe('fallback model', () => {
  test('a failed model call is retried once on fallback_model, which the agent keeps', async () => {
    const s = setup({
      llm: {
        concierge: [oneAsk('billing'), { text: 'ok' }],
        billing: [{ error: 'upstream 503 RAW-DETAIL' }, { tool_calls: [{ name: 'get_invoices', arguments: {} }] }, { text: 'two invoices' }],
      },
      tools: { get_invoices: { result: env({ open: 2 }) } },
    });
    const r = await s.turn('hi');
    expect(callsOf(s.calls, 'billing').map((c) => c.model)).toEqual(['sub-model', 'fallback-model', 'fallback-model']);
    expect(resultFor(s.calls, 'ask_billing')).toEqual({ ok: true, answer: 'two invoices' });
    const span = routingOf(r.events).spans[0];
    expect(span).toMatchObject({ outcome: 'ok', fallback: true, model: 'fallback-model' });
  });

  test('when the fallback fails too → typed error, no raw text anywhere', async () => {
    const s = setup({
      llm: { concierge: [oneAsk('billing'), { text: 'Sorry, billing is down.' }], billing: [{ error: 'RAW-ONE' }, { error: 'RAW-TWO' }] },
    });
    const r = await s.turn('hi');
    expect(r.text).toBe('Sorry, billing is down.');
    expect(resultFor(s.calls, 'ask_billing')).toEqual({
      ok: false,
      failure: 'error',
      message: 'The billing specialist ran into a problem and could not answer.',
    });
    expect(JSON.stringify([s.calls, r.events])).not.toMatch(/RAW-/);
    expect(r.outcomes).toEqual({ billing: 'error' });
  });

  test('an agent without fallback_model fails on the first error', async () => {
    const s = setup({ llm: { concierge: [oneAsk('travel'), { text: 'x' }], travel: [{ error: 'boom' }, { text: 'never used' }] } });
    await s.turn('hi');
    expect(callsOf(s.calls, 'travel')).toHaveLength(1);
    expect(resultFor(s.calls, 'ask_travel')).toMatchObject({ failure: 'error' });
  });

  test('the root falls back too; when both fail the turn rejects with TurnError', async () => {
    const ok = setup({ llm: { concierge: [{ error: 'x' }, { text: 'from fallback' }] } });
    expect((await ok.turn('hi')).text).toBe('from fallback');
    expect(ok.calls.map((c) => c.model)).toEqual(['orch-model', 'fallback-model']);

    const bad = setup({ llm: { concierge: [{ error: 'RAW-A' }, { error: 'RAW-B' }] } });
    const err = await bad.turn('hi').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TurnError);
    expect(err).toMatchObject({ kind: 'error', agent: 'concierge' });
    expect((err as TurnError).message).not.toMatch(/RAW-/);
    expect((err as TurnError).events.map((e) => e.type).slice(-2)).toEqual(['routing', 'turn_end']);
    expect((err as TurnError).events.at(-1)).toMatchObject({ type: 'turn_end', outcome: 'error' });
  });
});

describe('budgets, depth, whitelist, schema', () => {
  test('max_tool_calls exceeded → budget_exceeded for the whole sub-agent', async () => {
    const bundle = makeBundle({ billing: { policy: { max_tool_calls: 1 } } });
    const s = setup({
      bundle,
      llm: {
        concierge: [oneAsk('billing'), { text: 'x' }],
        billing: [
          {
            tool_calls: [
              { name: 'get_invoices', arguments: {} },
              { name: 'get_invoices', arguments: { status: 'paid' } },
            ],
          },
        ],
      },
      tools: { get_invoices: { result: env({}) } },
    });
    const r = await s.turn('hi');
    expect(resultFor(s.calls, 'ask_billing')).toEqual({
      ok: false,
      failure: 'budget_exceeded',
      message: 'The billing specialist needed more steps than it is allowed and stopped.',
    });
    expect(r.outcomes).toEqual({ billing: 'budget_exceeded' });
  });

  test('a model that never stops calling tools ends at limits.maxRounds → budget_exceeded', async () => {
    const bundle = makeBundle({ billing: { policy: { max_tool_calls: undefined } } });
    const s = setup({
      bundle,
      limits: { maxRounds: 3 },
      llm: {
        concierge: [oneAsk('billing'), { text: 'x' }],
        billing: Array.from({ length: 5 }, () => ({ tool_calls: [{ name: 'get_invoices', arguments: {} }] })),
      },
      tools: { get_invoices: { result: env({}) } },
    });
    await s.turn('hi');
    expect(callsOf(s.calls, 'billing')).toHaveLength(3);
    expect(resultFor(s.calls, 'ask_billing')).toMatchObject({ failure: 'budget_exceeded' });
  });

  test('the root over its max_tool_calls: excess calls get budget_exceeded results and the root composes', async () => {
    const bundle = makeBundle({ concierge: { policy: { max_tool_calls: 1 } } });
    const s = setup({
      bundle,
      llm: {
        concierge: [{ tool_calls: [ask('billing', { query: 'a', intent_count: 2 }), ask('travel', { query: 'b', intent_count: 2 })] }, { text: 'partial' }],
        billing: [{ text: 'b' }],
      },
    });
    const r = await s.turn('hi');
    expect(r.text).toBe('partial');
    expect(resultFor(s.calls, 'ask_travel')).toMatchObject({ failure: 'budget_exceeded' });
    expect(r.outcomes).toEqual({ billing: 'ok', travel: 'budget_exceeded' });
  });

  test('a sub-agent calling a sub-agent beyond max_recursion_depth → depth_exceeded (it still answers)', async () => {
    const s = setup({
      llm: {
        concierge: [oneAsk('travel'), { text: 'x' }],
        travel: [{ tool_calls: [{ name: 'ask_weather', arguments: { query: 'Rome weather' } }] }, { text: 'Trips, no weather.' }],
      },
    });
    await s.turn('hi');
    const travelResults = toolResults(callsOf(s.calls, 'travel')[1]);
    expect(travelResults[0].result).toMatchObject({ ok: false, failure: 'depth_exceeded' });
    expect(callsOf(s.calls, 'weather')).toHaveLength(0);
    expect(resultFor(s.calls, 'ask_travel')).toEqual({ ok: true, answer: 'Trips, no weather.' });
  });

  test('every ancestor’s depth counts: the root allows 1 level below it', async () => {
    const bundle = makeBundle({ travel: { policy: { max_recursion_depth: 1 } } });
    const s = setup({
      bundle,
      llm: { concierge: [oneAsk('travel'), { text: 'x' }], travel: [{ tool_calls: [{ name: 'ask_weather', arguments: { query: 'w' } }] }, { text: 't' }] },
    });
    await s.turn('hi');
    expect(toolResults(callsOf(s.calls, 'travel')[1])[0].result).toMatchObject({ failure: 'depth_exceeded' });
  });

  test('nesting within every depth limit runs, its span stitched under the caller’s span', async () => {
    const bundle = makeBundle({ concierge: { policy: { max_recursion_depth: 2 } }, travel: { policy: { max_recursion_depth: 1 } } });
    const s = setup({
      bundle,
      llm: {
        concierge: [oneAsk('travel'), { text: 'x' }],
        travel: [{ tool_calls: [{ name: 'ask_weather', arguments: { query: 'w' } }] }, { text: 't' }],
        weather: [{ text: 'sunny' }],
      },
    });
    const r = await s.turn('hi');
    expect(callsOf(s.calls, 'weather')[0].messages).toEqual([{ role: 'user', content: '{"query":"w"}' }]);
    const [travel, weather] = routingOf(r.events).spans;
    expect(weather.parent_span_id).toBe(travel.span_id);
    expect(travel.parent_span_id).toBe(routingOf(r.events).span_id);
    expect(r.outcomes).toEqual({ travel: 'ok' });
  });

  test('a tool missing from the whitelist → tool_denied; a tool of another agent → tool_denied', async () => {
    const bundle = makeBundle({ billing: { policy: { tool_whitelist: [] } } });
    let ran = 0;
    const s = setup({
      bundle,
      llm: {
        concierge: [oneAsk('billing'), { text: 'x' }],
        billing: [
          {
            tool_calls: [
              { name: 'get_invoices', arguments: {} },
              { name: 'search_trips', arguments: { city: 'Rome' } },
            ],
          },
          { text: 'b' },
        ],
      },
      handlers: { get_invoices: () => void ran++, search_trips: () => void ran++ },
    });
    await s.turn('hi');
    expect(toolResults(callsOf(s.calls, 'billing')[1]).map((t) => t.result.failure)).toEqual(['tool_denied', 'tool_denied']);
    expect(ran).toBe(0);
  });

  test('a structured sub-agent whose answer breaks its output schema → schema_violation', async () => {
    const output = { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] };
    const s = setup({
      bundle: makeBundle({ support: { output } }),
      llm: {
        concierge: [{ tool_calls: [ask('support', { query: 'a', intent_count: 2 }), ask('billing', { query: 'b', intent_count: 2 })] }, { text: 'x' }],
        support: [{ text: '{"total":"many"}' }],
        billing: [{ text: 'b' }],
      },
    });
    const r = await s.turn('hi');
    expect(r.outcomes).toEqual({ billing: 'ok', support: 'schema_violation' });
    const good = setup({
      bundle: makeBundle({ support: { output } }),
      llm: { concierge: [oneAsk('support'), { text: 'x' }], support: [{ text: '{"total":3}' }] },
    });
    await good.turn('hi');
    expect(resultFor(good.calls, 'ask_support')).toEqual({ ok: true, result: { total: 3 } });
  });

  test('a tool that throws → typed error result, its message never reaches a model', async () => {
    const s = setup({
      llm: {
        concierge: [oneAsk('travel'), { text: 'x' }],
        travel: [{ tool_calls: [{ name: 'search_trips', arguments: { city: 'Rome' } }] }, { text: 'no trips' }],
      },
      tools: { search_trips: { throw: 'ECONNRESET RAW-SOCKET at 10.0.0.7' } },
    });
    await s.turn('hi');
    expect(toolResults(callsOf(s.calls, 'travel')[1])[0].result).toEqual({
      ok: false,
      failure: 'error',
      message: 'The tool "search_trips" ran into a problem and returned nothing.',
    });
    expect(JSON.stringify(s.calls)).not.toContain('RAW-SOCKET');
  });

  test('a tool without a handler → typed error', async () => {
    const s = setup({
      llm: { concierge: [oneAsk('travel'), { text: 'x' }], travel: [{ tool_calls: [{ name: 'search_trips', arguments: { city: 'Rome' } }] }, { text: 't' }] },
    });
    await s.turn('hi');
    expect(toolResults(callsOf(s.calls, 'travel')[1])[0].result).toMatchObject({ failure: 'error' });
  });
});

describe('envelopes', () => {
  const run = (result: unknown) => {
    const s = setup({
      llm: { concierge: [oneAsk('billing'), { text: 'x' }], billing: [{ tool_calls: [{ name: 'get_invoices', arguments: {} }] }, { text: 'billing says' }] },
      handlers: { get_invoices: () => result },
    });
    return s.turn('hi').then((r) => ({ s, r, seenByBilling: toolResults(callsOf(s.calls, 'billing')[1])[0].result }));
  };

  test('status ok → payload', async () => {
    const { seenByBilling, r } = await run(env({ open: 2 }));
    expect(seenByBilling).toEqual({ ok: true, payload: { open: 2 } });
    expect(r.outcomes).toEqual({ billing: 'ok' });
  });

  test('status partial → payload with a caveat; the sub-agent’s answer carries it', async () => {
    const { seenByBilling, s, r } = await run(env({ open: 1 }, 'partial'));
    expect(seenByBilling).toMatchObject({ ok: true, partial: true, payload: { open: 1 } });
    expect(typeof seenByBilling.caveat).toBe('string');
    expect(resultFor(s.calls, 'ask_billing')).toMatchObject({ ok: true, answer: 'billing says', caveat: expect.any(String) });
    expect(r.outcomes).toEqual({ billing: 'ok' });
  });

  test('status error → data_unavailable (no payload, no partial[] details)', async () => {
    const { seenByBilling, s, r } = await run({ status: 'error', principal: 'user-1', payload: { SECRET: 1 }, partial: [{ source: 'RAW-SRC' }] });
    expect(seenByBilling).toEqual({ ok: false, failure: 'data_unavailable', message: 'The data from "get_invoices" is unavailable right now.' });
    expect(JSON.stringify(s.calls)).not.toMatch(/SECRET|RAW-SRC/);
    expect(r.outcomes).toEqual({ billing: 'data_unavailable' });
    expect(s.runtime.security.principalMismatches).toBe(0);
  });

  test('principal mismatch → payload suppressed everywhere, counter incremented, security event, no retry', async () => {
    let calls = 0;
    const s = setup({
      llm: {
        concierge: [oneAsk('billing'), { text: 'I could not get your invoices.' }],
        billing: [{ tool_calls: [{ name: 'get_invoices', arguments: {} }] }, { text: 'unavailable' }],
      },
      handlers: {
        get_invoices: () => {
          calls++;
          return { status: 'ok', principal: 'user-2', payload: { invoices: ['OTHER-USERS-INVOICE-77'] } };
        },
      },
    });
    const r = await s.turn('hi');
    expect(calls).toBe(1);
    expect(s.runtime.security.principalMismatches).toBe(1);
    expect(JSON.stringify(s.calls)).not.toContain('OTHER-USERS-INVOICE-77');
    expect(JSON.stringify(r.events)).not.toContain('OTHER-USERS-INVOICE-77');
    expect(toolResults(callsOf(s.calls, 'billing')[1])[0].result).toMatchObject({ ok: false, failure: 'data_unavailable' });
    expect(r.events.filter((e) => e.type === 'security')).toEqual([
      {
        type: 'security',
        kind: 'principal_mismatch',
        agent: 'billing',
        tool: 'get_invoices',
        trace_id: r.trace_id,
        span_id: routingOf(r.events).spans[0].span_id,
        at_ms: expect.any(Number),
      },
    ]);
    expect(r.outcomes).toEqual({ billing: 'data_unavailable' });
    expect(r.text).toBe('I could not get your invoices.');
  });

  test('an envelope without a principal counts as a mismatch; a non-object is unusable', async () => {
    const a = await run({ status: 'ok', payload: { x: 'NO-PRINCIPAL-DATA' } });
    expect(a.s.runtime.security.principalMismatches).toBe(1);
    expect(JSON.stringify(a.s.calls)).not.toContain('NO-PRINCIPAL-DATA');
    const b = await run('just a string');
    expect(b.seenByBilling).toMatchObject({ failure: 'data_unavailable' });
    expect(b.s.runtime.security.principalMismatches).toBe(0);
  });
});

describe('the root and the caller', () => {
  test('a script out of replies for a sub-agent → typed error naming the agent', async () => {
    const s = setup({ llm: { concierge: [oneAsk('support'), { text: 'x' }], support: [] } });
    await s.turn('hi');
    expect(resultFor(s.calls, 'ask_support')).toEqual({ ok: false, failure: 'error', message: 'The script has no reply left for agent "support".' });
  });

  test('a script out of replies for the root → ScriptExhaustedError naming the agent', async () => {
    const s = setup({ llm: { concierge: [oneAsk('support')], support: [{ text: 's' }] } });
    const err = await s.turn('hi').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScriptExhaustedError);
    expect((err as Error).message).toContain('"concierge"');
  });

  test('cancelling the turn rejects with TurnError(cancelled) promptly', async () => {
    const s = setup({ llm: { concierge: [oneAsk('billing'), { text: 'x' }], billing: [{ delay_ms: 5_000, text: 'late' }] } });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const t0 = Date.now();
    const err = await s.turn('hi', {}, 'concierge', ac.signal).catch((e: unknown) => e);
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(err).toMatchObject({ name: 'TurnError', kind: 'cancelled' });
  });

  test('the root’s own time budget → TurnError(timeout)', async () => {
    const bundle = makeBundle({ concierge: { policy: { time_budget_ms: 100 } } });
    const s = setup({ bundle, llm: { concierge: [{ delay_ms: 2_000, text: 'late' }] } });
    const t0 = Date.now();
    await expect(s.turn('hi')).rejects.toMatchObject({ kind: 'timeout' });
    expect(Date.now() - t0).toBeLessThan(1_000);
  });

  test('bad requests are usage errors (with did-you-mean)', async () => {
    const s = setup({ llm: {} });
    await expect(s.turn('hi', {}, 'concierg')).rejects.toThrow(new RuntimeUsageError('Unknown agent "concierg". Did you mean "concierge"?'));
    await expect(s.turn('hi', { principal: '' })).rejects.toBeInstanceOf(RuntimeUsageError);
  });
});
