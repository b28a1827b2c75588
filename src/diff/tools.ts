/**
 * Compares an agent's model-visible tools (`tools.neutral`, matched by name).
 *
 * Invariants: tools that exist because a sub-agent was added or removed are left
 * to the dispatch comparison (reported once, as sub-agent-added/removed); when the
 * intent_count failsafe flips, the `intent_count` parameter of sub-agent tools is
 * left to intent-count-failsafe-changed.
 */
import { makeChange } from './changes.js';
import { compareParameters } from './schema.js';
import { asJson } from './json.js';
import type { BundleAgent } from '../bundle/types.js';
import type { Change } from './types.js';

export function compareTools(id: string, before: BundleAgent, after: BundleAgent): Change[] {
  const changes: Change[] = [];
  const toolsBefore = new Map(before.tools.neutral.map((t) => [t.name, t]));
  const toolsAfter = new Map(after.tools.neutral.map((t) => [t.name, t]));
  const subToolsBefore = subAgentTools(before);
  const subToolsAfter = subAgentTools(after);
  const subsBefore = new Set(before.sub_agents);
  const subsAfter = new Set(after.sub_agents);
  // A tool belongs to a sub-agent change when its sub-agent is on one side only.
  const bySubAgentChange = (name: string): boolean => {
    const sb = subToolsBefore.get(name);
    const sa = subToolsAfter.get(name);
    return (sb !== undefined && !subsAfter.has(sb)) || (sa !== undefined && !subsBefore.has(sa));
  };
  const failsafeFlipped = before.dispatch?.intent_count_failsafe !== after.dispatch?.intent_count_failsafe;

  for (const [name, tool] of toolsBefore) {
    if (!toolsAfter.has(name) && !bySubAgentChange(name)) {
      changes.push(makeChange('tool-removed', id, name, { tool: name }, asJson(tool)));
    }
  }
  for (const [name, tool] of toolsAfter) {
    if (!toolsBefore.has(name) && !bySubAgentChange(name)) {
      changes.push(makeChange('tool-added', id, name, { tool: name }, undefined, asJson(tool)));
    }
  }
  for (const [name, b] of toolsBefore) {
    const a = toolsAfter.get(name);
    if (a === undefined) continue;
    if (b.description !== a.description) {
      changes.push(makeChange('tool-description-changed', id, `${name}.description`, { tool: name }, b.description, a.description));
    }
    const isSubTool = subToolsBefore.has(name) && subToolsAfter.has(name);
    const ignore = isSubTool && failsafeFlipped ? new Set(['intent_count']) : undefined;
    changes.push(...compareParameters({ agent: id, tool: name, ...(ignore ? { ignoreRootProperties: ignore } : {}) }, b.parameters, a.parameters));
  }

  // Relative order of the tools present on both sides.
  const orderBefore = before.tools.neutral.map((t) => t.name).filter((n) => toolsAfter.has(n));
  const orderAfter = after.tools.neutral.map((t) => t.name).filter((n) => toolsBefore.has(n));
  if (orderBefore.join('\n') !== orderAfter.join('\n')) {
    changes.push(makeChange('tools-reordered', id, 'tools', { before: orderBefore.join(', '), after: orderAfter.join(', ') }, orderBefore, orderAfter));
  }
  return changes;
}

/** Tool name → sub-agent id, from the dispatch table. */
export function subAgentTools(agent: BundleAgent): Map<string, string> {
  const map = new Map<string, string>();
  for (const [name, entry] of Object.entries(agent.dispatch?.table ?? {})) {
    if (entry.kind === 'sub_agent') map.set(name, entry.agent);
  }
  return map;
}
