/**
 * Scoring: a run passes when the orchestrator asked exactly the expected
 * sub-agents (and, where the case says so, the right intent_count and handoff
 * arguments); the report's figures are all derived from the runs here.
 *
 * Invariants: pure (same observations → same report, key order included);
 * accuracy is passed runs / all runs, in [0, 1]; a case passes only when every
 * one of its runs passes; ratios with no denominator are null, never NaN.
 */
import type { RouteObservation } from './route.js';
import type { EvalCase, EvalSuite } from './suite.js';

/** Confusion-matrix label for "no sub-agent" (a direct answer, or a missed intent). */
export const DIRECT = '(direct)';

export interface RunResult {
  passed: boolean;
  agents: string[];
  intent_count: number | null;
  /** Why the run failed, in plain words (empty when it passed). */
  reasons: string[];
}

export interface CaseResult {
  suite: string;
  index: number;
  name: string;
  message: string;
  expected: string[];
  passed: boolean;
  pass_rate: number;
  runs: RunResult[];
}

export interface AgentScore {
  precision: number | null;
  recall: number | null;
  true_positives: number;
  false_positives: number;
  false_negatives: number;
}

export interface EvalSummary {
  runs: number;
  passed_runs: number;
  accuracy: number;
  cases: number;
  passed_cases: number;
  agents: Record<string, AgentScore>;
  /** expected label → observed label → count (labels: sub-agents and "(direct)"). */
  confusion: Record<string, Record<string, number>>;
  intent_count_accuracy: number | null;
  /** Of the runs answered directly, the share that should have been. */
  fastpath_precision: number | null;
  tokens: { input: number; output: number };
  cost_usd: number | null;
}

