/**
 * Executes one validated call of a plain tool (dispatch kind `tool`).
 *
 * Invariants: a handler's exception becomes a typed `error` (or `timeout` when
 * the frame's budget ran out) and its text is discarded; an envelope's payload
 * is forwarded only for status ok/partial with the turn's exact principal; a
 * principal mismatch increments the security counter once per call, emits one
 * `security` event without payload, and is never retried; the first status
 * event a tool declares is reported when it starts (the "working on it"
 * status); its handler may report any declared one through `ctx.emitStatus`
 * while it works (other ids are dropped);
 * every call of a handler is bracketed by `tool_start`/`tool_end`; the raw
 * exception goes to `onError` only.
 */
import { checkEnvelope } from './envelope.js';
import { failureResult, toolFailureMessage } from './failure.js';
import { untilAborted } from './deadline.js';
import { sessionHandle } from './turn-memory.js';
import type { Frame, TurnState } from './state.js';
import type { FailureKind, Outcome, ToolCall, ToolContext } from './types.js';

export interface CallResult {
  /** The tool message content the calling model reads (JSON). */
  content: string;
  outcome: Outcome;
  /** For a failure: the plain-words sentence in `content`. */
  message?: string;
}

export const PARTIAL_CAVEAT = 'Some of this data could not be loaded; say that the answer may be incomplete.';

export function failed(kind: FailureKind, message: string): CallResult {
  return { content: JSON.stringify(failureResult(kind, message)), outcome: kind, message };
}

export async function runTool(
  turn: TurnState,
  frame: Frame,
  call: ToolCall,
  tool: string,
  envelope: boolean,
  args: Record<string, unknown>,
): Promise<CallResult> {
  const base = { agent: frame.agent.id, tool, tool_call_id: call.id, span_id: frame.spanId };
  turn.sink.emit({ type: 'tool_start', ...base });
  const result = await runHandler(turn, frame, tool, envelope, args);
  turn.sink.emit({ type: 'tool_end', ...base, outcome: result.outcome });
  return result;
}

async function runHandler(turn: TurnState, frame: Frame, tool: string, envelope: boolean, args: Record<string, unknown>): Promise<CallResult> {
  const handler = Object.prototype.hasOwnProperty.call(turn.tools, tool) ? turn.tools[tool] : undefined;
  if (typeof handler !== 'function') return failed('error', toolFailureMessage('error', tool));
  const declared = (Object.hasOwn(turn.bundle.tools, tool) ? turn.bundle.tools[tool]!.status_events : undefined) ?? [];
  if (declared.length > 0) turn.sink.status(frame.agent, declared[0]!, frame.spanId);
  const ctx: ToolContext = {
    principal: turn.context.principal,
    episode: turn.context.episode,
    agent: frame.agent.id,
    signal: frame.signal,
    trace_id: turn.traceId,
    span_id: frame.spanId,
    session: sessionHandle(turn),
    emitStatus: (id: string) => {
      if (typeof id === 'string' && declared.includes(id)) turn.sink.status(frame.agent, id, frame.spanId);
    },
  };
  if (turn.context.locale !== undefined) ctx.locale = turn.context.locale;
  if (turn.context.location !== undefined) ctx.location = turn.context.location;

  let value: unknown;
  try {
    value = await untilAborted(
      Promise.resolve().then(() => handler(args, ctx)),
      frame.signal,
    );
  } catch (e) {
    const kind = frame.signal.aborted ? 'timeout' : 'error';
    if (kind === 'error') turn.reportError(e, { agent: frame.agent.id, span_id: frame.spanId, kind: 'tool', tool });
    return failed(kind, toolFailureMessage(kind, tool));
  }
  if (!envelope) return serialize({ ok: true, result: value }, tool);

  const verdict = checkEnvelope(value, turn.context.principal);
  switch (verdict.kind) {
    case 'ok':
      return serialize({ ok: true, payload: verdict.payload }, tool);
    case 'partial':
      frame.partial = true;
      return serialize({ ok: true, partial: true, caveat: PARTIAL_CAVEAT, payload: verdict.payload }, tool);
    case 'principal_mismatch':
      turn.security.principalMismatches++;
      turn.sink.emit({ type: 'security', kind: 'principal_mismatch', agent: frame.agent.id, tool, trace_id: turn.traceId, span_id: frame.spanId });
      frame.degraded = true;
      return failed('data_unavailable', toolFailureMessage('data_unavailable', tool));
    case 'error':
    case 'malformed':
      frame.degraded = true;
      return failed('data_unavailable', toolFailureMessage('data_unavailable', tool));
  }
}

function serialize(value: unknown, tool: string): CallResult {
  try {
    const content = JSON.stringify(value);
    if (typeof content === 'string') return { content, outcome: 'ok' };
  } catch {
    // circular or BigInt: not a usable result
  }
  return failed('error', toolFailureMessage('error', tool));
}
