import type { Agent } from '../../resolve/types.js';
import type { ReportInput } from '../../diagnostics/diagnostic.js';
import { itemPass, reportFound } from '../item-findings.js';
import type { Report, Rule } from '../rule.js';

export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Every tool name an agent exposes matches ^[a-zA-Z0-9_-]{1,64}$ and is unique
 * within the agent. Contract names are validated by the tool-contract schema;
 * this rule checks the derived `<toolPrefix><id>` names and collisions (e.g. an
 * own tool named like an ask_* tool).
 */
export const toolName: Rule<'tool-name'> = {
  id: 'tool-name',
  needsConfig: true,
  run(program, report, items) {
    reportFound(items.findings(BY_AGENT), report);
  },
};

const BY_AGENT = itemPass<'agent', ReportInput<'tool-name'>>('agent', (_program, agent, report) => checkAgent(agent, report));

/** The agent's derived tool names (reads the card and the agent only). */
function checkAgent(agent: Agent, report: Report<'tool-name'>): void {
  const card = agent.card;
  const prefix = agent.dispatch.toolPrefix;
  for (const t of agent.tools) {
    if (t.kind !== 'sub_agent' || TOOL_NAME.test(t.name)) continue;
    const names = { card: card.data.id, agent: t.agent?.data.id ?? t.name, name: t.name };
    report({
      file: card.file.path,
      range: t.declaredAt,
      ...(t.name.length > 64 ? { message: 'tooLong' as const, data: { ...names, length: t.name.length } } : { message: 'badChars' as const, data: names }),
      hint: { id: 'shorten', data: { prefix } },
    });
  }
  const seen = new Map<string, (typeof agent.tools)[number]>();
  for (const t of agent.tools) {
    const first = seen.get(t.name);
    if (!first) {
      seen.set(t.name, t);
      continue;
    }
    // Same kind twice is a duplicate list entry, which the card schema reports.
    if (first.kind === t.kind) continue;
    const own = first.kind === 'tool' ? first : t;
    const sub = first.kind === 'tool' ? t : first;
    // Reported at the own tool: its name is the one that took the derived name's shape.
    report({
      file: card.file.path,
      range: own.declaredAt,
      message: 'collision',
      data: { card: card.data.id, name: t.name, tool: own.name, agent: sub.agent?.data.id ?? sub.name, prefix },
      hint: { id: 'rename', data: { tool: own.name } },
      related: [{ file: card.file.path, range: sub.declaredAt, message: 'becomesTool', data: { agent: sub.agent?.data.id ?? sub.name, tool: sub.name } }],
    });
  }
}
