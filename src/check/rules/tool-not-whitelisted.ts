import type { Rule } from '../rule.js';
import { sortedCards } from '../support.js';

/** When a card has policy.tool_whitelist, every entry of its tools (that has a contract) is in it. */
export const toolNotWhitelisted: Rule<'tool-not-whitelisted'> = {
  id: 'tool-not-whitelisted',
  reads: ['cardTable', 'toolTable'],
  run(program, report) {
    for (const card of sortedCards(program)) {
      const whitelist = card.data.policy.tool_whitelist;
      if (whitelist === undefined) continue;
      card.data.tools.forEach((name, i) => {
        // A tool without a contract is reported by unknown-tool at the same place.
        if (whitelist.includes(name) || !program.tools.has(name)) return;
        report({
          file: card.file.path,
          range: card.locate(['tools', i]),
          message: 'missing',
          data: { card: card.data.id, name },
          hint: { id: 'add', data: { name } },
          related: [{ file: card.file.path, range: card.locate(['policy', 'tool_whitelist'], 'key'), message: 'whitelistDeclared' }],
        });
      });
    }
  },
};
