import type { Rule } from '../rule.js';
import { sortedCards } from '../support.js';

export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Every tool name an agent exposes matches ^[a-zA-Z0-9_-]{1,64}$ and is unique
 * within the agent. Contract names are validated by the tool-contract schema;
 * this rule checks the derived `<toolPrefix><id>` names and collisions (e.g. an
 * own tool named like an ask_* tool).
 */
export const toolName: Rule = {
  id: 'tool-name',
  needsConfig: true,
  run(program, report) {
    const prefix = program.config.data.dispatch.toolPrefix;
    for (const card of sortedCards(program)) {
      const agent = program.agents.get(card.data.id);
      if (!agent) continue;
      for (const t of agent.tools) {
        if (t.kind !== 'sub_agent' || TOOL_NAME.test(t.name)) continue;
        const why = t.name.length > 64 ? `is ${t.name.length} characters long` : 'contains characters other than letters, digits, _ and -';
        report({
          file: card.file.path,
          range: t.declaredAt,
          data: {
            detail: `Card "${card.data.id}" exposes sub-agent "${t.agent?.data.id}" as tool "${t.name}", which ${why}; providers require tool names to match ^[a-zA-Z0-9_-]{1,64}$.`,
          },
          hint: `Shorten the sub-agent's id or config.dispatch.toolPrefix ("${prefix}").`,
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
          data: {
            detail: `Card "${card.data.id}" has two tools named "${t.name}": its own tool "${own.name}" and the tool for sub-agent "${sub.agent?.data.id}" (${prefix} + id).`,
          },
          hint: `Rename the tool contract "${own.name}" so that it does not look like a sub-agent tool, or rename the sub-agent.`,
          related: [{ file: card.file.path, range: sub.declaredAt, message: `sub-agent "${sub.agent?.data.id}" becomes tool "${sub.name}"` }],
        });
      }
    }
  },
};
