import type { Rule } from '../rule.js';
import { configRelated, sortedCards } from '../support.js';

/** No card lists a required platform block in prompt_blocks (it is injected at the head of every prompt). */
export const platformBlockDeclared: Rule<'platform-block-declared'> = {
  id: 'platform-block-declared',
  reads: ['cardTable'],
  needsConfig: true,
  run(program, report) {
    const required = program.config.data.platform.requiredBlocks;
    for (const card of sortedCards(program)) {
      card.data.prompt_blocks.forEach((name, i) => {
        const at = required.indexOf(name);
        if (at < 0) return;
        report({
          file: card.file.path,
          range: card.locate(['prompt_blocks', i]),
          message: 'declared',
          data: { card: card.data.id, name },
          hint: { id: 'remove', data: { name } },
          related: configRelated(program, ['platform', 'requiredBlocks', at], { message: 'requiredByPlatform' }),
        });
      });
    }
  },
};
