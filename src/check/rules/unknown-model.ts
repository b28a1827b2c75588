import { closest, didYouMeanHint } from '../../diagnostics/did-you-mean.js';
import type { Rule } from '../rule.js';
import { configRelated, sortedCards } from '../support.js';

/** A card's model, fallback_model and history.summary_model are keys of config.models. */
export const unknownModel: Rule<'unknown-model'> = {
  id: 'unknown-model',
  reads: ['cardTable'],
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
        // Written in config.models but invalid: reported there (schema), once.
        const invalid = program.config.invalidModels;
        if (invalid === 'all' || invalid?.has(name)) continue;
        const match = closest(name, models);
        report({
          file: card.file.path,
          range: card.locate(path),
          message: 'unknown',
          data: { card: card.data.id, field, name },
          hint: didYouMeanHint(name, models) ?? (models.length > 0 ? { id: 'known', data: { models: models.join(', ') } } : { id: 'noModels' }),
          related: match ? configRelated(program, ['models', match], { message: 'declaredHere' }, 'key') : [],
        });
      }
    }
  },
};
