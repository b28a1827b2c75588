import type { ReportInput } from '../../diagnostics/diagnostic.js';
import { itemPass, reportFound } from '../item-findings.js';
import type { Rule } from '../rule.js';
import { configRelated, effectiveFanOutCap, plural } from '../support.js';

/**
 * An agent's model and fallback_model support what the agent needs: tool calls
 * when it has tools (`tools: false` fails), parallel tool calls when its fan-out
 * cap is above 1 (`parallelToolCalls: false` fails).
 */
export const modelCapability: Rule<'model-capability'> = {
  id: 'model-capability',
  needsConfig: true,
  run(program, report, items) {
    reportFound(items.findings(BY_AGENT), report);
  },
};

/** The agent's reports (reads the agent, its card and the config). */
const BY_AGENT = itemPass<'agent', ReportInput<'model-capability'>>('agent', (program, agent, report) => {
  const models = program.config.data.models;
  const card = agent.card;
  const toolCount = agent.tools.length;
  const { cap, explicit } = effectiveFanOutCap(program, card);
  const fansOut = card.data.sub_agents.length > 0 && cap > 1;
  for (const field of ['model', 'fallback_model'] as const) {
    const id = card.data[field];
    if (id === undefined || !Object.prototype.hasOwnProperty.call(models, id)) continue;
    const model = models[id]!;
    const declared = () => configRelated(program, ['models', id], { message: 'nameDeclaredHere', data: { name: id } }, 'key');
    if (toolCount > 0 && model.tools === false) {
      report({
        file: card.file.path,
        range: card.locate([field]),
        message: 'noTools',
        data: { card: card.data.id, tools: plural(toolCount, 'tool'), field, model: id },
        hint: { id: 'toolModel' },
        related: declared(),
      });
    } else if (fansOut && model.parallelToolCalls === false) {
      report({
        file: card.file.path,
        range: card.locate([field]),
        message: 'noParallel',
        data: { card: card.data.id, cap, field, model: id },
        hint: { id: 'parallel' },
        related: [
          ...(explicit ? [{ file: card.file.path, range: card.locate(['dispatch', 'fan_out_cap']), message: 'fanOutCap' as const, data: { cap } }] : []),
          ...declared(),
        ],
      });
    }
  }
});
