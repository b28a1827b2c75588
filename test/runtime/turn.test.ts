/**
 * One turn, step by step (docs/runtime.md steps 1–6), on the fixture bundle with the
 * scripted model. Timing and failure behaviour have their own files.
 */
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { createMemorySessionStore } from '../../src/runtime/index.js';
import { makeBundle, setSuffix } from './fixtures/bundle.js';
import { ask, callsOf, env, routingOf, setup, toolResults } from './helpers.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('step 1: system prompt = cohort prefix + rendered suffix', () => {
  test('default cohort prefix, suffix rendered from the turn context', async () => {
    const s = setup({ llm: { concierge: [{ text: 'Hello!' }] } });
    await s.turn('hi');
    const [call] = s.calls;
    expect(call.system.prefix_sha256).toBe(s.bundle.agents.concierge.prefixes[0].sha256);
    expect(call.system.suffix).toBe('<context>\nDate: 2026-11-21\nLocale: en-US\nLocation: Rome\n</context>');
  });

  test('enabled flags select the matching cohort; agents without the flag keep their default', async () => {
    const s = setup({
      flags: ['v2', 'not_used_anywhere'],
      llm: { concierge: [{ tool_calls: [ask('support', { query: 'q', intent_count: 1 })] }, { text: 'ok' }], support: [{ text: 'a' }] },
    });
    await s.turn('hi');
    const v2 = s.bundle.agents.concierge.prefixes.find((p) => p.key === 'v2')!;
    expect(callsOf(s.calls, 'concierge')[0].system.prefix_sha256).toBe(v2.sha256);
    expect(callsOf(s.calls, 'support')[0].system.prefix_sha256).toBe(sha(s.bundle.agents.support.prefixes[0].text));
  });

  test('missing suffix fields render empty and are false in {{#if}}; `\\{{` renders a literal {{', async () => {
    const bundle = makeBundle();
    setSuffix(bundle.agents.concierge, 'Loc={{location}} {{#if location}}at {{location}}{{else}}nowhere{{/if}}{{~ date ~}} Raw=\\{{x}}');
    const s = setup({ bundle, llm: { concierge: [{ text: 'ok' }] } });
    await s.turn('hi', { location: undefined });
    expect(s.calls[0].system.suffix).toMatch(/^Loc= nowhere\d{4}-\d{2}-\d{2}Raw={{x}}$/);
  });
});

