import type { Rule } from '../rule.js';
import { cardsIncomplete, configAt, sortedCards, typoTargets } from '../support.js';

/** Every model in config.models is some card's model, fallback_model or history.summary_model. */
export const unusedModel: Rule<'unused-model'> = {
  id: 'unused-model',
  reads: ['cardTable', 'toolTable', 'blockHeads', 'unparsed', 'duplicates'],
  needsConfig: true,
  run(program, report) {
    // A card that did not parse may use (or reach) anything: say nothing rather than guess.
    if (cardsIncomplete(program)) return;
    const used = new Set<string>();
    for (const card of sortedCards(program)) {
      if (card.data.model !== undefined) used.add(card.data.model);
      if (card.data.fallback_model !== undefined) used.add(card.data.fallback_model);
      if (card.data.history?.summary_model !== undefined) used.add(card.data.history.summary_model);
    }
    const typos = typoTargets(program).models;
    for (const name of Object.keys(program.config.data.models).sort()) {
      if (typos.has(name)) continue;
      if (used.has(name)) continue;
      report({
        ...configAt(program, ['models', name], 'key'),
        message: 'unused',
        data: { name },
        hint: { id: 'use', data: { name } },
      });
    }
  },
};
