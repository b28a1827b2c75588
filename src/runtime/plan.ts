/**
 * Turns one model reply's tool calls into a plan: what runs, what fails typed,
 * what the fan-out cap drops (docs/runtime.md step 3).
 *
 * Invariants: one plan entry per call, in call order; an unknown tool name →
 * tool_denied; arguments that do not parse or break the tool's neutral schema →
 * schema_violation; a plain tool outside `policy.tool_whitelist` → tool_denied;
 * a sub-agent call that would nest deeper than any ancestor's
 * `max_recursion_depth` (or revisit an ancestor) → depth_exceeded; valid
 * sub-agent calls beyond `fan_out_cap` (counted over the whole invocation) are
 * dropped, never executed; the frame's counters only count what runs.
 */
import { DEFAULT_FAN_OUT_CAP } from '../bundle/defaults.js';
import type { BundleAgent } from '../bundle/types.js';
import { parseArgs } from './calls.js';
import { dropNullOptionals } from './nulls.js';
import { AgentFailure, agentFailureMessage, safeName, toolFailureMessage } from './failure.js';
import type { Frame, TurnState } from './state.js';
import type { FailureKind, ToolCall } from './types.js';

export type PlannedCall =
  | { kind: 'tool'; call: ToolCall; tool: string; envelope: boolean; args: Record<string, unknown> }
  | { kind: 'sub_agent'; call: ToolCall; target: BundleAgent; args: Record<string, unknown> }
  | { kind: 'dropped'; call: ToolCall; limit: number }
  | { kind: 'fail'; call: ToolCall; failure: FailureKind; message: string; agent?: string; tool?: string };

/**
 * The bundle carries every agent's effective cap (`dispatch.fan_out_cap`); the
 * fallbacks only serve bundles written without it: the bundle's config default,
 * else the config's own default (DEFAULT_FAN_OUT_CAP, src/bundle/defaults.ts).
 */
export function fanOutCap(turn: TurnState, agent: BundleAgent): number {
  return agent.dispatch?.fan_out_cap ?? turn.bundle.dispatchDefaults?.fanOutCap ?? DEFAULT_FAN_OUT_CAP;
}

export function planCalls(turn: TurnState, frame: Frame, calls: readonly ToolCall[]): PlannedCall[] {
  const agent = frame.agent;
  const cap = fanOutCap(turn, agent);
  const maxCalls = agent.policy?.max_tool_calls;
  const plan: PlannedCall[] = [];
  for (const call of calls) {
    let step = validate(turn, frame, call);
    if (step.kind === 'sub_agent' && frame.subAgentsRun >= cap) step = { kind: 'dropped', call, limit: cap };
    if (step.kind === 'tool' || step.kind === 'sub_agent') {
      if (maxCalls !== undefined && frame.toolCallsUsed + 1 > maxCalls) {
        // A sub-agent over its budget fails as a whole; the root tells its model and composes.
        if (!frame.isRoot) throw new AgentFailure('budget_exceeded', agentFailureMessage('budget_exceeded', agent.id));
        step = { kind: 'fail', call, failure: 'budget_exceeded', message: toolFailureMessage('budget_exceeded', call.name), ...ownerOf(step) };
      } else {
        frame.toolCallsUsed++;
        if (step.kind === 'sub_agent') frame.subAgentsRun++;
      }
    }
    plan.push(step);
  }
  return plan;
}

function validate(turn: TurnState, frame: Frame, call: ToolCall): PlannedCall {
  const agent = frame.agent;
  const entry = Object.prototype.hasOwnProperty.call(agent.dispatch?.table ?? {}, call.name) ? agent.dispatch.table[call.name] : undefined;
  const neutral = (agent.tools?.neutral ?? []).find((t) => t.name === call.name);
  if (entry === undefined || neutral === undefined) {
    return { kind: 'fail', call, failure: 'tool_denied', message: toolFailureMessage('tool_denied', safeName(call.name)) };
  }
  const owner = entry.kind === 'tool' ? { tool: entry.tool } : { agent: entry.agent };
  const parsed = parseArgs(call.arguments);
  if (!parsed.ok) {
    return { kind: 'fail', call, failure: 'schema_violation', message: `The arguments for "${call.name}" were not a JSON object.`, ...owner };
  }
  const args = dropNullOptionals(neutral.parameters, parsed.args) as Record<string, unknown>;
  const check = turn.validator.check(neutral.parameters, args);
  if (!check.ok) {
    return {
      kind: 'fail',
      call,
      failure: 'schema_violation',
      message: `The arguments for "${call.name}" were not valid: ${check.problems.join('; ')}.`,
      ...owner,
    };
  }
  if (entry.kind === 'tool') {
    const whitelist = agent.policy?.tool_whitelist;
    if (whitelist !== undefined && !whitelist.includes(entry.tool)) {
      return { kind: 'fail', call, failure: 'tool_denied', message: toolFailureMessage('tool_denied', call.name), ...owner };
    }
    return { kind: 'tool', call, tool: entry.tool, envelope: entry.envelope, args };
  }
  const target = Object.prototype.hasOwnProperty.call(turn.bundle.agents, entry.agent) ? turn.bundle.agents[entry.agent] : undefined;
  if (target === undefined) {
    return { kind: 'fail', call, failure: 'error', message: agentFailureMessage('error', entry.agent), ...owner };
  }
  if (!depthAllowed(turn, frame, target)) {
    return { kind: 'fail', call, failure: 'depth_exceeded', message: agentFailureMessage('depth_exceeded', target.id), ...owner };
  }
  return { kind: 'sub_agent', call, target, args };
}

/** Every ancestor's `max_recursion_depth` bounds how many levels may sit below it. */
function depthAllowed(turn: TurnState, frame: Frame, target: BundleAgent): boolean {
  const depth = frame.depth + 1;
  if (depth > turn.limits.maxDepth) return false;
  if (frame.ancestors.some((a) => a.id === target.id)) return false;
  return frame.ancestors.every((a, i) => {
    const limit = a.policy?.max_recursion_depth;
    return limit === undefined || depth - i <= limit;
  });
}

function ownerOf(step: PlannedCall): { agent?: string; tool?: string } {
  if (step.kind === 'tool') return { tool: step.tool };
  if (step.kind === 'sub_agent') return { agent: step.target.id };
  return {};
}
