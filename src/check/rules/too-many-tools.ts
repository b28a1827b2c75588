import type { Rule } from '../rule.js';
import { cardAt, sortedCards } from '../support.js';

export const MAX_TOOLS = 128;

/** An agent exposes at most 128 tools (own tools plus one per sub-agent). */
export const tooManyTools: Rule = {
  id: 'too-many-tools',
  run(program, report) {
    for (const card of sortedCards(program)) {
      const agent = program.agents.get(card.data.id);
      if (!agent || agent.tools.length <= MAX_TOOLS) continue;
      const own = agent.tools.filter((t) => t.kind === 'tool').length;
      report({
        file: card.file.path,
        range: cardAt(card, [own > 0 ? 'tools' : 'sub_agents'], 'key'),
        data: { card: card.data.id, count: agent.tools.length, max: MAX_TOOLS },
        hint:
          own === agent.tools.length
            ? 'Split the agent into narrower agents, each with the tools its requests need.'
            : `It has ${own} own tool(s) and ${agent.tools.length - own} sub-agent tool(s): split the agent, or group sub-agents under an intermediate orchestrator.`,
      });
    }
  },
};
