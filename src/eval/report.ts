/**
 * Eval reports: json (schemas/eval-report.schema.json), pretty text, markdown
 * (PR comments) and JUnit XML (CI test tabs).
 *
 * Invariants: every format is a pure function of the result (no timestamps,
 * sorted keys in json, LF line ends); percentages are rounded for display only.
 */
import { sortKeysDeep } from '../bundle/canonical-json.js';
import type { EvalResult } from './run.js';
import type { EvalSummary } from './score.js';

/** Version of the `--format json` report. */
export const EVAL_FORMAT_VERSION = '1';

export type EvalFormat = 'pretty' | 'json' | 'junit' | 'markdown';

export function renderEval(result: EvalResult, format: EvalFormat, minAccuracy?: number): string {
  switch (format) {
    case 'json':
      return renderJson(result, minAccuracy);
    case 'junit':
      return renderJunit(result);
    case 'markdown':
      return renderMarkdown(result);
    default:
      return renderPretty(result, minAccuracy);
  }
}

function renderJson(result: EvalResult, minAccuracy: number | undefined): string {
  const s = result.summary;
  const report = {
    formatVersion: EVAL_FORMAT_VERSION,
    accuracy: s.accuracy,
    min_accuracy: minAccuracy ?? null,
    mode: result.mode,
    seed: result.seed,
    summary: s,
    cases: result.cases,
  };
  return `${JSON.stringify(sortKeysDeep(report), null, 2)}\n`;
}

export function pct(x: number | null): string {
  return x === null ? '–' : `${(Math.round(x * 1000) / 10).toFixed(1)}%`;
}

function renderPretty(result: EvalResult, minAccuracy: number | undefined): string {
  const s = result.summary;
  const lines: string[] = [];
  for (const c of result.cases) {
    const rate = c.runs.length > 1 ? ` (${c.runs.filter((r) => r.passed).length}/${c.runs.length})` : '';
    lines.push(`${c.passed ? 'PASS' : 'FAIL'}  ${c.suite} #${c.index + 1}  ${c.name}${rate}`);
    if (!c.passed) for (const r of new Set(c.runs.flatMap((x) => x.reasons))) lines.push(`        ${r}`);
  }
  lines.push('');
  lines.push(
    `accuracy ${pct(s.accuracy)} (${s.passed_runs}/${s.runs} runs; ${s.passed_cases}/${s.cases} cases)${minAccuracy !== undefined ? `, minimum ${pct(minAccuracy)}` : ''}`,
  );
  lines.push(`intent-count accuracy ${pct(s.intent_count_accuracy)}, fastpath precision ${pct(s.fastpath_precision)}`);
  lines.push(`${result.mode === 'full' ? 'whole turns (--full)' : 'routing calls'}, seed ${result.seed ?? 'none'}`);
  lines.push(
    `tokens ${s.tokens.input} in / ${s.tokens.output} out${s.cost_usd !== null ? `, cost $${s.cost_usd.toFixed(4)}` : ''}${result.cached > 0 ? ` (${result.cached} runs from cache)` : ''}`,
  );
  lines.push('');
  lines.push('sub-agent            precision  recall');
  for (const [a, score] of Object.entries(s.agents)) lines.push(`${a.padEnd(20)} ${pct(score.precision).padStart(9)}  ${pct(score.recall).padStart(6)}`);
  lines.push('');
  lines.push(...matrixText(s));
  return `${lines.join('\n')}\n`;
}

function matrixText(s: EvalSummary): string[] {
  const cols = [...new Set(Object.values(s.confusion).flatMap((r) => Object.keys(r)))].sort();
  const w = Math.max(9, ...Object.keys(s.confusion).map((k) => k.length), ...cols.map((c) => c.length));
  const out = [`confusion (rows expected, columns asked)`, `${''.padEnd(w)} ${cols.map((c) => c.padStart(w)).join(' ')}`];
  for (const [e, row] of Object.entries(s.confusion)) out.push(`${e.padEnd(w)} ${cols.map((c) => String(row[c] ?? 0).padStart(w)).join(' ')}`);
  return out;
}

function renderMarkdown(result: EvalResult): string {
  const s = result.summary;
  const out = [
    `### Routing eval: ${pct(s.accuracy)} (${s.passed_runs}/${s.runs} runs)`,
    '',
    `| metric | value |`,
    `| --- | --- |`,
    `| accuracy | ${pct(s.accuracy)} |`,
    `| intent-count accuracy | ${pct(s.intent_count_accuracy)} |`,
    `| fastpath precision | ${pct(s.fastpath_precision)} |`,
    `| runs | ${result.mode === 'full' ? 'whole turns (--full)' : 'routing calls'} |`,
    `| seed | ${result.seed ?? '–'} |`,
    `| tokens (in / out) | ${s.tokens.input} / ${s.tokens.output} |`,
    `| cost | ${s.cost_usd === null ? '–' : `$${s.cost_usd.toFixed(4)}`} |`,
    '',
    '| sub-agent | precision | recall |',
    '| --- | --- | --- |',
    ...Object.entries(s.agents).map(([a, x]) => `| \`${a}\` | ${pct(x.precision)} | ${pct(x.recall)} |`),
  ];
  const failed = result.cases.filter((c) => !c.passed);
  if (failed.length > 0) {
    out.push('', '| failed case | expected | asked |', '| --- | --- | --- |');
    for (const c of failed)
      out.push(
        `| ${mdCell(c.name)} | ${c.expected.join(', ') || '(direct)'} | ${[...new Set(c.runs.map((r) => r.agents.join(', ') || '(direct)'))].join(' / ')} |`,
      );
  }
  return `${out.join('\n')}\n`;
}

export function mdCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function renderJunit(result: EvalResult): string {
  const bySuite = new Map<string, typeof result.cases>();
  for (const c of result.cases) bySuite.set(c.suite, [...(bySuite.get(c.suite) ?? []), c]);
  const total = result.cases.length;
  const failures = result.cases.filter((c) => !c.passed).length;
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="agentc eval" tests="${total}" failures="${failures}">`];
  for (const [suite, cases] of bySuite) {
    out.push(`  <testsuite name="${xml(suite)}" tests="${cases.length}" failures="${cases.filter((c) => !c.passed).length}">`);
    for (const c of cases) {
      const name = xml(`#${c.index + 1} ${c.name}`);
      if (c.passed) out.push(`    <testcase classname="${xml(suite)}" name="${name}"/>`);
      else {
        const why = [...new Set(c.runs.flatMap((r) => r.reasons))].join('; ');
        out.push(`    <testcase classname="${xml(suite)}" name="${name}">`, `      <failure message="${xml(why)}"/>`, '    </testcase>');
      }
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
