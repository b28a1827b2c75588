/**
 * Typed failures and the words that describe them.
 *
 * Invariant: a failure's `message` is built only from fixed sentences, the kind,
 * and names the bundle declares (agent ids, tool names) or sanitized names the
 * model itself wrote. It never contains an exception's message, a stack, a status
 * code or a payload — those never reach a model or an event.
 */
import type { FailureKind, RuntimeEvent } from './types.js';

/** The JSON a model reads when a tool call or sub-agent fails. */
export interface FailureResult {
  ok: false;
  failure: FailureKind;
  message: string;
}

/** Model-written names are echoed back only after this (at most 64 safe chars). */
export function safeName(name: unknown): string {
  const s = typeof name === 'string' ? name : '';
  const cleaned = s.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 64);
  return cleaned === '' ? '(unnamed)' : cleaned;
}

/** A sub-agent's failure, in words its parent's model can relay. */
export function agentFailureMessage(kind: FailureKind, agent: string): string {
  switch (kind) {
    case 'timeout':
      return `The ${agent} specialist did not answer in time.`;
    case 'error':
      return `The ${agent} specialist ran into a problem and could not answer.`;
    case 'budget_exceeded':
      return `The ${agent} specialist needed more steps than it is allowed and stopped.`;
    case 'depth_exceeded':
      return `The ${agent} specialist cannot be asked from here: the delegation depth limit is reached.`;
    case 'tool_denied':
      return `The ${agent} specialist is not available here.`;
    case 'schema_violation':
      return `The ${agent} specialist's answer did not have the expected shape.`;
    case 'data_unavailable':
      return `The data the ${agent} specialist needs is unavailable right now.`;
  }
}

/** A tool's failure, in words the calling model can relay. */
export function toolFailureMessage(kind: FailureKind, tool: string): string {
  switch (kind) {
    case 'timeout':
      return `The tool "${tool}" did not answer in time.`;
    case 'error':
      return `The tool "${tool}" ran into a problem and returned nothing.`;
    case 'budget_exceeded':
      return `The tool "${tool}" was not run: the tool-call budget for this turn is used up.`;
    case 'depth_exceeded':
      return `The tool "${tool}" was not run: the delegation depth limit is reached.`;
    case 'tool_denied':
      return `The tool "${tool}" is not available to you.`;
    case 'schema_violation':
      return `The arguments for "${tool}" were not valid.`;
    case 'data_unavailable':
      return `The data from "${tool}" is unavailable right now.`;
  }
}

export function failureResult(kind: FailureKind, message: string): FailureResult {
  return { ok: false, failure: kind, message };
}

/**
 * Internal control flow: thrown inside an agent's loop, caught at that agent's
 * boundary and turned into a typed result. `message` follows the invariant above.
 */
export class AgentFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'AgentFailure';
  }
}

/**
 * What `Runtime.turn` rejects with when the root agent itself cannot answer
 * (its model failed even on the fallback, its budget ran out, or the turn was
 * cancelled). Sub-agent failures never reject a turn.
 */
export class TurnError extends Error {
  constructor(
    readonly kind: FailureKind | 'cancelled',
    readonly agent: string,
    message: string,
    readonly trace_id: string,
    readonly events: RuntimeEvent[],
  ) {
    super(message);
    this.name = 'TurnError';
  }
}

/** A mistake in how `turn` was called (unknown agent, missing principal): the caller's bug. */
export class RuntimeUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuntimeUsageError';
  }
}
