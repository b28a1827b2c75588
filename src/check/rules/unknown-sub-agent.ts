import { closest, didYouMeanHint } from '../../diagnostics/did-you-mean.js';
import type { Rule } from '../rule.js';
import { mismatchedStems, sortedCards } from '../support.js';

/** Every sub_agents entry of a card names a card. */
export const unknownSubAgent: Rule<'unknown-sub-agent'> = {
  id: 'unknown-sub-agent',
  reads: ['cardTable', 'unparsed'],
  run(program, report) {
    const ids = sortedCards(program).map((c) => c.data.id);
    const mismatched = mismatchedStems(program).cards;
    for (const card of sortedCards(program)) {
      card.data.sub_agents.forEach((name, i) => {
        if (program.cards.has(name) || program.unparsed.cards.has(name) || mismatched.has(name)) return;
        const match = closest(name, ids);
        const target = match === undefined ? undefined : program.cards.get(match);
        report({
          file: card.file.path,
          range: card.locate(['sub_agents', i]),
          message: 'unknown',
          data: { card: card.data.id, name },
          hint: didYouMeanHint(name, ids) ?? (/^[a-z][a-z0-9_]{0,47}$/.test(name) ? { id: 'add', data: { name } } : { id: 'notAnId' }),
          related: target ? [{ file: target.file.path, range: target.locate(['id']), message: 'declaredHere' }] : [],
        });
      });
    }
  },
};
