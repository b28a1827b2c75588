import { didYouMeanHint } from '../../diagnostics/did-you-mean.js';
import type { Rule } from '../rule.js';
import { configRelated, sortedBlocks } from '../support.js';

/** A block's feature_flag is declared in config.flags. */
export const unknownFlag: Rule<'unknown-flag'> = {
  id: 'unknown-flag',
  needsConfig: true,
  run(program, report) {
    const flags = program.config.data.flags;
    for (const block of sortedBlocks(program)) {
      const name = block.data.feature_flag;
      if (name === undefined || flags.includes(name)) continue;
      report({
        file: block.file.path,
        range: block.locate(['feature_flag']),
        message: 'unknown',
        data: { block: block.data.id, name },
        hint: didYouMeanHint(name, flags) ?? { id: 'declare', data: { name } },
        related: configRelated(program, ['flags'], { message: 'flagsDeclared' }, 'key'),
      });
    }
  },
};
