import { closest } from '../../diagnostics/did-you-mean.js';
import type { Rule } from '../rule.js';
import { configRelated, sortedCards } from '../support.js';

/** A card's model and fallback_model are keys of config.models. */
export const unknownModel: Rule = {
  id: 'unknown-model',
  needsConfig: true,
  run(program, report) {
    const models = Object.keys(program.config.data.models).sort();
    for (const card of sortedCards(program)) {
      for (const field of ['model', 'fallback_model'] as const) {
        const name = card.data[field];
        if (name === undefined || Object.prototype.hasOwnProperty.call(program.config.data.models, name)) continue;
        const match = closest(name, models);
        report({
          file: card.file.path,
          range: card.locate([field]),
          data: { card: card.data.id, field, name },
          hint: match
            ? `Did you mean "${match}"?`
            : models.length > 0
              ? `Models in config.models: ${models.join(', ')}.`
              : 'config.models is empty: declare the model in agentc.config.ts.',
          related: match ? configRelated(program, ['models', match], 'declared here', 'key') : [],
        });
      }
    }
  },
};
