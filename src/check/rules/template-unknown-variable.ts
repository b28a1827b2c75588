import { closest } from '../../diagnostics/did-you-mean.js';
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
export const templateUnknownVariable: Rule = {
  id: 'template-unknown-variable',
  run(program, report) {
    const reported = new Set<string>();
    const at = (file: string, range: Range | undefined) =>
      `${file}\u0000${range ? `${range.start.line}:${range.start.column}` : ''}`;
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
        report({ file, range: ref.range, data: { detail: verdict.detail }, ...(verdict.hint ? { hint: verdict.hint } : {}) });
      }
      for (const h of analysis.unknownHelpers) {
        note(file, h.range);
        staticBlocks.add(file);
        const match = closest(h.name, HELPERS);
        report({
          file,
          range: h.range,
          data: { detail: `Block "${id}" calls helper "${h.name}", which agentc does not provide (helpers: ${HELPERS.join(', ')}).` },
          hint: match ? `Did you mean "${match}"?` : 'Compute the value in the card or config and read it as a variable, or branch with {{#if}}.',
        });
      }
      for (const range of analysis.partials) {
        note(file, range);
        staticBlocks.add(file);
        report({
          file,
          range,
          data: { detail: `Block "${id}" uses a partial or decorator; agentc does not support partials in blocks.` },
          hint: 'Put the shared text in its own block and list it in prompt_blocks.',
        });
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
          data: { detail: `Block "${e.block.data.id}" failed to render for "${card.data.id}": ${e.message}` },
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
