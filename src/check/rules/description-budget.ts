import { formatInt } from '../../diagnostics/format-number.js';
import type { Rule } from '../rule.js';
import { configRelated, sortedCards } from '../support.js';

export const MIN_DESCRIPTION_TOKENS = 8;

/**
 * A sub-agent's description (what its orchestrator routes on) is at least 8
 * tokens and at most budgets.descriptionMaxTokens. Cards nobody lists as a
 * sub-agent are not checked.
 */
export const descriptionBudget: Rule = {
  id: 'description-budget',
  needsConfig: true,
  run(program, report) {
    const max = program.config.data.budgets.descriptionMaxTokens;
    for (const card of sortedCards(program)) {
      const parents = program.parents.get(card.data.id) ?? [];
      const agent = program.agents.get(card.data.id);
      if (parents.length === 0 || !agent) continue;
      const tokens = agent.descriptionTokens;
      const routedBy = parents.map((p) => `"${p}"`).join(', ');
      if (tokens > max) {
        report({
          file: card.file.path,
          range: card.locate(['description']),
          data: {
            detail: `Card "${card.data.id}"'s description is ${formatInt(tokens)} tokens, over budgets.descriptionMaxTokens (${formatInt(max)}); ${routedBy} read${parents.length === 1 ? 's' : ''} every sub-agent description on every turn.`,
          },
          hint: 'Keep what the sub-agent owns and what it does not; move instructions into its own prompt blocks.',
          related: configRelated(program, ['budgets', 'descriptionMaxTokens'], 'limit set here'),
        });
      } else if (tokens < MIN_DESCRIPTION_TOKENS) {
        report({
          file: card.file.path,
          range: card.locate(['description']),
          data: {
            detail: `Card "${card.data.id}"'s description is only ${tokens} token${tokens === 1 ? '' : 's'}; ${routedBy} route${parents.length === 1 ? 's' : ''} on it, and under ${MIN_DESCRIPTION_TOKENS} tokens is too vague to route on.`,
          },
          hint: 'Say what it owns: the requests it answers, the data it holds, and what it does not do.',
        });
      }
    }
  },
};
