import { didYouMeanHint } from '../../diagnostics/did-you-mean.js';
import type { Rule } from '../rule.js';
import { orchestratorIds } from '../support.js';

/** An eval suite's `agent` is a card of the workspace that has sub-agents (an orchestrator). */
export const evalAgent: Rule<'eval-agent'> = {
  id: 'eval-agent',
  run(program, report) {
    if (program.evals.length === 0) return;
    const orchestrators = orchestratorIds(program);
    const names = { names: orchestrators.join(', ') };
    for (const suite of program.evals) {
      const name = suite.data.agent;
      const at = { file: suite.file.path, range: suite.locate(['agent']) };
      // A card that did not parse (or lost a duplicate id) has its own error; its sub-agents are unknown.
      if (program.unparsed.cards.has(name) || program.duplicates.some((d) => d.kind === 'card' && d.id === name)) continue;
      const agent = program.agents.get(name);
      if (agent === undefined) {
        const hint =
          didYouMeanHint(name, orchestrators) ??
          didYouMeanHint(name, program.cards.keys()) ??
          (orchestrators.length > 0 ? { id: 'orchestrators' as const, data: names } : { id: 'noOrchestrator' as const });
        report({ ...at, message: 'unknown', data: { file: suite.file.path, name }, hint });
      } else if (agent.subAgents.length === 0 && agent.card.data.sub_agents.length === 0) {
        report({
          ...at,
          message: 'notOrchestrator',
          data: { file: suite.file.path, name },
          hint: orchestrators.length > 0 ? { id: 'orchestrators', data: names } : { id: 'noOrchestrator' },
        });
      }
    }
  },
};
