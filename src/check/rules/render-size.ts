import { RENDER_LIMIT } from '../../bundle/template/interpret.js';
import type { Rule } from '../rule.js';
import { bodyStart, sortedCards } from '../support.js';

/** A block renders to at most RENDER_LIMIT characters; the render stops at the limit (reported once per block). */
export const renderSize: Rule<'render-size'> = {
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
          message: 'tooLarge',
          data: { block: e.block.data.id, limit: RENDER_LIMIT, card: card.data.id },
          hint: { id: 'nestedEach' },
        });
      }
    }
  },
};
