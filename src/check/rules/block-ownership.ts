import type { Rule } from '../rule.js';
import { blockAt, sortedCards } from '../support.js';

/**
 * A card's prompt_blocks are its own team's (block.owner === card.owner),
 * platform-owned, or reusable. Required blocks are injected, not chosen, and
 * are checked by platform-block-owner instead.
 */
export const blockOwnership: Rule<'block-ownership'> = {
  id: 'block-ownership',
  reads: ['cardTable', 'blockHeads'],
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
          message: 'foreign',
          data: { card: card.data.id, cardOwner: card.data.owner, name, blockOwner: owner },
          hint: { id: 'own', data: { cardOwner: card.data.owner, blockOwner: owner, name } },
          related: [{ file: block.file.path, range: blockAt(block, ['owner']), message: 'ownedHere', data: { owner } }],
        });
      });
    }
  },
};
