import { MAX_COHORT_FLAGS } from '../../resolve/index.js';
import type { ReportInput } from '../../diagnostics/diagnostic.js';
import { itemPass, reportFound } from '../item-findings.js';
import type { Rule } from '../rule.js';
import { cardAt } from '../support.js';

/** An agent's blocks use at most MAX_COHORT_FLAGS (6) known feature flags (at most 64 prompt cohorts): resolve's `cohortLimitExceeded`. */
export const cohortExplosion: Rule<'cohort-explosion'> = {
  id: 'cohort-explosion',
  needsConfig: true,
  run(program, report, items) {
    reportFound(items.findings(BY_AGENT), report);
  },
};

/** The agent's report (reads the agent, its card and blocks). */
const BY_AGENT = itemPass<'agent', ReportInput<'cohort-explosion'>>('agent', (_program, agent, report) => {
  const card = agent.card;
  if (!agent.cohortLimitExceeded) return;
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
});
