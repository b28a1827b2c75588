import type { Rule } from '../rule.js';
import { cardsIncomplete, sortedCards, typoTargets } from '../support.js';

/** Every non-orchestrator card (role not orchestrator, no sub_agents) is listed as some card's sub-agent. */
export const unreachableAgent: Rule<'unreachable-agent'> = {
  id: 'unreachable-agent',
  reads: ['cardTable', 'toolTable', 'blockHeads', 'unparsed', 'duplicates'],
  run(program, report) {
    // A card that did not parse may use (or reach) anything: say nothing rather than guess.
    if (cardsIncomplete(program)) return;
    const typos = typoTargets(program).cards;
    for (const card of sortedCards(program)) {
      if (card.data.role === 'orchestrator' || card.data.sub_agents.length > 0) continue;
      if (typos.has(card.data.id)) continue;
      if ((program.parents.get(card.data.id) ?? []).length > 0) continue;
      report({
        file: card.file.path,
        range: card.locate(['id']),
        message: 'unreachable',
        data: { card: card.data.id },
        hint: { id: 'list', data: { card: card.data.id, file: card.file.path } },
      });
    }
  },
};
