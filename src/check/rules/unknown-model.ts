import { closest } from '../../diagnostics/did-you-mean.js';
import type { Rule } from '../rule.js';
import { configRelated, sortedCards } from '../support.js';

/** A card's model, fallback_model and history.summary_model are keys of config.models. */
export const unknownModel: Rule = {
  id: 'unknown-model',
  needsConfig: true,
  run(program, report) {
    const models = Object.keys(program.config.data.models).sort();
    for (const card of sortedCards(program)) {
      const fields: [string, string | undefined, (string | number)[]][] = [
        ['model', card.data.model, ['model']],
        ['fallback_model', card.data.fallback_model, ['fallback_model']],
        ['history.summary_model', card.data.history?.summary_model, ['history', 'summary_model']],
      ];
      for (const [field, name, path] of fields) {
        if (name === undefined || Object.prototype.hasOwnProperty.call(program.config.data.models, name)) continue;
        const match = closest(name, models);
        report({
          file: card.file.path,
          range: card.locate(path),
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
