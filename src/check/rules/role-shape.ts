import type { Rule } from '../rule.js';
import { cardAt, sortedCards } from '../support.js';

/** A card with role orchestrator has sub_agents, and only orchestrators have sub_agents. */
export const roleShape: Rule<'role-shape'> = {
  id: 'role-shape',
  reads: ['cardTable'],
  run(program, report) {
    for (const card of sortedCards(program)) {
      const { id, role, sub_agents } = card.data;
      if (role === 'orchestrator' && sub_agents.length === 0) {
        report({
          file: card.file.path,
          range: cardAt(card, ['role']),
          message: 'emptyOrchestrator',
          data: { card: id },
          hint: { id: 'addSubAgents' },
        });
      } else if (role !== 'orchestrator' && sub_agents.length > 0) {
        report({
          file: card.file.path,
          range: cardAt(card, ['sub_agents'], 'key'),
          message: 'notOrchestrator',
          data: { card: id, role },
          hint: { id: 'setRole' },
          related: [{ file: card.file.path, range: cardAt(card, ['role']), message: 'role', data: { role } }],
        });
      }
    }
  },
};
