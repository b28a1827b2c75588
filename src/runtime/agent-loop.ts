/**
 * One agent's model/tool loop, the same for the root and every sub-agent:
 * call the model → no tool call: its text is the answer → otherwise check the
 * intent count, plan, run the calls concurrently, hand back the results, repeat.
 *
 * Invariants: every tool call a model emitted gets exactly one tool message back
 * (run, failed typed, or dropped), in call order; all calls of one reply run
 * concurrently and a failing one never stops its siblings; the intent-count
 * retry happens at most once per invocation and its calls are merged without
 * duplicates; the failsafe counts every call the model emitted except calls to
 * the agent's own plain tools — valid or not, before the cap; the loop ends
 * within `limits.maxRounds` model rounds. A user-visible agent's reply text
 * streams as it arrives, before its tool calls run. In relay mode the root's
 * model is not called again once a reply asked sub-agents: their answers are
 * relayed to the user in call order and the loop ends.
 */
import { declaredIntentCount, isSubAgentCall, mergeCalls, normalizeIds } from './calls.js';
import { AgentFailure, agentFailureMessage, safeName, toolFailureMessage } from './failure.js';
import { callModel } from './model-call.js';
import { planCalls, type PlannedCall } from './plan.js';
import { ScriptExhaustedError } from './scripted-client.js';
import { Relay, RELAY_DROPPED } from './relay.js';
import { recordOutcome, type Frame, type TurnState } from './state.js';
import { runSubAgent, type RelaySlot } from './sub-agent.js';
import { failed, runTool, type CallResult } from './tool-exec.js';
import type { Message, ToolCall } from './types.js';

export async function runAgentLoop(turn: TurnState, frame: Frame, history: Message[], input: Message): Promise<string> {
  const messages: Message[] = [...history, input];
  const dispatch = frame.agent.dispatch;
  const failsafe = dispatch?.intent_count_failsafe === true;
  let retried = false;
  for (let round = 0; round < turn.limits.maxRounds; round++) {
    const reply = await callModel(turn, frame, messages, { show: true });
    if (reply.toolCalls.length === 0) return reply.text;

    let calls = normalizeIds(reply.toolCalls);
    // Count what the model emitted, before the cap — unknown or invalid calls included.
    const emitted = calls.filter((c) => dispatch?.table[c.name]?.kind !== 'tool').length;
    const declared = failsafe ? declaredIntentCount(calls, dispatch) : null;
    let retriedNow = false;
    if (declared !== null && declared > emitted && !retried) {
      retried = retriedNow = true;
      calls = mergeCalls(calls, await askForMissing(turn, frame, messages, calls, declared, emitted));
    }
    const plan = planCalls(turn, frame, calls);
    if (frame.isRoot) noteRouting(turn, frame, calls, plan, declared, retriedNow);

    messages.push({ role: 'assistant', content: reply.text, toolCalls: calls });
    if (frame.isRoot && dispatch?.stream === 'relay' && plan.some(relayed)) {
      await relayAnswers(turn, frame, plan);
      return '';
    }
    const results = await Promise.all(plan.map((p) => execute(turn, frame, p)));
    if (frame.signal.aborted) throw new AgentFailure('timeout', agentFailureMessage('timeout', frame.agent.id));
    plan.forEach((p, i) => messages.push({ role: 'tool', toolCallId: p.call.id, name: p.call.name, content: results[i].content }));
  }
  throw new AgentFailure('budget_exceeded', agentFailureMessage('budget_exceeded', frame.agent.id));
}

/** A call whose outcome the user hears about in relay mode: a specialist asked, failed or dropped. */
function relayed(p: PlannedCall): boolean {
  return p.kind === 'sub_agent' || p.kind === 'dropped' || (p.kind === 'fail' && p.agent !== undefined);
}

