import { effectiveDispatch } from '../../resolve/dispatch.js';
import type { Rule } from '../rule.js';
import { emittableEvents, sortedCards } from '../support.js';

/** Every status event a sub-agent (or one of its tools) can emit has a status_rendering entry in its orchestrator. */
export const statusEventUnrendered: Rule<'status-event-unrendered'> = {
  id: 'status-event-unrendered',
  reads: ['cardTable', 'toolTable'],
  run(program, report) {
    for (const card of sortedCards(program)) {
      // The agent's dispatch in effect (Agent.dispatch), made here from the card and the config alone.
      const rendering = effectiveDispatch(card.data, program.config.data).statusRendering;
      card.data.sub_agents.forEach((id, i) => {
        const sub = program.cards.get(id);
        if (!sub) return;
        const events = emittableEvents(program, sub);
        for (const name of [...events.keys()].sort()) {
          if (Object.prototype.hasOwnProperty.call(rendering, name)) continue;
          // Written but invalid (dropped by parse): its schema error is the one diagnostic.
          if (card.find(['dispatch', 'status_rendering', name])) continue;
          const origin = events.get(name)!;
          report({
            file: card.file.path,
            range: card.locate(['sub_agents', i]),
            message: 'unrendered',
            data: { agent: id, name, card: card.data.id },
            hint: { id: 'render', data: { name, card: card.data.id } },
            related: [{ file: origin.file.path, range: origin.range, message: 'nameDeclaredHere', data: { name } }],
          });
        }
      });
    }
  },
};
