import { describe, expect, it } from 'vitest';
import { contentWords, echoGuard, lastQuestion, overlapGuard, runGuards, verbatimGuard, type GuardContext } from '../../src/runtime/guards.js';
import type { ToolCall } from '../../src/runtime/types.js';

const subAgents = {
  ask_support: { agent: 'support', query: true },
  ask_shopping: { agent: 'shopping', query: true },
  ask_rewards: { agent: 'rewards', query: true },
};
const call = (id: string, name: string, query: string, extra: Record<string, unknown> = {}): ToolCall => ({
  id,
  name,
  arguments: JSON.stringify({ query, ...extra }),
});
const ctx = (userMessage: string, previous?: GuardContext['previous']): GuardContext => ({ userMessage, subAgents, ...(previous ? { previous } : {}) });
const q = (c: ToolCall) => JSON.parse(c.arguments).query as string;

describe('content words', () => {
  it('drops stopwords and single letters, keeps numbers', () => {
    expect([...contentWords('Where are my 500 points, please?')]).toEqual(['500', 'points']);
  });
  it('finds the last question of an answer', () => {
    expect(lastQuestion('I can help. Is it from a Fetch Shop purchase? Let me know.')).toBe('Is it from a Fetch Shop purchase?');
    expect(lastQuestion('No question here.')).toBeUndefined();
  });
});

describe('verbatim guard', () => {
  it('a single call gets the user message, whatever the model wrote', () => {
    const out = verbatimGuard([call('1', 'ask_support', 'missing points issue')], ctx('my receipt points never showed up'));
    expect(q(out[0])).toBe('my receipt points never showed up');
  });
  it('several calls on a short message all get the message', () => {
    const out = verbatimGuard([call('1', 'ask_support', 'points'), call('2', 'ask_shopping', 'deals')], ctx('points and deals'));
    expect(out.map(q)).toEqual(['points and deals', 'points and deals']);
  });
  it('a long mixed message keeps splits that share a content word, else falls back to the message', () => {
    const msg = 'my receipt points are missing and also show me coffee deals';
    const out = verbatimGuard([call('1', 'ask_support', 'receipt points missing'), call('2', 'ask_shopping', 'discounts for beverages')], ctx(msg));
    expect(out.map(q)).toEqual(['receipt points missing', msg]);
  });
  it('leaves plain tools and arguments other than query alone', () => {
    const plain: ToolCall = { id: '9', name: 'get_weather', arguments: '{"city":"Oslo"}' };
    const out = verbatimGuard([plain, call('1', 'ask_support', 'x', { prior_context: 'ctx' })], ctx('help with my account please'));
    expect(out[0]).toBe(plain);
    expect(JSON.parse(out[1].arguments)).toEqual({ query: 'help with my account please', prior_context: 'ctx' });
  });
});

describe('overlap guard', () => {
  it('drops the call of a mixed turn whose query shares no content word with the message', () => {
    const calls = [call('1', 'ask_support', 'receipt points missing'), call('2', 'ask_shopping', 'discounts for beverages')];
    const run = runGuards(calls, ctx('my receipt points are missing, anything else today'), [['overlap', overlapGuard]]);
    expect(run.calls.map((c) => c.id)).toEqual(['1']);
    expect(run.dropped.map((c) => c.id)).toEqual(['2']);
    expect(run.notes).toEqual([{ guard: 'overlap', tool: 'ask_shopping', action: 'dropped' }]);
  });
  it('never drops every call, and leaves a single call alone', () => {
    const both = [call('1', 'ask_support', 'alpha'), call('2', 'ask_shopping', 'beta')];
    expect(overlapGuard(both, ctx('gamma delta epsilon zeta eta'))).toEqual(both);
    const one = [call('1', 'ask_support', 'alpha')];
    expect(overlapGuard(one, ctx('gamma delta'))).toEqual(one);
  });
});

describe('echo guard', () => {
  const previous = { handledBy: ['support'], answer: 'Sorry about that. Is it from a Fetch Shop purchase?' };
  it('reroutes a short echo of the specialist’s question back to that specialist, keeping the call id', () => {
    const run = runGuards([call('c1', 'ask_shopping', 'Fetch shop', { intent_count: 1 })], ctx('Fetch shop', previous), [['echo', echoGuard]]);
    expect(run.calls).toEqual([{ id: 'c1', name: 'ask_support', arguments: JSON.stringify({ query: 'Fetch shop', intent_count: 1 }) }]);
    expect(run.notes).toEqual([{ guard: 'echo', tool: 'ask_shopping', action: 'rerouted', to: 'ask_support' }]);
  });
  it('a plain yes goes back too; other specialists are dropped when it was already called', () => {
    const run = runGuards([call('a', 'ask_support', 'yes'), call('b', 'ask_rewards', 'yes')], ctx('yes', previous), [['echo', echoGuard]]);
    expect(run.calls.map((c) => c.name)).toEqual(['ask_support']);
    expect(run.notes).toEqual([{ guard: 'echo', tool: 'ask_rewards', action: 'dropped' }]);
  });
  it('does nothing for long messages, unrelated replies, or when the last answer asked nothing', () => {
    const calls = [call('c1', 'ask_shopping', 'x')];
    expect(echoGuard(calls, ctx('show me the best coffee deals this week', previous))).toEqual(calls);
    expect(echoGuard(calls, ctx('coffee deals', previous))).toEqual(calls);
    expect(echoGuard(calls, ctx('Fetch shop', { handledBy: ['support'], answer: 'Done.' }))).toEqual(calls);
    expect(echoGuard(calls, ctx('Fetch shop'))).toEqual(calls);
  });
});

describe('runGuards', () => {
  it('runs in order and records each change under its guard', () => {
    const custom = (cs: ToolCall[]) => cs.map((c) => ({ ...c, arguments: JSON.stringify({ ...JSON.parse(c.arguments), prior_context: 'p' }) }));
    const run = runGuards([call('1', 'ask_support', 'points')], ctx('where are my points from yesterday'), [
      ['verbatim', verbatimGuard],
      ['service', custom],
    ]);
    expect(run.notes).toEqual([
      { guard: 'verbatim', tool: 'ask_support', action: 'query_replaced' },
      { guard: 'service', tool: 'ask_support', action: 'arguments_changed' },
    ]);
  });
});
