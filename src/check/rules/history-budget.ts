import type { Rule } from '../rule.js';
import { cohortSuffix, sortedCards } from '../support.js';

/** history.max_tokens plus every cohort's prompt and the largest handoff fit policy.token_budget.input. */
export const historyBudget: Rule = {
  id: 'history-budget',
  needsConfig: true,
  run(program, report) {
    for (const card of sortedCards(program)) {
      const history = card.data.history?.max_tokens;
      const input = card.data.policy.token_budget?.input;
      const agent = program.agents.get(card.data.id);
      if (history === undefined || input === undefined || agent === undefined || agent.cohorts.length === 0) continue;
      // The largest cohort bounds every request; one report per card.
      const worst = agent.cohorts.reduce((a, b) => (b.tokens > a.tokens ? b : a));
      const used = worst.tokens + agent.handoffTokens;
      if (used + history <= input) continue;
      const room = Math.max(0, input - used);
      report({
        file: card.file.path,
        range: card.locate(['history', 'max_tokens']),
        data: {
          card: card.data.id,
          history: String(history),
          cohort: cohortSuffix(worst.key),
          prompt: `${worst.tokens} tokens`,
          handoff: agent.handoffTokens > 0 ? ` + largest handoff ${agent.handoffTokens}` : '',
          room: String(room),
          input: String(input),
        },
        hint: room > 0 ? `Lower history.max_tokens to ${room} or less, or raise policy.token_budget.input to at least ${used + history}.` : `Raise policy.token_budget.input to at least ${used + history}.`,
        related: [{ file: card.file.path, range: card.locate(['policy', 'token_budget', 'input']), message: `input budget ${input}` }],
      });
    }
  },
};
