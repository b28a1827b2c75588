import type { Rule } from '../rule.js';
import { cardAt, effectiveFanOutCap, plural, sortedCards } from '../support.js';

/**
 * The fan-out cap in effect (dispatch.fan_out_cap, else config.dispatch.fanOutCap)
 * is at least 1 (error) and at most the number of sub-agents (warning).
 */
export const fanOutCap: Rule = {
  id: 'fan-out-cap',
  needsConfig: true,
  run(program, report) {
    for (const card of sortedCards(program)) {
      const { cap, explicit } = effectiveFanOutCap(program, card);
      const subs = card.data.sub_agents.length;
      const at = () => (explicit ? card.locate(['dispatch', 'fan_out_cap']) : cardAt(card, ['sub_agents'], 'key'));
      const source = explicit ? 'dispatch.fan_out_cap' : 'fan-out cap (config.dispatch.fanOutCap)';
      if (explicit && cap < 1) {
        report({
          file: card.file.path,
          range: at(),
          data: { detail: `Card "${card.data.id}" has dispatch.fan_out_cap ${cap}; it must be at least 1, or no sub-agent call could ever run.` },
          hint: subs > 0 ? `Set dispatch.fan_out_cap to a value from 1 to ${subs}.` : 'Set dispatch.fan_out_cap to 1 or more.',
        });
      } else if (subs > 0 && cap > subs) {
        report({
          severity: 'warning',
          file: card.file.path,
          range: at(),
          data: { detail: `Card "${card.data.id}" has a ${source} of ${cap} but only ${plural(subs, 'sub-agent')}, so the cap can never be reached.` },
          hint: `Set dispatch.fan_out_cap: ${subs}.`,
        });
      }
    }
  },
};
