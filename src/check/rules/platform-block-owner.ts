import type { Rule } from '../rule.js';
import { blockAt, configRelated } from '../support.js';

/** Every block in config.platform.requiredBlocks is owned by config.platform.owner. */
export const platformBlockOwner: Rule<'platform-block-owner'> = {
  id: 'platform-block-owner',
  reads: ['blockHeads'],
  needsConfig: true,
  run(program, report) {
    const platform = program.config.data.platform.owner;
    program.config.data.platform.requiredBlocks.forEach((name, i) => {
      const block = program.blocks.get(name);
      if (!block || block.data.owner === platform) return;
      report({
        file: block.file.path,
        range: blockAt(block, ['owner']),
        message: 'notPlatform',
        data: { name, owner: block.data.owner, platform },
        hint: { id: 'fix', data: { platform, name } },
        related: configRelated(program, ['platform', 'requiredBlocks', i], { message: 'requiredByPlatform' }),
      });
    });
  },
};
