import type { Rule } from '../rule.js';
import { sortedCards } from '../support.js';

/** An orchestrator in relay mode (dispatch.stream: relay) has no sub-agent with an `output` schema: its answer would reach the user as JSON. */
export const relayStructuredAnswer: Rule = {
  id: 'relay-structured-answer',
  run(program, report) {
    for (const card of sortedCards(program)) {
      if (card.data.dispatch?.stream !== 'relay') continue;
      card.data.sub_agents.forEach((id, i) => {
        const sub = program.cards.get(id);
        if (sub?.data.output === undefined) return;
        report({
          file: card.file.path,
          range: card.locate(['sub_agents', i]),
          data: { agent: id, card: card.data.id },
          hint: `Use dispatch.stream: compose in "${card.data.id}" (its model then words the result), or drop the output schema of "${id}".`,
          related: [{ file: sub.file.path, range: sub.locate(['output'], 'key'), message: `"${id}" answers with this schema` }],
        });
      });
    }
  },
};
