/**
 * One model call of one agent, with the single fallback retry.
 *
 * Invariants: the system prompt is always the cohort's prefix byte-for-byte plus
 * the suffix rendered from the frame's context; the model call is abandoned as
 * soon as the frame's signal aborts (even if the client ignores the signal); an
 * agent switches to its `fallback_model` at most once per invocation and stays
 * on it; a budget that ran out is never retried (no time is left); nothing from
 * a thrown error other than its class reaches the AgentFailure.
 */
import { selectPrefix } from './cohort.js';
import { AgentFailure, agentFailureMessage } from './failure.js';
import { ScriptExhaustedError } from './scripted-client.js';
import { addUsage, type Frame, type TurnState } from './state.js';
import { renderSuffix } from './template.js';
import type { LlmRequest, LlmResponse, Message, ToolCall } from './types.js';
import { untilAborted } from './deadline.js';
import { fitRequest } from './turn-memory.js';

export async function callModel(turn: TurnState, frame: Frame, messages: readonly Message[]): Promise<LlmResponse> {
  const agent = frame.agent;
  for (;;) {
    const modelId = frame.model.current;
    try {
      const req = buildRequest(turn, frame, modelId, await fitRequest(turn, frame, messages));
      const raw = await untilAborted(Promise.resolve().then(() => turn.llm.complete(req)), frame.signal);
      const reply = normalizeReply(raw);
      addUsage(turn.usage, reply.usage);
      addUsage((frame.usage ??= { inputTokens: 0, outputTokens: 0 }), reply.usage);
      for (const event of reply.statusEvents ?? []) turn.sink.status(agent, event);
      return reply;
    } catch (e) {
      if (frame.signal.aborted) throw new AgentFailure('timeout', agentFailureMessage('timeout', agent.id));
      if (e instanceof ScriptExhaustedError) {
        // A script mistake: the root reports it to the caller as is; a sub-agent fails typed.
        if (frame.isRoot) throw e;
        throw new AgentFailure('error', `The script has no reply left for agent "${agent.id}".`);
      }
      const fallback = agent.fallback_model;
      if (!frame.model.fallbackUsed && fallback !== undefined && fallback !== '') {
        frame.model.fallbackUsed = true;
        frame.model.current = fallback;
        continue;
      }
      const kind = isTimeout(e) ? 'timeout' : 'error';
      throw new AgentFailure(kind, agentFailureMessage(kind, agent.id));
    }
  }
}

function buildRequest(turn: TurnState, frame: Frame, modelId: string, messages: readonly Message[]): LlmRequest {
  const agent = frame.agent;
  const model = Object.prototype.hasOwnProperty.call(turn.bundle.models, modelId) ? turn.bundle.models[modelId] : undefined;
  const prefix = selectPrefix(agent, turn.flags);
  if (model === undefined || prefix === undefined) throw new Error('agent has no usable model or prefix in the bundle');
  const tools = agent.tools?.neutral ?? [];
  const req: LlmRequest = {
    agent: agent.id,
    model: { ...model, id: modelId },
    system: { prefix: prefix.text, suffix: renderSuffix(agent.suffix_template ?? '', frame.suffixContext) },
    messages: messages.map((m) => ({ ...m })),
    tools,
    parallelToolCalls: tools.length > 0 && model.parallelToolCalls === true,
    signal: frame.signal,
  };
  const maxOut = agent.tuning?.max_output_tokens ?? agent.policy?.token_budget?.output;
  if (maxOut !== undefined) req.maxOutputTokens = maxOut;
  const effort = agent.tuning?.reasoning_effort ?? model.reasoningEffort;
  if (effort !== undefined) req.reasoningEffort = effort;
  return req;
}

/** Whatever a client returns, the loop sees a well-formed reply (or the call fails). */
function normalizeReply(raw: unknown): LlmResponse {
  if (raw === null || typeof raw !== 'object') throw new Error('malformed reply');
  const r = raw as Partial<LlmResponse>;
  const calls: ToolCall[] = [];
  for (const c of Array.isArray(r.toolCalls) ? r.toolCalls : []) {
    if (c === null || typeof c !== 'object') continue;
    const args = (c as { arguments?: unknown }).arguments;
    calls.push({
      id: typeof c.id === 'string' ? c.id : '',
      name: typeof c.name === 'string' ? c.name : '',
      arguments: typeof args === 'string' ? args : args === undefined ? '' : safeStringify(args),
    });
  }
  const u = r.usage;
  const reply: LlmResponse = {
    text: typeof r.text === 'string' ? r.text : '',
    toolCalls: calls,
    usage: {
      inputTokens: typeof u?.inputTokens === 'number' ? u.inputTokens : 0,
      outputTokens: typeof u?.outputTokens === 'number' ? u.outputTokens : 0,
    },
  };
  if (typeof u?.cachedInputTokens === 'number') reply.usage.cachedInputTokens = u.cachedInputTokens;
  if (Array.isArray(r.statusEvents)) reply.statusEvents = r.statusEvents.filter((s): s is string => typeof s === 'string');
  return reply;
}

function safeStringify(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}

function isTimeout(e: unknown): boolean {
  if (e === null || typeof e !== 'object') return false;
  const x = e as { name?: unknown; timeout?: unknown };
  return x.timeout === true || x.name === 'TimeoutError';
}
