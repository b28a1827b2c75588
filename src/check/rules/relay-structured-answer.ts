import type { Rule } from '../rule.js';
import { sortedCards } from '../support.js';

/** An orchestrator in relay mode (dispatch.stream: relay) has no sub-agent with an `output` schema: its answer would reach the user as JSON. */
export const relayStructuredAnswer: Rule<'relay-structured-answer'> = {
  id: 'relay-structured-answer',
  run(program, report) {
    for (const card of sortedCards(program)) {
      if (program.agents.get(card.data.id)?.dispatch.stream !== 'relay') continue;
      card.data.sub_agents.forEach((id, i) => {
        const sub = program.cards.get(id);
        if (sub?.data.output === undefined) return;
        report({
          file: card.file.path,
          range: card.locate(['sub_agents', i]),
          message: 'jsonToUser',
          data: { agent: id, card: card.data.id },
          hint: { id: 'compose', data: { agent: id, card: card.data.id } },
          related: [{ file: sub.file.path, range: sub.locate(['output'], 'key'), message: 'answersWithSchema', data: { agent: id } }],
        });
      });
    }
  },
};
