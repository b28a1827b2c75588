import { formatInt } from '../../diagnostics/format-number.js';
import type { Rule } from '../rule.js';
import { cohortSuffix, sortedCards } from '../support.js';

/**
 * Each cohort's prefix plus the largest handoff fits policy.token_budget.input,
 * and tuning.max_output_tokens fits policy.token_budget.output (each unchecked when absent).
 */
export const tokenBudget: Rule = {
  id: 'token-budget',
  needsConfig: true,
  run(program, report) {
    for (const card of sortedCards(program)) {
      const budget = card.data.policy.token_budget;
      const agent = program.agents.get(card.data.id);
      const input = budget?.input;
      if (agent && input !== undefined) {
        for (const cohort of agent.cohorts) {
          const total = cohort.tokens + agent.handoffTokens;
          if (total <= input) continue;
          const handoff = agent.handoffTokens > 0 ? ` + largest handoff ${formatInt(agent.handoffTokens)}` : '';
          report({
            file: card.file.path,
            range: card.locate(['policy', 'token_budget', 'input']),
            data: {
              detail: `Card "${card.data.id}"${cohortSuffix(cohort.key)} needs ${formatInt(total)} input tokens (prompt ${formatInt(cohort.tokens)}${handoff}), over its policy.token_budget.input of ${formatInt(input)}.`,
            },
            hint: `Raise policy.token_budget.input to at least ${formatInt(total)}, or shorten its prompt blocks.`,
          });
        }
      }
      const output = budget?.output;
      const max = card.data.tuning.max_output_tokens;
      if (output !== undefined && max !== undefined && max > output) {
        report({
          file: card.file.path,
          range: card.locate(['tuning', 'max_output_tokens']),
          data: {
            detail: `Card "${card.data.id}" allows ${formatInt(max)} output tokens (tuning.max_output_tokens), over its policy.token_budget.output of ${formatInt(output)}.`,
          },
          hint: `Lower tuning.max_output_tokens to ${output}, or raise policy.token_budget.output to ${max}.`,
          related: [{ file: card.file.path, range: card.locate(['policy', 'token_budget', 'output']), message: `output budget ${output}` }],
        });
      }
    }
  },
};
