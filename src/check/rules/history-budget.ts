import type { ReportInput } from '../../diagnostics/diagnostic.js';
import { itemPass, reportFound } from '../item-findings.js';
import type { Rule } from '../rule.js';

/** history.max_tokens plus every cohort's prompt and the largest handoff fit policy.token_budget.input. */
export const historyBudget: Rule<'history-budget'> = {
  id: 'history-budget',
  needsConfig: true,
  run(program, report, items) {
    reportFound(items.findings(BY_AGENT), report);
  },
};

/** The agent's report (reads the agent and its card). */
const BY_AGENT = itemPass<'agent', ReportInput<'history-budget'>>('agent', (_program, agent, report) => {
  const card = agent.card;
  const history = card.data.history?.max_tokens;
  const input = card.data.policy.token_budget?.input;
  if (history === undefined || input === undefined || agent.cohorts.length === 0) return;
  // The largest cohort bounds every request; one report per card.
  const worst = agent.cohorts.reduce((a, b) => (b.tokens > a.tokens ? b : a));
  const handoff = agent.handoffTokens;
  const used = worst.tokens + handoff;
  if (used + history <= input) return;
  const room = Math.max(0, input - used);
  const total = used + history;
  const base = { card: card.data.id, history, prompt: worst.tokens, room, input };
  report({
    file: card.file.path,
    range: card.locate(['history', 'max_tokens']),
    ...(worst.key === ''
      ? handoff > 0
        ? { message: 'overBudgetHandoff' as const, data: { ...base, handoff } }
        : { message: 'overBudget' as const, data: base }
      : handoff > 0
        ? { message: 'cohortOverBudgetHandoff' as const, data: { ...base, cohort: worst.key, handoff } }
        : { message: 'cohortOverBudget' as const, data: { ...base, cohort: worst.key } }),
    hint: room > 0 ? { id: 'lower', data: { room, total } } : { id: 'raise', data: { total } },
    related: [{ file: card.file.path, range: card.locate(['policy', 'token_budget', 'input']), message: 'inputBudget', data: { budget: input } }],
  });
});
