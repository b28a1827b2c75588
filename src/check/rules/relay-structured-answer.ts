import type { ReportInput } from '../../diagnostics/diagnostic.js';
import { itemPass, reportFound } from '../item-findings.js';
import type { Rule } from '../rule.js';

/** An orchestrator in relay mode (dispatch.stream: relay) has no sub-agent with an `output` schema: its answer would reach the user as JSON. */
export const relayStructuredAnswer: Rule<'relay-structured-answer'> = {
  id: 'relay-structured-answer',
  run(program, report, items) {
    reportFound(items.findings(BY_AGENT), report);
  },
};

/** The agent's reports (reads the agent, its card and its sub-agents' cards). */
const BY_AGENT = itemPass<'agent', ReportInput<'relay-structured-answer'>>('agent', (program, agent, report) => {
  const card = agent.card;
  if (agent.dispatch.stream !== 'relay') return;
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
});