describe('step 2: call the model with its tools; no tool call → the text is the answer', () => {
  test('one model call, the agent’s tools offered, the text is the answer', async () => {
    const s = setup({ llm: { concierge: [{ text: 'Hello there!' }] } });
    const r = await s.turn('hi');
    expect(r.text).toBe('Hello there!');
    expect(s.calls).toHaveLength(1);
    expect(s.calls[0].tools).toEqual(['record_feedback', 'ask_billing', 'ask_travel', 'ask_rewards', 'ask_support']);
    expect(s.calls[0].messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(r.events.map((e) => e.type)).toEqual(['turn_start', 'model_start', 'text_delta', 'text_delta', 'model_end', 'text', 'routing', 'turn_end']);
    expect(r.events.filter((e) => e.type === 'text_delta').map((e) => e.delta)).toEqual(['Hello ', 'there!']);
    const routing = routingOf(r.events);
    expect(routing.invoked).toEqual([]);
    expect(routing.intent_count).toBeNull();
    expect(routing.cap).toEqual({ limit: 3, requested: 0, dropped: [], behavior: 'within' });
    expect(r.outcomes).toEqual({});
  });
});

describe('step 3: validating the tool calls', () => {
  test('an unknown tool → tool_denied result, the turn still answers', async () => {
    const s = setup({ llm: { concierge: [{ tool_calls: [{ name: 'ask_weather_now', arguments: {} }] }, { text: 'Sorry.' }] } });
    const r = await s.turn('hi');
    expect(r.text).toBe('Sorry.');
    expect(toolResults(s.calls[1])).toEqual([
      { name: 'ask_weather_now', result: { ok: false, failure: 'tool_denied', message: 'The tool "ask_weather_now" is not available to you.' } },
    ]);
  });

  test('arguments that are not JSON → schema_violation', async () => {
    const s = setup({ llm: { concierge: [{ tool_calls: [{ name: 'ask_billing', arguments: '{"query": "x", ' }] }, { text: 'ok' }] } });
    await s.turn('hi');
    expect(toolResults(s.calls[1])[0].result).toMatchObject({ ok: false, failure: 'schema_violation' });
    expect(routingOf(s.events).outcomes).toEqual({ billing: 'schema_violation' });
    expect(callsOf(s.calls, 'billing')).toHaveLength(0);
  });

  test('arguments that break the schema → schema_violation naming the problem, sub-agent never runs', async () => {
    const s = setup({
      llm: {
        concierge: [
          {
            tool_calls: [
              ask('billing', { intent_count: 2 }),
              ask('travel', { query: 42, intent_count: 2 }),
              { name: 'record_feedback', arguments: { positive: true, extra: 1 } },
            ],
          },
          { text: 'ok' },
        ],
      },
    });
    await s.turn('hi');
    const results = toolResults(s.calls[1]);
    expect(results.map((r) => r.result.failure)).toEqual(['schema_violation', 'schema_violation', 'schema_violation']);
    expect(results[0].result.message).toContain('missing required property "query"');
    expect(results[1].result.message).toContain('arguments.query: must be string');
    expect(results[2].result.message).toContain('property "extra" is not allowed');
    expect(s.calls.map((c) => c.agent)).toEqual(['concierge', 'concierge']);
    expect(routingOf(s.events).tool_outcomes).toEqual({ record_feedback: 'schema_violation' });
  });

  test('null for an optional property (strict-mode tools) means "not given"; null for a required one is a violation', async () => {
    const s = setup({
      llm: {
        concierge: [
          {
            tool_calls: [
              ask('billing', { query: 'q', prior_context: null, intent_count: 2 }),
              ask('travel', { query: null, prior_context: null, intent_count: 2 }),
            ],
          },
          { text: 'ok' },
        ],
        billing: [{ text: 'b' }],
      },
    });
    await s.turn('hi');
    expect(callsOf(s.calls, 'billing')[0].messages).toEqual([{ role: 'user', content: '{"query":"q"}' }]);
    expect(routingOf(s.events).outcomes).toEqual({ billing: 'ok', travel: 'schema_violation' });
  });

  test('more sub-agent calls than fan_out_cap → the first N run, the rest are dropped and recorded', async () => {
    const s = setup({
      llm: {
        concierge: [{ tool_calls: ['billing', 'travel', 'rewards', 'support'].map((a) => ask(a, { query: a, intent_count: 4 })) }, { text: 'composed' }],
        billing: [{ text: 'b' }],
        travel: [{ text: 't' }],
        rewards: [{ text: 'r' }],
      },
    });
    const r = await s.turn('everything');
    expect(r.text).toBe('composed');
    const routing = routingOf(r.events);
    expect(routing.invoked).toEqual(['billing', 'travel', 'rewards']);
    expect(routing.cap).toEqual({ limit: 3, requested: 4, dropped: ['ask_support'], behavior: 'over' });
    expect(callsOf(s.calls, 'support')).toHaveLength(0);
    const dropped = toolResults(callsOf(s.calls, 'concierge')[1]).find((t) => t.name === 'ask_support')!;
    expect(dropped.result).toMatchObject({ ok: false, skipped: 'fan_out_cap' });
  });

  test('intent_count larger than the calls emitted → one more ask, merged without duplicates', async () => {
    const s = setup({
      llm: {
        concierge: [
          { tool_calls: [ask('billing', { query: 'my invoice', intent_count: 2 })] },
          // The retry repeats billing (same arguments, different intent_count) and adds travel.
          { tool_calls: [ask('billing', { intent_count: 3, query: 'my invoice' }), ask('travel', { query: 'Rome trips', intent_count: 2 })] },
          { text: 'both' },
        ],
        billing: [{ text: 'b' }],
        travel: [{ text: 't' }],
      },
    });
    const r = await s.turn('invoice and trips');
    expect(r.text).toBe('both');
    const routing = routingOf(r.events);
    expect(routing.intent_count).toBe(2);
    expect(routing.intent_retry).toBe(true);
    expect(routing.invoked).toEqual(['billing', 'travel']);
    expect(callsOf(s.calls, 'billing')).toHaveLength(1);
    const retry = callsOf(s.calls, 'concierge')[1];
    expect(retry.messages.at(-1)).toMatchObject({ role: 'user' });
    expect((retry.messages.at(-1) as { content: string }).content).toContain('intent_count to 2 but called 1');
    // The composition call sees one assistant message with both calls and one result each.
    const compose = callsOf(s.calls, 'concierge')[2];
    const assistant = compose.messages.find((m) => m.role === 'assistant')!;
    expect(assistant.role === 'assistant' && assistant.toolCalls!.map((c) => c.name)).toEqual(['ask_billing', 'ask_travel']);
    expect(new Set(assistant.role === 'assistant' ? assistant.toolCalls!.map((c) => c.id) : []).size).toBe(2);
    expect(toolResults(compose).map((t) => t.name)).toEqual(['ask_billing', 'ask_travel']);
    expect(compose.messages.some((m) => m.role === 'user' && m.content.includes('intent_count'))).toBe(false);
  });

  test('the intent-count retry happens once; a retry with no new calls keeps what was emitted', async () => {
    const s = setup({
      llm: {
        concierge: [{ tool_calls: [ask('billing', { query: 'q', intent_count: 3 })] }, { text: 'nothing more' }, { text: 'final' }],
        billing: [{ text: 'b' }],
      },
    });
    const r = await s.turn('hi');
    expect(r.text).toBe('final');
    expect(routingOf(r.events)).toMatchObject({ intent_retry: true, invoked: ['billing'], intent_count: 3 });
  });

  test('no retry when intent_count matches (failsafe counts calls before the cap)', async () => {
    const s = setup({
      llm: {
        concierge: [{ tool_calls: ['billing', 'travel', 'rewards', 'support'].map((a) => ask(a, { query: a, intent_count: 4 })) }, { text: 'x' }],
        billing: [{ text: 'b' }],
        travel: [{ text: 't' }],
        rewards: [{ text: 'r' }],
      },
    });
    await s.turn('hi');
    expect(routingOf(s.events).intent_retry).toBe(false);
    expect(callsOf(s.calls, 'concierge')).toHaveLength(2);
  });
});

describe('step 4: handoff and isolation', () => {
  test('a sub-agent gets only its declared fields (intent_count and undeclared arguments stripped)', async () => {
    const bundle = makeBundle();
    const params = bundle.agents.concierge.tools.neutral.find((t) => t.name === 'ask_travel')!.parameters;
    params.additionalProperties = true; // a lax schema must not widen the handoff
    const s = setup({
      bundle,
      llm: {
        concierge: [
          { tool_calls: [ask('travel', { query: 'Rome', prior_context: 'User asked about invoices before.', intent_count: 1, user_email: 'a@b.c' })] },
          { text: 'ok' },
        ],
        travel: [{ text: 't' }],
      },
    });
    await s.turn('hi');
    expect(callsOf(s.calls, 'travel')[0].messages).toEqual([{ role: 'user', content: '{"prior_context":"User asked about invoices before.","query":"Rome"}' }]);
  });

  test('inherited context: tools see principal, episode, locale, location; suffix fields beyond dynamicContext do not cross', async () => {
    const bundle = makeBundle();
    setSuffix(bundle.agents.billing, '[{{locale}}|{{location}}|{{user_id}}]');
    setSuffix(bundle.agents.concierge, '[{{internal_note}}]');
    const seen: unknown[] = [];
    const s = setup({
      bundle,
      llm: {
        concierge: [{ tool_calls: [ask('billing', { query: 'q', intent_count: 1 })] }, { text: 'ok' }],
        billing: [{ tool_calls: [{ name: 'get_invoices', arguments: { status: 'open' } }] }, { text: 'b' }],
      },
      handlers: {
        get_invoices: (args, ctx) => {
          seen.push({ args, principal: ctx.principal, episode: ctx.episode, agent: ctx.agent, locale: ctx.locale, location: ctx.location });
          return env({ open: 1 });
        },
      },
    });
    await s.turn('hi', { internal_note: 'root only', user_id: 'u-9' });
    expect(callsOf(s.calls, 'concierge')[0].system.suffix).toBe('[root only]');
    expect(callsOf(s.calls, 'billing')[0].system.suffix).toBe('[en-US|Rome|u-9]');
    expect(seen).toEqual([{ args: { status: 'open' }, principal: 'user-1', episode: 'ep-1', agent: 'billing', locale: 'en-US', location: 'Rome' }]);
  });

  test('a sub-agent never sees another sub-agent’s request, and only its own earlier turns', async () => {
    const sessions = createMemorySessionStore();
    const s = setup({
      sessions,
      llm: {
        concierge: [
          { tool_calls: [ask('billing', { query: 'BILLING-Q1', intent_count: 2 }), ask('travel', { query: 'TRAVEL-Q1', intent_count: 2 })] },
          { text: 'first answer' },
          { tool_calls: [ask('billing', { query: 'BILLING-Q2', intent_count: 1 })] },
          { text: 'second answer' },
        ],
        billing: [{ text: 'BILLING-A1' }, { text: 'BILLING-A2' }],
        travel: [{ text: 'TRAVEL-A1' }],
      },
    });
    await s.turn('turn one');
    await s.turn('turn two');
    for (const c of callsOf(s.calls, 'billing')) expect(JSON.stringify(c.messages)).not.toContain('TRAVEL');
    for (const c of callsOf(s.calls, 'travel')) expect(JSON.stringify(c.messages)).not.toContain('BILLING');
    expect(callsOf(s.calls, 'billing')[1].messages).toEqual([
      { role: 'user', content: '{"query":"BILLING-Q1"}' },
      { role: 'assistant', content: 'BILLING-A1' },
      { role: 'user', content: '{"query":"BILLING-Q2"}' },
    ]);
    // The root keeps its own turns (message and answer, noting who handled it), not the sub-agents' transcripts.
    expect(callsOf(s.calls, 'concierge')[2].messages).toEqual([
      { role: 'user', content: 'turn one' },
      { role: 'assistant', content: 'first answer\n[handled by: billing, travel]' },
      { role: 'user', content: 'turn two' },
    ]);
    // Another episode starts empty.
    expect(await sessions.get('ep-2', 'billing')).toEqual([]);
  });
});

describe('step 6: the orchestrator composes from the tool results; events', () => {
  test('composition sees one result per call, in call order; text and routing events', async () => {
    const s = setup({
      llm: {
        concierge: [
          { tool_calls: [ask('billing', { query: 'inv', intent_count: 2 }), ask('rewards', { query: 'pts', intent_count: 2 })] },
          { text: 'You have 2 open invoices and 500 points.' },
        ],
        billing: [{ tool_calls: [{ name: 'get_invoices', arguments: {} }] }, { text: 'Two open invoices.' }],
        rewards: [{ tool_calls: [{ name: 'get_points', arguments: {} }], status: ['celebrating', 'not_declared'] }, { text: '500 points.' }],
      },
      tools: { get_invoices: { result: env({ open: 2 }) }, get_points: { result: env({ points: 500 }) } },
    });
    const r = await s.turn('invoices and points?');
    expect(r.text).toBe('You have 2 open invoices and 500 points.');
    const compose = callsOf(s.calls, 'concierge')[1];
    expect(toolResults(compose)).toEqual([
      { name: 'ask_billing', result: { ok: true, answer: 'Two open invoices.' } },
      { name: 'ask_rewards', result: { ok: true, answer: '500 points.' } },
    ]);
    // fetching_invoices is suppressed (null), celebrating has no rendering, not_declared is not rewards' vocabulary.
    expect(r.events.filter((e) => e.type === 'status')).toEqual([
      {
        type: 'status',
        agent: 'rewards',
        span_id: routingOf(r.events).spans[1].span_id,
        event: 'looking_up_points',
        text: 'Checking your points…',
        at_ms: expect.any(Number),
      },
    ]);
    expect(r.events.at(-3)).toEqual({ type: 'text', agent: 'concierge', text: r.text, at_ms: expect.any(Number) });
    const routing = routingOf(r.events);
    expect(r.events.at(-2)).toBe(routing);
    expect(r.events.at(-1)).toMatchObject({ type: 'turn_end', outcome: 'ok', trace_id: r.trace_id });
    expect(routing.trace_id).toBe(r.trace_id);
    expect(routing.spans.map((sp) => [sp.agent, sp.parent_span_id, sp.outcome])).toEqual([
      ['billing', routing.span_id, 'ok'],
      ['rewards', routing.span_id, 'ok'],
    ]);
    expect(new Set([routing.span_id, ...routing.spans.map((sp) => sp.span_id)]).size).toBe(3);
    expect(r.outcomes).toEqual({ billing: 'ok', rewards: 'ok' });
    expect(s.events).toEqual(r.events);
  });

  test('the root calls its own tools directly; their outcomes are recorded', async () => {
    const got: unknown[] = [];
    const s = setup({
      llm: { concierge: [{ tool_calls: [{ name: 'record_feedback', arguments: { positive: true } }] }, { text: 'Thanks!' }] },
      handlers: { record_feedback: (args) => void got.push(args) },
    });
    const r = await s.turn('thumbs up');
    expect(r.text).toBe('Thanks!');
    expect(got).toEqual([{ positive: true }]);
    expect(toolResults(s.calls[1])).toEqual([{ name: 'record_feedback', result: { ok: true } }]);
    expect(routingOf(r.events).tool_outcomes).toEqual({ record_feedback: 'ok' });
  });

  test('every status event is rendered at most once per turn', async () => {
    const s = setup({
      llm: {
        concierge: [{ tool_calls: [ask('rewards', { query: 'a', intent_count: 1 })] }, { text: 'ok' }],
        rewards: [
          {
            tool_calls: [
              { name: 'get_points', arguments: {} },
              { name: 'get_points', arguments: {} },
            ],
          },
          { text: 'r' },
        ],
      },
      tools: { get_points: { result: env({ points: 1 }) } },
    });
    const r = await s.turn('hi');
    expect(r.events.filter((e) => e.type === 'status')).toHaveLength(1);
  });

  test('an onEvent listener that throws does not break the turn', async () => {
    const { createRuntime, createScriptedClient } = await import('../../src/runtime/index.js');
    const rt = createRuntime({
      bundle: makeBundle(),
      llm: createScriptedClient({ concierge: [{ text: 'fine' }] }),
      tools: {},
      onEvent: () => {
        throw new Error('listener bug');
      },
    });
    const r = await rt.turn({ agent: 'concierge', message: 'hi', context: { principal: 'p', episode: 'e' } });
    expect(r.text).toBe('fine');
  });
});
