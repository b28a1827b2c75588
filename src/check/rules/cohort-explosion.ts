import { MAX_COHORT_FLAGS } from '../../resolve/index.js';
import type { Rule } from '../rule.js';
import { cardAt, sortedCards } from '../support.js';

/** An agent's blocks use at most MAX_COHORT_FLAGS (6) known feature flags (at most 64 prompt cohorts): resolve's `cohortLimitExceeded`. */
export const cohortExplosion: Rule<'cohort-explosion'> = {
  id: 'cohort-explosion',
  needsConfig: true,
  run(program, report) {
    for (const card of sortedCards(program)) {
      const agent = program.agents.get(card.data.id);
      if (!agent?.cohortLimitExceeded) continue;
      const flagged = agent.blocks.filter((b) => b.block.data.feature_flag !== undefined);
      report({
        file: card.file.path,
        range: cardAt(card, ['prompt_blocks'], 'key'),
        message: 'tooMany',
        data: {
          card: card.data.id,
          count: agent.flags.length,
          flags: agent.flags.join(', '),
          cohorts: 2 ** agent.flags.length,
          max: MAX_COHORT_FLAGS,
        },
        hint: { id: 'prune' },
        related: flagged.map((b) => ({
          file: b.block.file.path,
          range: b.block.locate(['feature_flag']),
          message: 'gatedBy' as const,
          data: { block: b.block.data.id, flag: b.block.data.feature_flag ?? '' },
        })),
      });
    }
  },
};
