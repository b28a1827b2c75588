import type { HintRef } from '../../diagnostics/catalog.js';
import { closest, didYouMeanHint } from '../../diagnostics/did-you-mean.js';
import type { RelatedInput } from '../../diagnostics/diagnostic.js';
import type { Program } from '../../resolve/types.js';
import type { Rule } from '../rule.js';
import { blockIdAt, configAt, sortedBlocks, sortedCards } from '../support.js';

/** What a block id can look like (schemas/prompt-block.schema.json): never a path. */
const BLOCK_ID = /^[a-z0-9][a-z0-9_.-]{0,95}$/;

/** Every prompt_blocks entry of a card and every config.platform.requiredBlocks entry names a block. */
export const unknownBlock: Rule<'unknown-block'> = {
  id: 'unknown-block',
  reads: ['cardTable', 'blockHeads', 'unparsed'],
  needsConfig: true,
  run(program, report) {
    // An unreadable blocks/ folder is its own error; what it holds is unknown, not missing.
    if (program.unparsed.someBlocksUnread) return;
    const ids = sortedBlocks(program).map((b) => b.data.id);
    const suggest = (name: string): { hint: HintRef<'unknown-block'>; related: RelatedInput[] } => {
      const match = closest(name, ids);
      const block = match === undefined ? undefined : program.blocks.get(match);
      return {
        hint: didYouMeanHint(name, ids) ?? (BLOCK_ID.test(name) ? { id: 'add', data: { name } } : { id: 'notAnId' }),
        related: block ? [{ file: block.file.path, range: blockIdAt(block), message: 'declaredHere' }] : [],
      };
    };
    checkRequired(program, (name, at) => report({ ...at, message: 'platform', data: { name }, ...suggest(name) }));
    for (const card of sortedCards(program)) {
      card.data.prompt_blocks.forEach((name, i) => {
        if (program.blocks.has(name) || program.unparsed.blocks.has(name)) return;
        report({
          file: card.file.path,
          range: card.locate(['prompt_blocks', i]),
          message: 'card',
          data: { card: card.data.id, name },
          ...suggest(name),
        });
      });
    }
  },
};

function checkRequired(program: Program, found: (name: string, at: ReturnType<typeof configAt>) => void): void {
  program.config.data.platform.requiredBlocks.forEach((name, i) => {
    if (!program.blocks.has(name) && !program.unparsed.blocks.has(name)) found(name, configAt(program, ['platform', 'requiredBlocks', i]));
  });
}
