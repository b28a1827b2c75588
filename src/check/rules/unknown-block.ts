import { closest } from '../../diagnostics/did-you-mean.js';
import type { RelatedInformation } from '../../diagnostics/diagnostic.js';
import type { Program } from '../../resolve/types.js';
import type { Rule } from '../rule.js';
import { blockIdAt, configAt, sortedBlocks, sortedCards } from '../support.js';

/** What a block id can look like (schemas/prompt-block.schema.json): never a path. */
const BLOCK_ID = /^[a-z0-9][a-z0-9_.-]{0,95}$/;

/** Every prompt_blocks entry of a card and every config.platform.requiredBlocks entry names a block. */
export const unknownBlock: Rule = {
  id: 'unknown-block',
  needsConfig: true,
  run(program, report) {
    // An unreadable blocks/ folder is its own error; what it holds is unknown, not missing.
    if (program.unparsed.someBlocksUnread) return;
    const ids = sortedBlocks(program).map((b) => b.data.id);
    const suggest = (name: string): { hint: string; related: RelatedInformation[] } => {
      const match = closest(name, ids);
      const block = match === undefined ? undefined : program.blocks.get(match);
      return {
        hint: match ? `Did you mean "${match}"?` : BLOCK_ID.test(name) ? `Add blocks/${name}.md, or remove the entry.` : `This cannot be a block id (lowercase letters, digits, _, . or -): remove the entry.`,
        related: block ? [{ file: block.file.path, range: blockIdAt(block), message: 'declared here' }] : [],
      };
    };
    checkRequired(program, (name, at) => report({ ...at, data: { owner: 'The platform config (platform.requiredBlocks)', name }, ...suggest(name) }));
    for (const card of sortedCards(program)) {
      card.data.prompt_blocks.forEach((name, i) => {
        if (program.blocks.has(name) || program.unparsed.blocks.has(name)) return;
        report({
          file: card.file.path,
          range: card.locate(['prompt_blocks', i]),
          data: { owner: `Card "${card.data.id}"`, name },
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
