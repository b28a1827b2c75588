import type { Rule } from '../rule.js';
import { cardsIncomplete, sortedCards, sortedTools, typoTargets } from '../support.js';

/** Every tool contract is listed in some card's tools. */
export const unusedTool: Rule<'unused-tool'> = {
  id: 'unused-tool',
  reads: ['cardTable', 'toolTable', 'blockHeads', 'unparsed', 'duplicates'],
  run(program, report) {
    // A card that did not parse may use (or reach) anything: say nothing rather than guess.
    if (cardsIncomplete(program)) return;
    const used = new Set<string>();
    for (const card of sortedCards(program)) for (const t of card.data.tools) used.add(t);
    const typos = typoTargets(program).tools;
    for (const tool of sortedTools(program)) {
      if (used.has(tool.data.name) || typos.has(tool.data.name)) continue;
      report({
        file: tool.file.path,
        range: tool.locate(['name']),
        message: 'unused',
        data: { name: tool.data.name },
        hint: { id: 'use', data: { name: tool.data.name, file: tool.file.path } },
      });
    }
  },
};
