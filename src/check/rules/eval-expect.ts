import { didYouMeanHint } from '../../diagnostics/did-you-mean.js';
import type { Rule } from '../rule.js';
import { caseLabel, evalOrchestrator } from '../support.js';

/** Every name a case's expectations use is a sub-agent (expect.agents, expect.handoff) or an own tool (expect.tools) of the suite's orchestrator. */
export const evalExpect: Rule<'eval-expect'> = {
  id: 'eval-expect',
  run(program, report) {
    for (const suite of program.evals) {
      const agent = evalOrchestrator(program, suite.data.agent);
      if (agent === undefined) continue; // eval-agent's (or unknown-sub-agent's) finding
      const id = suite.data.agent;
      const subs = agent.subAgents.map((c) => c.data.id).sort();
      const tools = agent.tools
        .filter((t) => t.kind === 'tool')
        .map((t) => t.name)
        .sort();
      const file = suite.file.path;
      suite.data.cases.forEach((c, i) => {
        const label = caseLabel(i, c.name);
        c.expect.agents.forEach((name, j) => {
          if (subs.includes(name)) return;
          const hint = didYouMeanHint(name, subs) ?? { id: 'subAgents' as const, data: { agent: id, names: subs.join(', ') } };
          report({
            file,
            range: suite.locate(['cases', i, 'expect', 'agents', j]),
            message: 'notSubAgent',
            data: { case: label, file, name, agent: id },
            hint,
          });
        });
        (c.expect.tools ?? []).forEach((name, j) => {
          if (tools.includes(name)) return;
          const hint =
            didYouMeanHint(name, tools) ??
            (tools.length > 0 ? { id: 'tools' as const, data: { agent: id, names: tools.join(', ') } } : { id: 'noTools' as const, data: { agent: id } });
          report({ file, range: suite.locate(['cases', i, 'expect', 'tools', j]), message: 'notTool', data: { case: label, file, name, agent: id }, hint });
        });
        for (const name of Object.keys(c.expect.handoff ?? {}).sort()) {
          if (c.expect.agents.includes(name)) {
            // A field the sub-agent does not declare is stripped from its handoff: a check on it can never pass.
            const sub = agent.subAgents.find((s) => s.data.id === name);
            const fields = Object.keys(sub?.data.input ?? {}).sort();
            const check = c.expect.handoff![name]!;
            const used: [string, string][] = [
              ...(check.query_contains !== undefined ? [['query', 'query_contains'] as [string, string]] : []),
              ...(check.prior_context !== undefined ? [['prior_context', 'prior_context'] as [string, string]] : []),
            ];
            for (const [field, key] of used) {
              if (sub === undefined || fields.includes(field)) continue;
              report({
                file,
                range: suite.locate(['cases', i, 'expect', 'handoff', name, key], 'key'),
                message: 'fieldNotDeclared',
                data: { case: label, file, field, name },
                hint: { id: 'declared', data: { name, fields: fields.join(', ') || 'none', field } },
              });
            }
            continue;
          }
          const range = suite.locate(['cases', i, 'expect', 'handoff', name], 'key');
          if (!subs.includes(name)) {
            const hint = didYouMeanHint(name, subs) ?? { id: 'subAgents' as const, data: { agent: id, names: subs.join(', ') } };
            report({ file, range, message: 'notSubAgent', data: { case: label, file, name, agent: id }, hint });
          } else report({ file, range, message: 'handoffNotExpected', data: { case: label, file, name }, hint: { id: 'addExpected', data: { name } } });
        }
      });
    }
  },
};
