import type { Rule } from '../rule.js';
import { cardAt, sortedCards } from '../support.js';

/** A card with role orchestrator has sub_agents, and only orchestrators have sub_agents. */
export const roleShape: Rule = {
  id: 'role-shape',
  run(program, report) {
    for (const card of sortedCards(program)) {
      const { id, role, sub_agents } = card.data;
      if (role === 'orchestrator' && sub_agents.length === 0) {
        report({
          file: card.file.path,
          range: cardAt(card, ['role']),
          data: { detail: `Card "${id}" has role orchestrator but no sub_agents, so it has nothing to route to.` },
          hint: 'Add the cards it routes to under sub_agents, or change role to native.',
        });
      } else if (role !== 'orchestrator' && sub_agents.length > 0) {
        report({
          file: card.file.path,
          range: cardAt(card, ['sub_agents'], 'key'),
          data: { detail: `Card "${id}" has sub_agents but role ${role}; only orchestrators dispatch to sub-agents.` },
          hint: 'Set role: orchestrator, or remove sub_agents.',
          related: [{ file: card.file.path, range: cardAt(card, ['role']), message: `role ${role}` }],
        });
      }
    }
  },
};
