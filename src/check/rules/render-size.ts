import { formatInt } from '../../diagnostics/format-number.js';
import { RENDER_LIMIT } from '../../resolve/strict-handlebars.js';
import type { Rule } from '../rule.js';
import { bodyStart, sortedCards } from '../support.js';

const LIMIT_TEXT = `1 MiB (${formatInt(RENDER_LIMIT)} characters)`;

/** A block renders to at most RENDER_LIMIT characters; the render stops at the limit (reported once per block). */
export const renderSize: Rule = {
  id: 'render-size',
  run(program, report) {
    const seen = new Set<string>();
    for (const card of sortedCards(program)) {
      for (const e of program.agents.get(card.data.id)?.renderErrors ?? []) {
        if (e.kind !== 'size' || seen.has(e.block.file.path)) continue;
        seen.add(e.block.file.path);
        report({
          file: e.block.file.path,
          range: e.range ?? bodyStart(e.block),
          data: { block: e.block.data.id, limit: LIMIT_TEXT, card: card.data.id },
          hint: 'Nested {{#each}} multiplies the output: iterate one level, or keep large data out of the prompt (read it through a tool).',
        });
      }
    }
  },
};
