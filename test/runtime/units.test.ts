/** The runtime's small pure pieces: suffix renderer, cohort choice, envelopes, call helpers, schema checks, sessions, script parsing. */
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { declaredIntentCount, mergeCalls, normalizeIds, parseArgs } from '../../src/runtime/calls.js';
import { checkEnvelope } from '../../src/runtime/envelope.js';
import { runWithBudget } from '../../src/runtime/deadline.js';
import { createSchemaValidator } from '../../src/runtime/schema.js';
import { renderHandoff } from '../../src/runtime/sub-agent.js';
import {
  createMemorySessionStore,
  createSequentialIds,
  parseScript,
  renderSuffix,
  scriptTurnContext,
  selectPrefix,
  toChatRequest,
} from '../../src/runtime/index.js';
import { makeBundle, suffixAst } from './fixtures/bundle.js';

test('renderSuffix: fields, whitespace, triple braces, missing → empty, escape', () => {
  const fields = ['a', 'b', 'c', 'd'];
  expect(renderSuffix(suffixAst('a={{a}} b={{ b }} c={{{c}}} d={{d}} e=\\{{e}}'), { a: '1', b: '2', c: '<3>' }, fields)).toBe('a=1 b=2 c=<3> d= e={{e}}');
  expect(renderSuffix(suffixAst('{{#if d}}D{{else}}no d{{/if}}{{#unless a}}!{{/unless}}'), { a: '1' }, fields)).toBe('no d');
  // Only strings count: a non-string value is as good as missing.
  expect(renderSuffix(suffixAst('[{{a}}]'), { a: 5 as unknown as string }, fields)).toBe('[]');
});

test('selectPrefix: enabled ∩ agent flags, sorted; unknown cohort → default', () => {
  const agent = makeBundle().agents.concierge;
  expect(selectPrefix(agent, [])!.key).toBe('');
  expect(selectPrefix(agent, ['zzz', 'v2'])!.key).toBe('v2');
  agent.flags = ['a', 'v2'];
  expect(selectPrefix(agent, ['a', 'v2'])!.key).toBe(''); // no such cohort in this bundle → default
});

test('checkEnvelope: principal first, then status as the single boundary', () => {
  expect(checkEnvelope({ status: 'ok', principal: 'u', payload: 1 }, 'u')).toEqual({ kind: 'ok', payload: 1 });
  expect(checkEnvelope({ status: 'partial', principal: 'u', payload: 2 }, 'u')).toEqual({ kind: 'partial', payload: 2 });
  expect(checkEnvelope({ status: 'error', principal: 'u' }, 'u')).toEqual({ kind: 'error' });
  expect(checkEnvelope({ status: 'error', principal: 'x' }, 'u')).toEqual({ kind: 'principal_mismatch' });
  expect(checkEnvelope({ status: 'ok', payload: 1 }, 'u')).toEqual({ kind: 'principal_mismatch' });
  expect(checkEnvelope({ status: 'weird', principal: 'u' }, 'u')).toEqual({ kind: 'malformed' });
  expect(checkEnvelope([1], 'u')).toEqual({ kind: 'malformed' });
});

describe('tool-call helpers', () => {
  test('parseArgs: objects only; empty string is {}', () => {
    expect(parseArgs('{"a":1}')).toEqual({ ok: true, args: { a: 1 } });
    expect(parseArgs('')).toEqual({ ok: true, args: {} });
    expect(parseArgs('[1]')).toEqual({ ok: false });
    expect(parseArgs('{"a":')).toEqual({ ok: false });
  });

  test('normalizeIds: distinct, non-empty ids', () => {
    const ids = normalizeIds([
      { id: 'x', name: 'a', arguments: '' },
      { id: 'x', name: 'b', arguments: '' },
      { id: '', name: 'c', arguments: '' },
    ]).map((c) => c.id);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toBe('x');
  });

  test('mergeCalls: same tool + canonically equal arguments (intent_count ignored) is a duplicate', () => {
    const merged = mergeCalls(
      [{ id: '1', name: 'ask_a', arguments: '{"query":"q","x":{"b":1,"a":2},"intent_count":2}' }],
      [
        { id: '1', name: 'ask_a', arguments: '{"x":{"a":2,"b":1},"query":"q","intent_count":3}' },
        { id: '1', name: 'ask_a', arguments: '{"query":"other"}' },
        { id: '2', name: 'ask_b', arguments: '{"query":"q"}' },
      ],
    );
    expect(merged.map((c) => [c.name, JSON.parse(c.arguments).query])).toEqual([
      ['ask_a', 'q'],
      ['ask_a', 'other'],
      ['ask_b', 'q'],
    ]);
    expect(new Set(merged.map((c) => c.id)).size).toBe(3);
  });

  test('declaredIntentCount: the largest valid integer among sub-agent calls', () => {
    const dispatch = makeBundle().agents.concierge.dispatch;
    expect(declaredIntentCount([{ id: '1', name: 'record_feedback', arguments: '{"intent_count":5}' }], dispatch)).toBeNull();
    expect(
      declaredIntentCount(
        [
          { id: '1', name: 'ask_billing', arguments: '{"intent_count":2}' },
          { id: '2', name: 'ask_travel', arguments: '{"intent_count":3}' },
          { id: '3', name: 'ask_travel', arguments: '{"intent_count":2.5}' },
        ],
        dispatch,
      ),
    ).toBe(3);
  });

  test('renderHandoff keeps declared fields only, canonical JSON', () => {
    const agent = makeBundle().agents.billing;
    expect(renderHandoff(agent, { query: 'q', intent_count: 2, secret: 's', prior_context: 'p' })).toBe('{"prior_context":"p","query":"q"}');
  });
});

