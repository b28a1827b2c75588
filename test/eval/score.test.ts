/**
 * Scoring rules on hand-made observations: handoff checks, intent counts,
 * repeats, and the confusion matrix for a missed intent.
 */
import { describe, expect, it } from 'vitest';
import type { RouteObservation } from '../../src/eval/route.js';
import { caseResult, scoreRun, summarize } from '../../src/eval/score.js';
import type { EvalCase, EvalSuite } from '../../src/eval/suite.js';

const obs = (calls: [string, Record<string, unknown>][]): RouteObservation => ({
  agents: [...new Set(calls.map(([a]) => a))].sort(),
  handoffs: calls.map(([agent, args]) => ({ agent, args })),
  intent_count: typeof calls[0]?.[1].intent_count === 'number' ? (calls[0][1].intent_count as number) : null,
  usage: { inputTokens: 10, outputTokens: 1 },
  cost_usd: undefined,
});

const mixed: EvalCase = {
  message: 'points and coffee?',
  history: [{ role: 'user', content: 'shoes' }],
  expect: { agents: ['offer_details', 'rewards'], intent_count: 2, handoff: { rewards: { prior_context: true, query_contains: ['Points'] } } },
};

describe('scoreRun', () => {
  it('passes only when agents, intent_count and handoff checks all hold', () => {
    const good = obs([
      ['rewards', { query: 'my points', intent_count: 2, prior_context: 'Was looking at shoes.' }],
      ['offer_details', { query: 'coffee', intent_count: 2 }],
    ]);
    expect(scoreRun(mixed, good)).toEqual({ passed: true, agents: ['offer_details', 'rewards'], intent_count: 2, reasons: [] });
    const bad = obs([['rewards', { query: 'balance', intent_count: 1 }]]);
    expect(scoreRun(mixed, bad).reasons).toEqual([
      'asked rewards, expected offer_details, rewards',
      'intent_count 1, expected 2',
      `rewards's query does not contain "Points"`,
      'rewards got no prior_context',
    ]);
  });

  it('counts a case as passed only when every repeat passes, and puts a missed intent in the (direct) column', () => {
    const suite: EvalSuite = {
      file: 'evals/x.yaml',
      agent: 'fetch_assistant',
      repeat: 2,
      flags: [],
      cases: [{ message: 'points?', expect: { agents: ['rewards'] } }],
    };
    const o1 = obs([['rewards', { query: 'points' }]]);
    const o2 = obs([]);
    const cr = caseResult(suite, 0, [scoreRun(suite.cases[0]!, o1), scoreRun(suite.cases[0]!, o2)]);
    expect(cr).toMatchObject({ passed: false, pass_rate: 0.5 });
    const s = summarize([cr], [suite], [o1, o2], ['rewards', 'shop']);
    expect(s.accuracy).toBe(0.5);
    expect(s.confusion).toEqual({ rewards: { '(direct)': 1, rewards: 1 } });
    expect(s.agents.rewards).toMatchObject({ precision: 1, recall: 0.5 });
    expect(s.agents.shop).toMatchObject({ precision: null, recall: null });
    // The one direct answer swallowed a real request.
    expect(s.fastpath_precision).toBe(0);
    expect(s.cost_usd).toBeNull();
  });
});
