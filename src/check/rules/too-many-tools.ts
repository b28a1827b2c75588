import type { Rule } from '../rule.js';
import { cardAt, sortedCards } from '../support.js';

export const MAX_TOOLS = 128;

/** An agent exposes at most 128 tools (own tools plus one per sub-agent). */
export const tooManyTools: Rule<'too-many-tools'> = {
  id: 'too-many-tools',
  run(program, report) {
    for (const card of sortedCards(program)) {
      const agent = program.agents.get(card.data.id);
      if (!agent || agent.tools.length <= MAX_TOOLS) continue;
      const own = agent.tools.filter((t) => t.kind === 'tool').length;
      report({
        file: card.file.path,
        range: cardAt(card, [own > 0 ? 'tools' : 'sub_agents'], 'key'),
        message: 'tooMany',
        data: { card: card.data.id, count: agent.tools.length, max: MAX_TOOLS },
        hint: own === agent.tools.length ? { id: 'split' } : { id: 'group', data: { own, subs: agent.tools.length - own } },
      });
    }
  },
};
