import { RENDER_LIMIT } from '../../bundle/template/interpret.js';
import type { RenderError } from '../../resolve/types.js';
import { itemPass } from '../item-findings.js';
import type { Rule } from '../rule.js';
import { bodyStart } from '../support.js';

/** A block renders to at most RENDER_LIMIT characters; the render stops at the limit (reported once per block). */
export const renderSize: Rule<'render-size'> = {
  id: 'render-size',
  run(_program, report, items) {
    const seen = new Set<string>();
    for (const { item: agent, found } of items.findings(SIZE_ERRORS)) {
      const card = agent.card;
      for (const e of found) {
        if (seen.has(e.block.file.path)) continue;
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

/** The agent's renders stopped at the limit (reads the agent only). */
const SIZE_ERRORS = itemPass<'agent', RenderError>('agent', (_program, agent, found) => {
  for (const e of agent.renderErrors) if (e.kind === 'size') found(e);
});