/** Runs the whole plan; each specialist's words go to its slot, in call order. */
async function relayAnswers(turn: TurnState, frame: Frame, plan: PlannedCall[]): Promise<void> {
  const relay = new Relay(turn.userText);
  const before = turn.userText.text().length;
  const slots = plan.map((p): RelaySlot | undefined => (relayed(p) ? { relay, index: relay.add(relayAgent(p, frame)) } : undefined));
  await Promise.all(
    plan.map(async (p, i) => {
      const slot = slots[i];
      await execute(turn, frame, p, slot);
      if (slot === undefined) return;
      if (p.kind === 'dropped') relay.finish(slot.index, RELAY_DROPPED);
      // Bad arguments are the orchestrator model's mistake: the user hears "ran into a problem", not "wrong shape".
      else if (p.kind === 'fail') relay.finish(slot.index, agentFailureMessage(p.failure === 'schema_violation' ? 'error' : p.failure, relayAgent(p, frame)));
      else relay.finish(slot.index);
    }),
  );
  const said = turn.userText.text().slice(before).trim();
  if (said !== '') frame.spoken.push(said);
}

/** Whose words a slot carries: the specialist's, or the root's own for a dropped call. */
function relayAgent(p: PlannedCall, frame: Frame): string {
  if (p.kind === 'sub_agent') return p.target.id;
  if (p.kind === 'fail' && p.agent !== undefined) return p.agent;
  return frame.agent.id;
}

/** Never rejects: whatever happens to one call is that call's typed result. */
async function execute(turn: TurnState, frame: Frame, p: PlannedCall, slot?: RelaySlot): Promise<CallResult> {
  try {
    switch (p.kind) {
      case 'tool': {
        const r = await runTool(turn, frame, p.call, p.tool, p.envelope, p.args);
        if (frame.isRoot) recordOutcome(turn.routing.toolOutcomes, p.tool, r.outcome);
        return r;
      }
      case 'sub_agent':
        return await runSubAgent(turn, frame, p.call, p.target, p.args, runAgentLoop, slot);
      case 'dropped':
        return {
          content: JSON.stringify({
            ok: false,
            skipped: 'fan_out_cap',
            message: `Not run: at most ${p.limit} specialists can be asked in one turn. Offer to look into this next.`,
          }),
          outcome: 'ok',
        };
      case 'fail':
        if (frame.isRoot && p.agent !== undefined) recordOutcome(turn.routing.outcomes, p.agent, p.failure);
        if (frame.isRoot && p.tool !== undefined) recordOutcome(turn.routing.toolOutcomes, p.tool, p.failure);
        return failed(p.failure, p.message);
    }
  } catch (e) {
    // Only an agentc bug gets here: every expected failure is already a typed result.
    turn.reportError(e, { agent: frame.agent.id, span_id: frame.spanId, kind: 'tool', tool: safeName(p.call.name) });
    return failed('error', toolFailureMessage('error', safeName(p.call.name)));
  }
}

/** Asks once more for the calls the declared intent count says are missing. */
async function askForMissing(turn: TurnState, frame: Frame, messages: Message[], calls: ToolCall[], declared: number, emitted: number): Promise<ToolCall[]> {
  const made = calls.filter((c) => isSubAgentCall(c, frame.agent.dispatch)).map((c) => c.name);
  const notice: Message = {
    role: 'user',
    content:
      `[runtime notice] Your reply set intent_count to ${declared} but called ${emitted} specialist tool(s)` +
      (made.length > 0 ? ` (${made.join(', ')})` : '') +
      `. Call the ${declared - emitted} missing specialist tool(s) now. Do not repeat the calls you already made.`,
  };
  try {
    return (await callModel(turn, frame, [...messages, notice])).toolCalls;
  } catch (e) {
    // A failed retry costs the missing intents, not the turn — unless time ran out or the script is wrong.
    if (frame.signal.aborted || e instanceof ScriptExhaustedError) throw e;
    return [];
  }
}

function noteRouting(turn: TurnState, frame: Frame, calls: ToolCall[], plan: PlannedCall[], declared: number | null, retried: boolean): void {
  const r = turn.routing;
  if (declared !== null) r.intentCount = Math.max(r.intentCount ?? 0, declared);
  r.intentRetry ||= retried;
  r.requested += calls.filter((c) => isSubAgentCall(c, frame.agent.dispatch)).length;
  for (const p of plan) if (p.kind === 'dropped') r.dropped.push(p.call.name);
}
