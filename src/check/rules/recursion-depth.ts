import type { Rule } from '../rule.js';
import { subAgentGraph } from '../graph.js';
import { sortedCards } from '../support.js';

/**
 * The sub-agent tree below a card is no deeper than its policy.max_recursion_depth
 * (unchecked when absent). Cycle edges are ignored: sub-agent-cycle reports them.
 */
export const recursionDepth: Rule<'recursion-depth'> = {
  id: 'recursion-depth',
  reads: ['cardTable'],
  run(program, report) {
    const graph = subAgentGraph(program);
    for (const card of sortedCards(program)) {
      const max = card.data.policy.max_recursion_depth;
      if (max === undefined) continue;
      const { depth, path } = graph.depth(card.data.id);
      if (depth <= max) continue;
      const first = program.cards.get(path[0]!)!;
      const index = first.data.sub_agents.indexOf(path[1]!);
      report({
        file: card.file.path,
        range: card.locate(['policy', 'max_recursion_depth']),
        message: 'tooDeep',
        data: { card: card.data.id, depth, path: path.join(' → '), max },
        hint: { id: 'flatten', data: { depth, card: card.data.id } },
        related: [{ file: card.file.path, range: card.locate(['sub_agents', index]), message: 'deepestChain', data: { path: path.join(' → ') } }],
      });
    }
  },
};
