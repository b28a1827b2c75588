import type { Rule } from '../rule.js';
import { blockAt, sortedCards } from '../support.js';

/**
 * A card's prompt_blocks are its own team's (block.owner === card.owner),
 * platform-owned, or reusable. Required blocks are injected, not chosen, and
 * are checked by platform-block-owner instead.
 */
export const blockOwnership: Rule = {
  id: 'block-ownership',
  needsConfig: true,
  run(program, report) {
    const platform = program.config.data.platform.owner;
    const required = new Set(program.config.data.platform.requiredBlocks);
    for (const card of sortedCards(program)) {
      card.data.prompt_blocks.forEach((name, i) => {
        const block = program.blocks.get(name);
        if (!block || required.has(name)) return;
        const owner = block.data.owner;
        if (block.data.reusable || owner === platform || owner === card.data.owner) return;
        report({
          file: card.file.path,
          range: card.locate(['prompt_blocks', i]),
          data: { card: card.data.id, cardOwner: card.data.owner, name, blockOwner: owner },
          hint: `Write a block owned by "${card.data.owner}", or ask team "${owner}" to mark "${name}" reusable: true.`,
          related: [{ file: block.file.path, range: blockAt(block, ['owner']), message: `owned by "${owner}" here` }],
        });
      });
    }
  },
};
