import type { ReportInput } from '../../diagnostics/diagnostic.js';
import { itemPass, reportFound } from '../item-findings.js';
import type { Rule } from '../rule.js';
import { configRelated, plural } from '../support.js';

export const MIN_DESCRIPTION_TOKENS = 8;

/**
 * A sub-agent's description (what its orchestrator routes on) is at least 8
 * tokens and at most budgets.descriptionMaxTokens. Cards nobody lists as a
 * sub-agent are not checked.
 */
export const descriptionBudget: Rule<'description-budget'> = {
  id: 'description-budget',
  needsConfig: true,
  run(program, report, items) {
    reportFound(items.findings(BY_AGENT), report);
  },
};

/** The agent's reports (reads the agent, its card, its parents' ids and the config). */
const BY_AGENT = itemPass<'agent', ReportInput<'description-budget'>>('agent', (program, agent, report) => {
  const max = program.config.data.budgets.descriptionMaxTokens;
  const card = agent.card;
  const parents = program.parents.get(card.data.id) ?? [];
  if (parents.length === 0) return;
  const tokens = agent.descriptionTokens;
  const routedBy = parents.map((p) => `"${p}"`).join(', ');
  if (tokens > max) {
    report({
      file: card.file.path,
      range: card.locate(['description']),
      ...(parents.length === 1
        ? { message: 'tooLong' as const, data: { card: card.data.id, tokens, max, parent: routedBy } }
        : { message: 'tooLongShared' as const, data: { card: card.data.id, tokens, max, parents: routedBy } }),
      hint: { id: 'trim' },
      related: configRelated(program, ['budgets', 'descriptionMaxTokens'], { message: 'limitSetHere' }),
    });
  } else if (tokens < MIN_DESCRIPTION_TOKENS) {
    report({
      file: card.file.path,
      range: card.locate(['description']),
      ...(parents.length === 1
        ? { message: 'tooShort' as const, data: { card: card.data.id, size: plural(tokens, 'token'), parent: routedBy, min: MIN_DESCRIPTION_TOKENS } }
        : {
            message: 'tooShortShared' as const,
            data: { card: card.data.id, size: plural(tokens, 'token'), parents: routedBy, min: MIN_DESCRIPTION_TOKENS },
          }),
      hint: { id: 'expand' },
    });
  }
});
