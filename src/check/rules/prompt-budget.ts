import type { ReportInput } from '../../diagnostics/diagnostic.js';
import { itemPass, reportFound } from '../item-findings.js';
import type { Rule } from '../rule.js';
import { cardAt, configRelated, percent } from '../support.js';

/**
 * Every cohort's assembled prefix stays within budgets.promptWarnRatio (warning)
 * and budgets.promptErrorRatio (error) of the model's context window.
 */
export const promptBudget: Rule<'prompt-budget'> = {
  id: 'prompt-budget',
  needsConfig: true,
  run(program, report, items) {
    reportFound(items.findings(BY_AGENT), report);
  },
};

/** The agent's reports (reads the agent, its card and the config). */
const BY_AGENT = itemPass<'agent', ReportInput<'prompt-budget'>>('agent', (program, agent, report) => {
  const { promptWarnRatio, promptErrorRatio } = program.config.data.budgets;
  const card = agent.card;
  if (!agent.model || !(agent.model.contextWindow > 0)) return;
  const window = agent.model.contextWindow;
  for (const cohort of agent.cohorts) {
    const ratio = cohort.tokens / window;
    const error = ratio > promptErrorRatio;
    if (!error && ratio <= promptWarnRatio) continue;
    const limit = error ? promptErrorRatio : promptWarnRatio;
    const largest = [...cohort.blocks].sort((a, b) => b.tokens - a.tokens || (a.block.data.id < b.block.data.id ? -1 : 1))[0];
    report({
      severity: error ? 'error' : 'warning',
      file: card.file.path,
      range: cardAt(card, ['prompt_blocks'], 'key'),
      ...(cohort.key === ''
        ? {
            message: 'overBudget' as const,
            data: { card: card.data.id, tokens: cohort.tokens, percent: percent(ratio), model: agent.modelId!, window, limitPercent: percent(limit) },
          }
        : {
            message: 'cohortOverBudget' as const,
            data: {
              card: card.data.id,
              cohort: cohort.key,
              tokens: cohort.tokens,
              percent: percent(ratio),
              model: agent.modelId!,
              window,
              limitPercent: percent(limit),
            },
          }),
      hint: largest ? { id: 'shortenLargest', data: { block: largest.block.data.id, tokens: largest.tokens } } : { id: 'shorten' },
      related: configRelated(program, ['budgets', error ? 'promptErrorRatio' : 'promptWarnRatio'], { message: 'limitSetHere' }),
    });
  }
});
