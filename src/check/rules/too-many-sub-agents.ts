import type { Rule } from '../rule.js';
import { cardAt, configRelated, sortedCards } from '../support.js';

/** An orchestrator has at most config.budgets.maxSubAgents sub-agents. */
export const tooManySubAgents: Rule<'too-many-sub-agents'> = {
  id: 'too-many-sub-agents',
  reads: ['cardTable'],
  needsConfig: true,
  run(program, report) {
    const max = program.config.data.budgets.maxSubAgents;
    for (const card of sortedCards(program)) {
      const count = card.data.sub_agents.length;
      if (count <= max) continue;
      report({
        file: card.file.path,
        range: cardAt(card, ['sub_agents'], 'key'),
        message: 'tooMany',
        data: { card: card.data.id, count, max },
        hint: { id: 'group' },
        related: configRelated(program, ['budgets', 'maxSubAgents'], { message: 'limitSetHere' }),
      });
    }
  },
};
