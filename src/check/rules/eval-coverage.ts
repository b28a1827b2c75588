import type { Rule } from '../rule.js';
import { coverageMatrix, missingCoverage } from '../eval-matrix.js';
import { evalOrchestrator } from '../support.js';

/** Off by default: an orchestrator's suites, together, have a single-intent case per sub-agent and a mixed-intent case per pair of sub-agents (the matrix `agentc eval --scaffold` writes). */
export const evalCoverage: Rule<'eval-coverage'> = {
  id: 'eval-coverage',
  run(program, report) {
    const byAgent = new Map<string, typeof program.evals>();
    for (const suite of program.evals) byAgent.set(suite.data.agent, [...(byAgent.get(suite.data.agent) ?? []), suite]);
    for (const [id, suites] of byAgent) {
      const agent = evalOrchestrator(program, id);
      if (agent === undefined) continue;
      const missing = missingCoverage(
        coverageMatrix(agent.subAgents.map((c) => c.data.id)),
        suites.flatMap((s) => s.data.cases.map((c) => c.expect.agents)),
      );
      // Reported once, on the first suite's `agent` (suites are in path order).
      const first = suites[0]!;
      const at = { file: first.file.path, range: first.locate(['agent']) };
      for (const name of missing.singles)
        report({ ...at, message: 'noSingle', data: { agent: id, name }, hint: { id: 'addSingle', data: { agent: id, name } } });
      for (const [a, b] of missing.pairs)
        report({ ...at, message: 'noPair', data: { agent: id, first: a, second: b }, hint: { id: 'addPair', data: { agent: id, first: a, second: b } } });
    }
  },
};
