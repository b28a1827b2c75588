import { closest } from '../../diagnostics/did-you-mean.js';
import type { Rule } from '../rule.js';
import { configRelated, sortedBlocks } from '../support.js';

/** A block's feature_flag is declared in config.flags. */
export const unknownFlag: Rule = {
  id: 'unknown-flag',
  needsConfig: true,
  run(program, report) {
    const flags = program.config.data.flags;
    for (const block of sortedBlocks(program)) {
      const name = block.data.feature_flag;
      if (name === undefined || flags.includes(name)) continue;
      const match = closest(name, flags);
      report({
        file: block.file.path,
        range: block.locate(['feature_flag']),
        data: { block: block.data.id, name },
        hint: match ? `Did you mean "${match}"?` : `Add "${name}" to flags in agentc.config.ts, or remove feature_flag.`,
        related: configRelated(program, ['flags'], 'config.flags is declared here', 'key'),
      });
    }
  },
};
