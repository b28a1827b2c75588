import { didYouMeanHint } from '../../diagnostics/did-you-mean.js';
import type { Range, ReportInput } from '../../diagnostics/diagnostic.js';
import { BUILTIN_HELPERS } from '../../parse/template.js';
import type { Block } from '../../parse/types.js';
import type { Program, RenderError } from '../../resolve/types.js';
import { itemPass } from '../item-findings.js';
import type { Rule } from '../rule.js';
import { bodyStart } from '../support.js';
import { classifiedRefs } from '../templates.js';

const HELPERS = [...BUILTIN_HELPERS].sort();

/**
 * A block reads only what the compile-time context provides, calls only the
 * built-in helpers and uses no partials; render-time failures are reported too.
 */
export const templateUnknownVariable: Rule<'template-unknown-variable'> = {
  id: 'template-unknown-variable',
  run(program, report, items) {
    /** Blocks with a static finding, with the findings' ranges. */
    const withFindings: { file: string; ranges: Range[] }[] = [];
    for (const { item: block, found } of items.findings(STATIC_FINDINGS)) {
      for (const f of found) {
        for (const d of f.reports) report(d);
        withFindings.push({ file: block.file.path, ranges: f.ranges });
      }
    }
    // Render failures the static analysis did not explain (one per place and message).
    const failing = items.findings(RENDER_ERRORS);
    if (failing.length === 0) return;
    const at = (file: string, range: Range | undefined) => `${file}\u0000${range ? `${range.start.line}:${range.start.column}` : ''}`;
    const reported = new Set<string>();
    /** Static findings' ranges by file: a render failure spanning one of them (a helper call) is explained by it. */
    const staticRanges = new Map<string, Range[]>();
    for (const { file, ranges } of withFindings) {
      for (const range of ranges) reported.add(at(file, range));
      staticRanges.set(file, ranges);
    }
    const seen = new Set<string>();
    for (const { item: agent, found } of failing) {
      const card = agent.card;
      for (const e of found) {
        if (e.kind === 'size') continue; // render-size reports it
        const file = e.block.file.path;
        // A body that does not parse is reported once, by the parse phase (template-syntax).
        if (!e.block.template) continue;
        if (reported.has(at(file, e.range)) || (!e.range && staticRanges.has(file))) continue;
        if (e.range && (staticRanges.get(file) ?? []).some((r) => within(r.start, e.range!))) continue;
        const key = `${at(file, e.range)}\u0000${e.message}`;
        if (seen.has(key)) continue;
        seen.add(key);
        report({
          file,
          range: e.range ?? bodyStart(e.block),
          message: 'renderFailed',
          data: { block: e.block.data.id, card: card.data.id, reason: e.message },
        });
      }
    }
  },
};

/**
 * A block's static findings (unknown reads, unknown helpers, partials, unsupported syntax) in
 * report order, with their ranges (dynamic reads' too: dynamic-in-prefix reports them).
 */
interface StaticFindings {
  reports: ReportInput<'template-unknown-variable'>[];
  ranges: Range[];
}

/** One finding per block whose template has a static finding (reads the block and the config's template context). */
const STATIC_FINDINGS = itemPass<'block', StaticFindings>('block', (program, block, found) => {
  if (!block.template) return;
  const f = staticFindings(program, block);
  if (f.ranges.length > 0) found(f);
});

/** The agent's render failures (reads the agent only). */
const RENDER_ERRORS = itemPass<'agent', RenderError>('agent', (_program, agent, found) => agent.renderErrors.forEach((e) => found(e)));

function staticFindings(program: Program, block: Block): StaticFindings {
  const analysis = block.template!;
  const id = block.data.id;
  const file = block.file.path;
  const reports: ReportInput<'template-unknown-variable'>[] = [];
  const ranges: Range[] = [];
  for (const { ref, verdict } of classifiedRefs(program, block)) {
    if (verdict.kind === 'ok') continue;
    ranges.push(ref.range);
    if (verdict.kind !== 'unknown') continue; // dynamic-in-prefix reports it
    const { kind: _kind, ...read } = verdict;
    reports.push({ file, range: ref.range, ...read });
  }
  for (const h of analysis.unknownHelpers) {
    ranges.push(h.range);
    reports.push({
      file,
      range: h.range,
      message: 'unknownHelper',
      data: { block: id, name: h.name, helpers: HELPERS.join(', ') },
      hint: didYouMeanHint(h.name, HELPERS) ?? { id: 'noHelper' },
    });
  }
  for (const range of analysis.partials) {
    ranges.push(range);
    reports.push({ file, range, message: 'partial', data: { block: id }, hint: { id: 'noPartials' } });
  }
  for (const u of analysis.unsupported) {
    ranges.push(u.range);
    reports.push({ file, range: u.range, message: 'unsupported', data: { block: id, what: u.what } });
  }
  return { reports, ranges };
}

function within(p: Range['start'], r: Range): boolean {
  const after = p.line > r.start.line || (p.line === r.start.line && p.column >= r.start.column);
  const before = p.line < r.end.line || (p.line === r.end.line && p.column < r.end.column);
  return after && before;
}
