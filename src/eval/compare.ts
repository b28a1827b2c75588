/**
 * Before/after comparison of one suite run on two bundles (`agentc diff --eval`).
 *
 * Invariants: cases are matched by (suite file, index) — the suite is the same
 * file on both sides; a side the suite does not apply to (its agents or flags do
 * not exist there) has no result rather than a zero accuracy.
 */
import { mdCell, pct } from './report.js';
import type { EvalResult } from './run.js';

export interface EvalSideSummary {
  label: string;
  /** Undefined when the suite could not run on this side. */
  result?: EvalResult;
  /** Why it could not (plain words). */
  problem?: string;
}

export interface ChangedCase {
  name: string;
  before: { passed: boolean; asked: string };
  after: { passed: boolean; asked: string };
}

export function changedCases(before: EvalResult, after: EvalResult): ChangedCase[] {
  const key = (c: { suite: string; index: number }) => `${c.suite}#${c.index}`;
  const old = new Map(before.cases.map((c) => [key(c), c]));
  const out: ChangedCase[] = [];
  for (const c of after.cases) {
    const b = old.get(key(c));
    if (b === undefined) continue;
    const asked = (x: typeof c) => [...new Set(x.runs.map((r) => r.agents.join(', ') || '(direct)'))].join(' / ');
    if (b.passed !== c.passed || asked(b) !== asked(c)) {
      out.push({ name: c.name, before: { passed: b.passed, asked: asked(b) }, after: { passed: c.passed, asked: asked(c) } });
    }
  }
  return out;
}

/** The markdown section `agentc diff --eval` appends to its report. */
export function renderEvalComparison(suiteLabel: string, before: EvalSideSummary, after: EvalSideSummary): string {
  const acc = (s: EvalSideSummary) =>
    s.result === undefined ? `n/a (${s.problem ?? 'not run'})` : `${pct(s.result.summary.accuracy)} (${s.result.summary.passed_runs}/${s.result.summary.runs})`;
  const cost = (s: EvalSideSummary) => (s.result?.summary.cost_usd == null ? '–' : `$${s.result.summary.cost_usd.toFixed(4)}`);
  const tokens = (s: EvalSideSummary) => (s.result === undefined ? '–' : `${s.result.summary.tokens.input} / ${s.result.summary.tokens.output}`);
  const lines = [
    `### Routing eval: \`${suiteLabel}\``,
    '',
    `| | before (${mdCell(before.label)}) | after (${mdCell(after.label)}) |`,
    '| --- | --- | --- |',
    `| accuracy | ${acc(before)} | ${acc(after)} |`,
    `| tokens (in / out) | ${tokens(before)} | ${tokens(after)} |`,
    `| cost | ${cost(before)} | ${cost(after)} |`,
  ];
  if (before.result !== undefined && after.result !== undefined) {
    const changed = changedCases(before.result, after.result);
    lines.push('');
    if (changed.length === 0) lines.push('No case changed outcome.');
    else {
      lines.push('| case | before | after |', '| --- | --- | --- |');
      for (const c of changed) {
        const cell = (x: ChangedCase['before']) => `${x.passed ? 'pass' : '**fail**'}: ${x.asked}`;
        lines.push(`| ${mdCell(c.name)} | ${cell(c.before)} | ${cell(c.after)} |`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}