export function scoreRun(c: EvalCase, obs: RouteObservation): RunResult {
  const reasons: string[] = [];
  if (obs.error !== undefined) reasons.push(`model call failed: ${obs.error}`);
  const expected = [...c.expect.agents].sort();
  const missing = expected.filter((a) => !obs.agents.includes(a));
  const extra = obs.agents.filter((a) => !expected.includes(a));
  if (obs.error === undefined && (missing.length > 0 || extra.length > 0)) {
    reasons.push(`asked ${list(obs.agents)}, expected ${list(expected)}`);
  }
  const calledTools = obs.tools ?? [];
  const notCalled = (c.expect.tools ?? []).filter((tool) => !calledTools.includes(tool));
  if (obs.error === undefined && notCalled.length > 0) reasons.push(`did not call ${list(notCalled)}`);
  if (c.expect.intent_count !== undefined && obs.intent_count !== c.expect.intent_count) {
    reasons.push(`intent_count ${obs.intent_count ?? 'missing'}, expected ${c.expect.intent_count}`);
  }
  for (const [agent, check] of Object.entries(c.expect.handoff ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    const calls = obs.handoffs.filter((h) => h.agent === agent);
    if (calls.length === 0) continue; // already reported as missing
    const query = calls
      .map((h) => (typeof h.args?.query === 'string' ? h.args.query : ''))
      .join(' ')
      .toLowerCase();
    for (const word of check.query_contains ?? []) {
      if (!query.includes(word.toLowerCase())) reasons.push(`${agent}'s query does not contain "${word}"`);
    }
    if (check.prior_context !== undefined) {
      const has = calls.some((h) => typeof h.args?.prior_context === 'string' && h.args.prior_context.trim() !== '');
      if (has !== check.prior_context) reasons.push(`${agent} ${check.prior_context ? 'got no prior_context' : 'got a prior_context it should not'}`);
    }
  }
  return { passed: reasons.length === 0, agents: obs.agents, intent_count: obs.intent_count, reasons };
}

export function caseResult(suite: EvalSuite, index: number, runs: RunResult[]): CaseResult {
  const c = suite.cases[index]!;
  const passedRuns = runs.filter((r) => r.passed).length;
  return {
    suite: suite.file,
    index,
    name: c.name ?? c.message,
    message: c.message,
    expected: [...c.expect.agents].sort(),
    passed: passedRuns === runs.length,
    pass_rate: runs.length === 0 ? 0 : passedRuns / runs.length,
    runs,
  };
}

export function summarize(cases: CaseResult[], suites: EvalSuite[], observations: RouteObservation[], subAgents: string[]): EvalSummary {
  const agents: Record<string, AgentScore> = {};
  const tally = new Map<string, { tp: number; fp: number; fn: number }>(subAgents.map((a) => [a, { tp: 0, fp: 0, fn: 0 }]));
  const confusion = new Map<string, Map<string, number>>();
  const bump = (e: string, o: string) => {
    const row = confusion.get(e) ?? new Map<string, number>();
    row.set(o, (row.get(o) ?? 0) + 1);
    confusion.set(e, row);
  };
  let runs = 0;
  let passedRuns = 0;
  let intentTotal = 0;
  let intentRight = 0;
  let directTotal = 0;
  let directRight = 0;
  const bySuite = new Map(suites.map((s) => [s.file, s]));
  for (const cr of cases) {
    const c = bySuite.get(cr.suite)?.cases[cr.index];
    for (const run of cr.runs) {
      runs++;
      if (run.passed) passedRuns++;
      const E = cr.expected;
      const O = run.agents;
      for (const a of new Set([...E, ...O])) {
        const t = tally.get(a) ?? { tp: 0, fp: 0, fn: 0 };
        if (E.includes(a) && O.includes(a)) t.tp++;
        else if (O.includes(a)) t.fp++;
        else t.fn++;
        tally.set(a, t);
      }
      const extra = O.filter((a) => !E.includes(a));
      if (E.length === 0) {
        if (O.length === 0) bump(DIRECT, DIRECT);
        for (const o of O) bump(DIRECT, o);
      } else {
        for (const e of E) {
          if (O.includes(e)) bump(e, e);
          else if (extra.length === 0) bump(e, DIRECT);
          else for (const o of extra) bump(e, o);
        }
      }
      if (c?.expect.intent_count !== undefined) {
        intentTotal++;
        if (run.intent_count === c.expect.intent_count) intentRight++;
      }
      if (O.length === 0) {
        directTotal++;
        if (E.length === 0) directRight++;
      }
    }
  }
  for (const [a, t] of [...tally].sort(([x], [y]) => x.localeCompare(y))) {
    agents[a] = {
      precision: ratio(t.tp, t.tp + t.fp),
      recall: ratio(t.tp, t.tp + t.fn),
      true_positives: t.tp,
      false_positives: t.fp,
      false_negatives: t.fn,
    };
  }
  const matrix: Record<string, Record<string, number>> = {};
  for (const e of [...confusion.keys()].sort()) {
    const row: Record<string, number> = {};
    for (const o of [...confusion.get(e)!.keys()].sort()) row[o] = confusion.get(e)!.get(o)!;
    matrix[e] = row;
  }
  const costs = observations.map((o) => o.cost_usd);
  return {
    runs,
    passed_runs: passedRuns,
    accuracy: runs === 0 ? 0 : passedRuns / runs,
    cases: cases.length,
    passed_cases: cases.filter((c) => c.passed).length,
    agents,
    confusion: matrix,
    intent_count_accuracy: ratio(intentRight, intentTotal),
    fastpath_precision: ratio(directRight, directTotal),
    tokens: {
      input: observations.reduce((s, o) => s + o.usage.inputTokens, 0),
      output: observations.reduce((s, o) => s + o.usage.outputTokens, 0),
    },
    cost_usd: costs.length > 0 && costs.every((c) => c !== undefined) ? round(costs.reduce<number>((s, c) => s + (c ?? 0), 0)) : null,
  };
}

function ratio(n: number, d: number): number | null {
  return d === 0 ? null : n / d;
}

function round(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}

function list(agents: string[]): string {
  return agents.length === 0 ? 'no sub-agent' : agents.join(', ');
}
