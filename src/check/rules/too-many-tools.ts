import type { ReportInput } from '../../diagnostics/diagnostic.js';
import { itemPass, reportFound } from '../item-findings.js';
import type { Rule } from '../rule.js';
import { cardAt } from '../support.js';

export const MAX_TOOLS = 128;

/** An agent exposes at most 128 tools (own tools plus one per sub-agent). */
export const tooManyTools: Rule<'too-many-tools'> = {
  id: 'too-many-tools',
  run(program, report, items) {
    reportFound(items.findings(BY_AGENT), report);
  },
};

/** The agent's report (reads the agent and its card). */
const BY_AGENT = itemPass<'agent', ReportInput<'too-many-tools'>>('agent', (_program, agent, report) => {
  const card = agent.card;
  if (agent.tools.length <= MAX_TOOLS) return;
  const own = agent.tools.filter((t) => t.kind === 'tool').length;
  report({
    file: card.file.path,
    range: cardAt(card, [own > 0 ? 'tools' : 'sub_agents'], 'key'),
    message: 'tooMany',
    data: { card: card.data.id, count: agent.tools.length, max: MAX_TOOLS },
    hint: own === agent.tools.length ? { id: 'split' } : { id: 'group', data: { own, subs: agent.tools.length - own } },
  });
});
