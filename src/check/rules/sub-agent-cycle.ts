import type { Rule } from '../rule.js';
import { subAgentGraph } from '../graph.js';

/**
 * The sub-agent graph is acyclic. Each cycle is reported once, named from its
 * smallest id (`a → b → a`), at the sub_agents entry that closes it.
 */
export const subAgentCycle: Rule<'sub-agent-cycle'> = {
  id: 'sub-agent-cycle',
  reads: ['cardTable'],
  run(program, report) {
    for (const cycle of subAgentGraph(program).cycles) {
      // Edges cycle[i] → cycle[i + 1]; the last one closes the cycle.
      const edges = cycle.slice(0, -1).map((from, i) => {
        const card = program.cards.get(from)!;
        const index = card.data.sub_agents.indexOf(cycle[i + 1]!);
        return { card, range: card.locate(['sub_agents', index]) };
      });
      const closing = edges[edges.length - 1]!;
      const path = cycle.join(' → ');
      report({
        file: closing.card.file.path,
        range: closing.range,
        message: 'cycle',
        data: { path },
        hint: cycle.length === 2 ? { id: 'self', data: { card: cycle[0]! } } : { id: 'cycle' },
        related: edges.slice(0, -1).map((e, i) => ({
          file: e.card.file.path,
          range: e.range,
          message: 'edge' as const,
          data: { from: cycle[i]!, to: cycle[i + 1]! },
        })),
      });
    }
  },
};
