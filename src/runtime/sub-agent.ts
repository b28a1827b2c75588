/**
 * Invokes one sub-agent for one validated `ask_*` call (docs/runtime.md step 4).
 *
 * Invariants: the sub-agent reads only its own earlier turns (session key
 * episode + its id) plus one new user message holding exactly its declared
 * handoff fields (undeclared arguments and `intent_count` stripped); it runs
 * under its own `time_budget_ms` and resolves within it; every way it can fail
 * becomes a typed CallResult (this function never rejects); its span is a child
 * of the calling agent's span; its history is appended only when it answered;
 * it is bracketed by `agent_start`/`agent_end` (usage and cost include its
 * nested sub-agents'); in relay mode its replies stream into its relay slot and
 * the slot is finished however the invocation ends.
 */
import type { BundleAgent } from '../bundle/types.js';
import { canonicalJsonLine } from '../bundle/canonical-json.js';
import { runWithBudget } from './deadline.js';
import { AgentFailure, agentFailureMessage } from './failure.js';
import { newFrame, recordOutcome, type Frame, type TurnState } from './state.js';
import type { Relay } from './relay.js';
import { failed, PARTIAL_CAVEAT, type CallResult } from './tool-exec.js';
import { loadAgentHistory, recordTurn } from './turn-memory.js';
import type { Message, SpanRecord, ToolCall } from './types.js';

/** A relay slot this invocation's words go to (relay mode, direct sub-agents of the root). */
export interface RelaySlot {
  relay: Relay;
  index: number;
}

export type LoopRunner = (turn: TurnState, frame: Frame, history: Message[], input: Message) => Promise<string>;

export const DEGRADED_CAVEAT = 'Some of the data behind this answer was unavailable; acknowledge that plainly.';

export async function runSubAgent(
  turn: TurnState,
  parent: Frame,
  call: ToolCall,
  target: BundleAgent,
  args: Record<string, unknown>,
  loop: LoopRunner,
  slot?: RelaySlot,
): Promise<CallResult> {
  const span: SpanRecord = {
    agent: target.id,
    span_id: turn.ids.spanId(),
    parent_span_id: parent.spanId,
    tool: call.name,
    started_ms: turn.now(),
    ended_ms: -1,
    outcome: 'ok',
    fallback: false,
  };
  turn.spans.push(span);
  if (parent.isRoot) turn.routing.invoked.push(target.id);
  turn.sink.emit({ type: 'agent_start', agent: target.id, span_id: span.span_id, parent_span_id: parent.spanId, tool: call.name, tool_call_id: call.id });

  const input = { role: 'user' as const, content: renderHandoff(target, args) };
  let frame: Frame | undefined;
  let result: CallResult;
  try {
    const out = await runWithBudget(parent.signal, target.policy?.time_budget_ms, async (signal) => {
      frame = newFrame(target, parent, span.span_id, signal, turn.inherited, target.policy?.time_budget_ms);
      if (slot !== undefined) frame.textOut = () => slot.relay.segment(slot.index);
      const history = await loadHistory(turn, frame);
      return loop(turn, frame, history, input);
    });
    result = out.done && frame !== undefined ? await finish(turn, frame, input, out.value) : failed('timeout', agentFailureMessage('timeout', target.id));
  } catch (e) {
    result = e instanceof AgentFailure ? failed(e.kind, e.message) : failed('error', agentFailureMessage('error', target.id));
  }
  span.ended_ms = turn.now();
  span.outcome = result.outcome;
  if (frame !== undefined) {
    span.model = frame.model.current;
    span.fallback = frame.model.fallbackUsed;
  }
  if (parent.isRoot) recordOutcome(turn.routing.outcomes, target.id, result.outcome);
  slot?.relay.finish(slot.index, result.message);
  const usage = frame?.usage ?? { inputTokens: 0, outputTokens: 0 };
  const cost = frame === undefined ? null : frame.costUsd;
  turn.sink.emit({
    type: 'agent_end',
    agent: target.id,
    span_id: span.span_id,
    outcome: result.outcome,
    usage: { ...usage },
    ...(cost === null ? {} : { cost_usd: cost }),
  });
  return result;
}

/** The handoff message: the declared fields only, as canonical JSON. */
export function renderHandoff(target: BundleAgent, args: Record<string, unknown>): string {
  const declared = (target.input?.properties ?? {}) as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(args)) {
    if (key !== 'intent_count' && Object.prototype.hasOwnProperty.call(declared, key)) fields[key] = args[key];
  }
  return canonicalJsonLine(fields);
}

async function finish(turn: TurnState, frame: Frame, input: Message & { role: 'user' }, text: string): Promise<CallResult> {
  const target = frame.agent;
  const content: Record<string, unknown> = { ok: true };
  if (target.output !== undefined) {
    // A structured sub-agent must answer with JSON matching its output schema.
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return failed('schema_violation', agentFailureMessage('schema_violation', target.id));
    }
    if (!turn.validator.check(target.output, parsed).ok) return failed('schema_violation', agentFailureMessage('schema_violation', target.id));
    content.result = parsed;
  } else {
    content.answer = text;
  }
  if (frame.degraded) content.caveat = DEGRADED_CAVEAT;
  else if (frame.partial) content.caveat = PARTIAL_CAVEAT;
  await recordTurn(turn, frame, input.content, text); // never throws: a store failure loses history, not the answer
  return { content: JSON.stringify(content), outcome: frame.degraded ? 'data_unavailable' : 'ok' };
}

/** The agent's own earlier turns as narration (compacted per its history policy); see turn-memory.ts. */
export function loadHistory(turn: TurnState, frame: Frame): Promise<Message[]> {
  return loadAgentHistory(turn, frame);
}
