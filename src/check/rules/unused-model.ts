import type { Rule } from '../rule.js';
import { configAt, sortedCards } from '../support.js';

/** Every model in config.models is some card's model, fallback_model or history.summary_model. */
export const unusedModel: Rule = {
  id: 'unused-model',
  needsConfig: true,
  run(program, report) {
    // A card that did not parse may use (or reach) anything: say nothing rather than guess.
    if (program.unparsed.cards.size > 0) return;
    const used = new Set<string>();
    for (const card of sortedCards(program)) {
      if (card.data.model !== undefined) used.add(card.data.model);
      if (card.data.fallback_model !== undefined) used.add(card.data.fallback_model);
      if (card.data.history?.summary_model !== undefined) used.add(card.data.history.summary_model);
    }
    for (const name of Object.keys(program.config.data.models).sort()) {
      if (used.has(name)) continue;
      report({
        ...configAt(program, ['models', name], 'key'),
        data: { name },
        hint: `Use "${name}" as a card's model or fallback_model, or remove it from config.models.`,
      });
    }
  },
};
