import type { ReportInput } from '../../diagnostics/diagnostic.js';
import { itemPass, reportFound } from '../item-findings.js';
import type { Rule } from '../rule.js';

/**
 * Each cohort's prefix plus the largest handoff fits policy.token_budget.input,
 * and tuning.max_output_tokens fits policy.token_budget.output (each unchecked when absent).
 */
export const tokenBudget: Rule<'token-budget'> = {
  id: 'token-budget',
  needsConfig: true,
  run(program, report, items) {
    reportFound(items.findings(BY_AGENT), report);
  },
};

/** The agent's reports (reads the agent and its card only). */
const BY_AGENT = itemPass<'agent', ReportInput<'token-budget'>>('agent', (_program, agent, report) => {
  const card = agent.card;
  const budget = card.data.policy.token_budget;
  const input = budget?.input;
  if (input !== undefined) {
    for (const cohort of agent.cohorts) {
      const total = cohort.tokens + agent.handoffTokens;
      if (total <= input) continue;
      const base = { card: card.data.id, total, prompt: cohort.tokens, budget: input };
      const handoff = agent.handoffTokens;
      report({
        file: card.file.path,
        range: card.locate(['policy', 'token_budget', 'input']),
        ...(cohort.key === ''
          ? handoff > 0
            ? { message: 'inputHandoff' as const, data: { ...base, handoff } }
            : { message: 'input' as const, data: base }
          : handoff > 0
            ? { message: 'cohortInputHandoff' as const, data: { ...base, cohort: cohort.key, handoff } }
            : { message: 'cohortInput' as const, data: { ...base, cohort: cohort.key } }),
        hint: { id: 'raiseInput', data: { total } },
      });
    }
  }
  const output = budget?.output;
  const max = card.data.tuning.max_output_tokens;
  if (output !== undefined && max !== undefined && max > output) {
    report({
      file: card.file.path,
      range: card.locate(['tuning', 'max_output_tokens']),
      message: 'output',
      data: { card: card.data.id, max, budget: output },
      hint: { id: 'lowerOutput', data: { budget: output, max } },
      related: [{ file: card.file.path, range: card.locate(['policy', 'token_budget', 'output']), message: 'outputBudget', data: { budget: output } }],
    });
  }
});
