import type { ReportInput } from '../../diagnostics/diagnostic.js';
import { itemPass, reportFound } from '../item-findings.js';
import type { Rule } from '../rule.js';
import { cardAt, effectiveFanOutCap, plural } from '../support.js';

/**
 * The fan-out cap in effect (dispatch.fan_out_cap, else config.dispatch.fanOutCap)
 * is at least 1 (error) and at most the number of sub-agents (warning).
 */
export const fanOutCap: Rule<'fan-out-cap'> = {
  id: 'fan-out-cap',
  needsConfig: true,
  run(program, report, items) {
    reportFound(items.findings(BY_AGENT), report);
  },
};

/** The agent's report (reads its card and dispatch). */
const BY_AGENT = itemPass<'agent', ReportInput<'fan-out-cap'>>('agent', (program, agent, report) => {
  const card = agent.card;
  const { cap, explicit } = effectiveFanOutCap(program, card);
  const subs = card.data.sub_agents.length;
  const at = () => (explicit ? card.locate(['dispatch', 'fan_out_cap']) : cardAt(card, ['sub_agents'], 'key'));
  if (explicit && cap < 1) {
    report({
      file: card.file.path,
      range: at(),
      message: 'belowOne',
      data: { card: card.data.id, cap },
      hint: subs > 0 ? { id: 'range', data: { max: subs } } : { id: 'atLeastOne' },
    });
  } else if (subs > 0 && cap > subs) {
    report({
      severity: 'warning',
      file: card.file.path,
      range: at(),
      message: explicit ? 'unreachableOwn' : 'unreachableDefault',
      data: { card: card.data.id, cap, subs: plural(subs, 'sub-agent') },
      hint: { id: 'lower', data: { max: subs } },
    });
  }
});
