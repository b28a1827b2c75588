/**
 * Compares how an agent's tool calls are executed: sub-agents, fan-out cap,
 * intent_count failsafe, relay/compose streaming, status rendering and envelope checks (levels and their
 * reasons: the table in src/diff/changes.ts). A sub-agent's own policy is
 * compared on that agent (policy-changed), not here, so it is reported once.
 */
import { DEFAULT_STREAM_MODE, DEFAULT_TOOL_PREFIX } from '../bundle/defaults.js';
import { makeChange } from './changes.js';
import { subAgentTools } from './tools.js';
import type { BundleAgent } from '../bundle/types.js';
import type { Change } from './types.js';

export function compareDispatch(id: string, before: BundleAgent, after: BundleAgent): Change[] {
  const changes: Change[] = [];
  const subsBefore = new Set(before.sub_agents);
  const subsAfter = new Set(after.sub_agents);
  for (const sub of after.sub_agents) {
    if (!subsBefore.has(sub)) {
      const tool = toolOf(after, sub);
      changes.push(makeChange('sub-agent-added', id, `sub_agents.${sub}`, { sub, tool }, undefined, tool));
    }
  }
  for (const sub of before.sub_agents) {
    if (!subsAfter.has(sub)) {
      const tool = toolOf(before, sub);
      changes.push(makeChange('sub-agent-removed', id, `sub_agents.${sub}`, { sub, tool }, tool));
    }
  }

  const db = before.dispatch;
  const da = after.dispatch;
  if (db === undefined || da === undefined) return changes;
  if (db.fan_out_cap !== da.fan_out_cap) {
    changes.push(makeChange('fan-out-cap-changed', id, 'dispatch.fan_out_cap', {}, db.fan_out_cap, da.fan_out_cap));
  }
  if (db.intent_count_failsafe !== da.intent_count_failsafe) {
    changes.push(
      makeChange(
        'intent-count-failsafe-changed',
        id,
        'dispatch.intent_count_failsafe',
        { after: da.intent_count_failsafe ? 'on' : 'off' },
        db.intent_count_failsafe,
        da.intent_count_failsafe,
      ),
    );
  }
  // A bundle written before `stream` existed ran in the default mode.
  const streamBefore = db.stream ?? DEFAULT_STREAM_MODE;
  const streamAfter = da.stream ?? DEFAULT_STREAM_MODE;
  if (streamBefore !== streamAfter) {
    changes.push(makeChange('dispatch-stream-changed', id, 'dispatch.stream', { before: streamBefore, after: streamAfter }, streamBefore, streamAfter));
  }

  const events = [...new Set([...Object.keys(db.status_rendering), ...Object.keys(da.status_rendering)])].sort();
  for (const event of events) {
    const b = db.status_rendering[event];
    const a = da.status_rendering[event];
    const path = `dispatch.status_rendering.${event}`;
    const shown = { before: rendering(b), after: rendering(a), event };
    if (b === undefined && a !== undefined) changes.push(makeChange('status-rendering-added', id, path, shown, undefined, a));
    else if (b !== undefined && a === undefined) changes.push(makeChange('status-rendering-removed', id, path, shown, b));
    else if (b !== a) changes.push(makeChange('status-rendering-changed', id, path, shown, b, a));
  }

  for (const [name, entry] of Object.entries(da.table)) {
    const old = db.table[name];
    if (entry.kind === 'tool' && old?.kind === 'tool' && old.envelope !== entry.envelope) {
      changes.push(makeChange('tool-envelope-changed', id, `${name}.envelope`, { tool: name }, old.envelope, entry.envelope));
    }
  }
  return changes;
}

function toolOf(agent: BundleAgent, sub: string): string {
  for (const [name, agentId] of subAgentTools(agent)) if (agentId === sub) return name;
  // Not in the table (a bundle without one): the name the default prefix gives.
  return `${DEFAULT_TOOL_PREFIX}${sub}`;
}

/** `null` renders as suppress. */
function rendering(value: string | null | undefined): string {
  if (value === undefined) return '(none)';
  if (value === null) return 'suppress';
  return JSON.stringify(value);
}
