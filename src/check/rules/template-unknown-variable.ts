import { didYouMeanHint } from '../../diagnostics/did-you-mean.js';
import type { Range } from '../../diagnostics/diagnostic.js';
import { BUILTIN_HELPERS } from '../../parse/template.js';
import type { Rule } from '../rule.js';
import { bodyStart, sortedBlocks, sortedCards } from '../support.js';
import { classifiedRefs } from '../templates.js';

const HELPERS = [...BUILTIN_HELPERS].sort();

/**
 * A block reads only what the compile-time context provides, calls only the
 * built-in helpers and uses no partials; render-time failures are reported too.
 */
export const templateUnknownVariable: Rule<'template-unknown-variable'> = {
  id: 'template-unknown-variable',
  run(program, report) {
    const reported = new Set<string>();
    const at = (file: string, range: Range | undefined) => `${file}\u0000${range ? `${range.start.line}:${range.start.column}` : ''}`;
    /** Static findings' ranges by file: a render failure spanning one of them (a helper call) is explained by it. */
    const staticRanges = new Map<string, Range[]>();
    const note = (file: string, range: Range) => {
      reported.add(at(file, range));
      staticRanges.set(file, [...(staticRanges.get(file) ?? []), range]);
    };
    /** Blocks with a static finding: a render failure without a position is one of those. */
    const staticBlocks = new Set<string>();
    for (const block of sortedBlocks(program)) {
      const analysis = block.template;
      if (!analysis) continue;
      const id = block.data.id;
      const file = block.file.path;
      for (const { ref, verdict } of classifiedRefs(program, block)) {
        if (verdict.kind === 'ok') continue;
        note(file, ref.range);
        staticBlocks.add(file);
        if (verdict.kind !== 'unknown') continue; // dynamic-in-prefix reports it
        const { kind: _kind, ...read } = verdict;
        report({ file, range: ref.range, ...read });
      }
      for (const h of analysis.unknownHelpers) {
        note(file, h.range);
        staticBlocks.add(file);
        report({
          file,
          range: h.range,
          message: 'unknownHelper',
          data: { block: id, name: h.name, helpers: HELPERS.join(', ') },
          hint: didYouMeanHint(h.name, HELPERS) ?? { id: 'noHelper' },
        });
      }
      for (const range of analysis.partials) {
        note(file, range);
        staticBlocks.add(file);
        report({
          file,
          range,
          message: 'partial',
          data: { block: id },
          hint: { id: 'noPartials' },
        });
      }
      for (const u of analysis.unsupported) {
        note(file, u.range);
        staticBlocks.add(file);
        report({ file, range: u.range, message: 'unsupported', data: { block: id, what: u.what } });
      }
    }
    // Render failures the static analysis did not explain (one per place and message).
    const seen = new Set<string>();
    for (const card of sortedCards(program)) {
      for (const e of program.agents.get(card.data.id)?.renderErrors ?? []) {
        if (e.kind === 'size') continue; // render-size reports it
        const file = e.block.file.path;
        // A body that does not parse is reported once, by the parse phase (template-syntax).
        if (!e.block.template) continue;
        if (reported.has(at(file, e.range)) || (!e.range && staticBlocks.has(file))) continue;
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

function within(p: Range['start'], r: Range): boolean {
  const after = p.line > r.start.line || (p.line === r.start.line && p.column >= r.start.column);
  const before = p.line < r.end.line || (p.line === r.end.line && p.column < r.end.column);
  return after && before;
}
