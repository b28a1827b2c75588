import { didYouMeanHint } from '../../diagnostics/did-you-mean.js';
import type { Rule } from '../rule.js';
import { emittableEvents, sortedCards } from '../support.js';

/**
 * Every dispatch.status_rendering key is an event one of the card's sub-agents
 * (or their tools) declares. Skipped while a sub-agent or one of its tools is
 * unresolved: that is reported already, and the event may belong to it.
 */
export const unknownStatusEvent: Rule<'unknown-status-event'> = {
  id: 'unknown-status-event',
  reads: ['cardTable', 'toolTable'],
  run(program, report) {
    for (const card of sortedCards(program)) {
      const rendering = card.data.dispatch?.status_rendering;
      if (!rendering) continue;
      const subs = card.data.sub_agents.map((id) => program.cards.get(id));
      if (subs.some((s) => s === undefined || s.data.tools.some((t) => !program.tools.has(t)))) continue;
      const events = new Set<string>();
      for (const s of subs) for (const e of emittableEvents(program, s!).keys()) events.add(e);
      const known = [...events].sort();
      for (const name of Object.keys(rendering).sort()) {
        if (events.has(name)) continue;
        report({
          file: card.file.path,
          range: card.locate(['dispatch', 'status_rendering', name], 'key'),
          message: 'unknown',
          data: { card: card.data.id, name },
          hint: didYouMeanHint(name, known) ?? (known.length > 0 ? { id: 'known', data: { events: known.join(', ') } } : { id: 'none' }),
        });
      }
    }
  },
};