test('schema validator: compiled once per schema object, problems without values', () => {
  const v = createSchemaValidator();
  const schema = {
    type: 'object',
    properties: { n: { type: 'integer', maximum: 3 }, d: { type: 'string', format: 'date' } },
    required: ['n'],
    additionalProperties: false,
  };
  expect(v.check(schema, { n: 2, d: '2026-11-21' })).toEqual({ ok: true });
  const bad = v.check(schema, { n: 9, d: 'SECRET-VALUE', 'x y<z>': 1 });
  expect(bad.ok).toBe(false);
  expect(JSON.stringify(bad)).not.toContain('SECRET-VALUE');
  expect(JSON.stringify(bad)).toContain('property \\"xyz\\" is not allowed');
  expect(v.check({ type: 'nonsense-type' }, {})).toEqual({ ok: false, problems: ["the tool's parameter schema is unusable"] });
});

test('memory session store: per (episode, agent), copies out', async () => {
  const store = createMemorySessionStore();
  await store.append('e', 'a', [{ role: 'user', content: 'hi' }]);
  const got = await store.get('e', 'a');
  got.push({ role: 'user', content: 'mutated' });
  expect(await store.get('e', 'a')).toEqual([{ role: 'user', content: 'hi' }]);
  expect(await store.get('e', 'b')).toEqual([]);
  expect(await store.get('f', 'a')).toEqual([]);
});

test('runWithBudget: settles at the budget even when work ignores its signal', async () => {
  const t0 = performance.now();
  const out = await runWithBudget(undefined, 50, () => new Promise<never>(() => undefined));
  expect(out).toEqual({ done: false, reason: 'timeout' });
  expect(performance.now() - t0).toBeLessThan(200);
  expect(await runWithBudget(undefined, undefined, async () => 7)).toEqual({ done: true, value: 7 });
});

test('sequential ids are reproducible', () => {
  const a = createSequentialIds('seed');
  const b = createSequentialIds('seed');
  expect([a.traceId(), a.spanId(), a.spanId()]).toEqual([b.traceId(), b.spanId(), b.spanId()]);
  expect(a.traceId()).toMatch(/^[0-9a-f]{32}$/);
});

test('toChatRequest: no tools → no tools/parallel_tool_calls keys; reasoning effort passed', () => {
  const body = toChatRequest({
    agent: 'a',
    model: { ...makeBundle().models['sub-model'], id: 'sub-model' },
    system: { prefix: 'P', suffix: 'S' },
    messages: [],
    tools: [],
    parallelToolCalls: false,
    reasoningEffort: 'low',
    signal: new AbortController().signal,
  });
  // The cache key is derived from the prefix when the request carries no prefixSha256.
  const key = `agentc:a:${createHash('sha256').update('P').digest('hex').slice(0, 16)}`;
  expect(body).toEqual({ model: 'gpt-sub', messages: [{ role: 'system', content: 'P\n\nS' }], prompt_cache_key: key, reasoning_effort: 'low' });
});

describe('parseScript', () => {
  test('accepts a script with every kind of reply and tool behaviour', () => {
    const parsed = parseScript({
      llm: {
        concierge: [{ tool_calls: [{ name: 'ask_billing', arguments: { query: 'my invoice', intent_count: 2 } }] }, { text: 'Here is what I found.' }],
        travel: [{ delay_ms: 300, text: 'Three trips to Rome.' }],
        billing: [{ delay_ms: 10, error: 'boom' }],
      },
      tools: {
        get_invoices: { delay_ms: 50, result: { status: 'ok', principal: 'user-1', payload: { open: 2 } } },
        search_trips: { throw: 'connection reset' },
      },
      context: { principal: 'user-1', episode: 'ep-1', locale: 'en-US', location: 'Rome', date: '2026-11-21', flags: [] },
    });
    expect(parsed.ok).toBe(true);
    if (parsed.ok)
      expect(scriptTurnContext(parsed.script)).toEqual({
        context: { principal: 'user-1', episode: 'ep-1', locale: 'en-US', location: 'Rome', date: '2026-11-21' },
        flags: [],
      });
  });

  test('rejects with data paths', () => {
    const parsed = parseScript({ llm: { a: [{}, { text: 1 }, { error: 'x', text: 'y' }] }, extra: 1, context: { flags: 'v2' } });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.problems.map((p) => p.path.join('.'))).toEqual(['extra', 'llm.a.0', 'llm.a.1.text', 'llm.a.2.error', 'context.flags']);
    }
    expect(parseScript(null).ok).toBe(false);
    expect(parseScript({}).ok).toBe(false);
  });

  test('defaults: a script without context gets a CLI principal and episode', () => {
    expect(scriptTurnContext(undefined)).toEqual({ context: { principal: 'cli-user', episode: 'cli-episode' }, flags: [] });
  });
});

describe('dropNullOptionals (strict OpenAI tools send null for "not given")', async () => {
  const { dropNullOptionals } = await import('../../src/runtime/nulls.js');
  const schema = {
    type: 'object',
    required: ['q'],
    properties: {
      q: { type: 'string' },
      opt: { type: 'string' },
      nullable: { type: ['string', 'null'] },
      nested: { type: 'object', properties: { a: { type: 'integer' } } },
      list: { type: 'array', items: { type: 'object', properties: { b: { type: 'string' } } } },
    },
  };
  test('removes null optionals only, recursively, without mutating', () => {
    const input = { q: null, opt: null, nullable: null, nested: { a: null }, list: [{ b: null }], extra: null };
    expect(dropNullOptionals(schema, input)).toEqual({ q: null, nullable: null, nested: {}, list: [{}], extra: null });
    expect(input.opt).toBeNull();
  });
});
