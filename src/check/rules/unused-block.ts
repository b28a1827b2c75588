import type { Rule } from '../rule.js';
import { cardsIncomplete, blockIdAt, sortedBlocks, sortedCards, typoTargets } from '../support.js';

/** Every block is required by the platform or listed in some card's prompt_blocks. */
export const unusedBlock: Rule<'unused-block'> = {
  id: 'unused-block',
  reads: ['cardTable', 'toolTable', 'blockHeads', 'unparsed', 'duplicates'],
  needsConfig: true,
  run(program, report) {
    // A card that did not parse may use (or reach) anything: say nothing rather than guess.
    if (cardsIncomplete(program)) return;
    const used = new Set(program.config.data.platform.requiredBlocks);
    for (const card of sortedCards(program)) for (const b of card.data.prompt_blocks) used.add(b);
    const typos = typoTargets(program).blocks;
    for (const block of sortedBlocks(program)) {
      if (used.has(block.data.id) || typos.has(block.data.id)) continue;
      report({
        file: block.file.path,
        range: blockIdAt(block),
        message: 'unused',
        data: { name: block.data.id },
        hint: { id: 'use', data: { name: block.data.id, file: block.file.path } },
      });
    }
  },
};
