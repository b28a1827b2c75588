/**
 * One model call of one agent, with the single fallback retry. A client with
 * `stream` is streamed; one with only `complete` is treated as a stream of one
 * reply.
 *
 * Invariants: the system prompt is always the cohort's prefix byte-for-byte plus
 * the suffix rendered from the frame's context; every request carries the
 * prefix's sha256, the tools in provider shapes (aligned with `tools`) and the
 * frame's deadline; every attempt is bracketed by `model_start`/`model_end`;
 * the model call is abandoned as soon as the frame's signal aborts (even if the
 * client ignores the signal) and an abandoned stream is closed; text deltas reach
 * `write` (user-visible agents only) as they arrive; an agent switches to its
 * `fallback_model` at most once per invocation and stays on it (text already
 * shown stays shown); a budget that ran out is never retried; nothing from a
 * thrown error reaches the AgentFailure — the raw cause goes to `onError` only;
 * the agent's own requests are fitted into its input budget first (turn-memory.ts).
 */
import { selectPrefix } from './cohort.js';
import { costUsd } from './cost.js';
import { untilAborted } from './deadline.js';
import { AgentFailure, agentFailureMessage } from './failure.js';
import { ScriptExhaustedError } from './scripted-client.js';
import { chargeModel, type Frame, type TurnState } from './state.js';
import { renderAgentSuffix } from './template.js';
import type { TextWriter } from './user-text.js';
import type { LlmChunk, LlmClient, LlmRequest, LlmResponse, Message, ToolCall, Usage } from './types.js';
import { fitRequest } from './turn-memory.js';

export interface CallOptions {
  /** Stream this reply's text to the frame's user-visible writer (when it has one). */
  show?: boolean;
  /**
   * A request of the caller's own instead of the agent's (the history
   * summarizer, turn-memory.ts), for model `model`: same events, usage, cost and
   * error reporting, but no budget fitting and no fallback model.
   */
  request?: (modelId: string) => LlmRequest;
  model?: string;
}

export async function callModel(turn: TurnState, frame: Frame, messages: readonly Message[], opts: CallOptions = {}): Promise<LlmResponse> {
  const agent = frame.agent;
  for (;;) {
    const modelId = opts.model ?? frame.model.current;
    const model = Object.prototype.hasOwnProperty.call(turn.bundle.models, modelId) ? turn.bundle.models[modelId] : undefined;
    const callId = `m${++turn.modelCalls}`;
    const base = { agent: agent.id, span_id: frame.spanId, call_id: callId, model: modelId };
    turn.sink.emit({ type: 'model_start', ...base });
    let scriptKey = agent.id;
    try {
      const req = opts.request?.(modelId) ?? buildRequest(turn, frame, modelId, await fitRequest(turn, frame, messages));
      scriptKey = req.agent;
      const write = opts.show === true && frame.textOut !== undefined ? frame.textOut() : undefined;
      const reply = await invoke(turn.llm, req, frame.signal, write, (event) => turn.sink.status(agent, event, frame.spanId));
      const cost = costUsd(model, reply.usage);
      chargeModel(turn, frame, reply.usage, cost);
      turn.sink.emit({ type: 'model_end', ...base, outcome: 'ok', usage: { ...reply.usage }, ...(cost === undefined ? {} : { cost_usd: cost }) });
      if (opts.show === true && reply.text !== '') frame.spoken.push(reply.text);
      return reply;
    } catch (e) {
      const aborted = frame.signal.aborted;
      const kind = aborted || isTimeout(e) ? 'timeout' : 'error';
      turn.sink.emit({ type: 'model_end', ...base, outcome: kind, usage: { inputTokens: 0, outputTokens: 0 } });
      if (!aborted) turn.reportError(e, { agent: agent.id, span_id: frame.spanId, kind: 'model' });
      if (aborted) throw new AgentFailure('timeout', agentFailureMessage('timeout', agent.id));
      if (e instanceof ScriptExhaustedError) {
        // A script mistake: the root reports it to the caller as is; a sub-agent fails typed.
        if (frame.isRoot) throw e;
        throw new AgentFailure('error', `The script has no reply left for agent "${scriptKey}".`);
      }
      const fallback = agent.fallback_model;
      if (opts.request === undefined && !frame.model.fallbackUsed && fallback !== undefined && fallback !== '') {
        frame.model.fallbackUsed = true;
        frame.model.current = fallback;
        continue;
      }
      throw new AgentFailure(kind, agentFailureMessage(kind, agent.id));
    }
  }
}

/** One attempt: the reply, assembled from the client's chunks (or its one reply). */
async function invoke(
  llm: LlmClient,
  req: LlmRequest,
  signal: AbortSignal,
  write: TextWriter | undefined,
  status: (event: string) => void,
): Promise<LlmResponse> {
  if (typeof llm.stream !== 'function') {
    const reply = normalizeReply(
      await untilAborted(
        Promise.resolve().then(() => llm.complete(req)),
        signal,
      ),
    );
    for (const event of reply.statusEvents ?? []) status(event);
    write?.(reply.text);
    return reply;
  }
  const reply: LlmResponse = { text: '', toolCalls: [], usage: { inputTokens: 0, outputTokens: 0 } };
  const texts: string[] = [];
  if (signal.aborted) throw signal.reason ?? new Error('aborted');
  // One abort listener per call (not per chunk): every next() races the same promise.
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason ?? new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  let iterator: AsyncIterator<LlmChunk> | undefined;
  try {
    iterator = llm.stream(req)[Symbol.asyncIterator]();
    for (;;) {
      const step = await Promise.race([iterator.next(), aborted]);
      if (step.done === true) break;
      const chunk = step.value as Partial<LlmChunk> | null;
      if (chunk === null || typeof chunk !== 'object') continue;
      switch (chunk.type) {
        case 'text_delta':
          if (typeof chunk.delta === 'string' && chunk.delta !== '') {
            texts.push(chunk.delta);
            write?.(chunk.delta);
          }
          break;
        case 'tool_call': {
          const call = normalizeCall(chunk.call);
          if (call !== undefined) reply.toolCalls.push(call);
          break;
        }
        case 'usage':
          reply.usage = normalizeUsage(chunk.usage);
          break;
        case 'status':
          if (typeof chunk.event === 'string') status(chunk.event);
          break;
      }
    }
  } catch (e) {
    if (iterator !== undefined) closeQuietly(iterator);
    throw e;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  reply.text = texts.join('');
  return reply;
}

/** Tells an abandoned stream to stop; whatever it does then is ignored. */
function closeQuietly(iterator: AsyncIterator<unknown>): void {
  try {
    const done = iterator.return?.();
    if (done !== undefined) Promise.resolve(done).catch(() => undefined);
  } catch {
    // a client whose return() throws is already finished
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
    system: {
      prefix: prefix.text,
      suffix: renderAgentSuffix(agent, frame.suffixContext, turn.bundle.dynamicContext?.fields ?? []),
      prefixSha256: prefix.sha256,
    },
    messages: messages.map((m) => ({ ...m })),
    tools,
    toolShapes: { openai: agent.tools?.openai ?? [], anthropic: agent.tools?.anthropic ?? [] },
    parallelToolCalls: tools.length > 0 && model.parallelToolCalls === true,
    signal: frame.signal,
  };
  if (frame.deadline !== undefined) req.deadline = frame.deadline;
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
    const call = normalizeCall(c);
    if (call !== undefined) calls.push(call);
  }
  const reply: LlmResponse = { text: typeof r.text === 'string' ? r.text : '', toolCalls: calls, usage: normalizeUsage(r.usage) };
  if (Array.isArray(r.statusEvents)) reply.statusEvents = r.statusEvents.filter((s): s is string => typeof s === 'string');
  return reply;
}

function normalizeCall(c: unknown): ToolCall | undefined {
  if (c === null || typeof c !== 'object') return undefined;
  const x = c as { id?: unknown; name?: unknown; arguments?: unknown };
  const args = x.arguments;
  return {
    id: typeof x.id === 'string' ? x.id : '',
    name: typeof x.name === 'string' ? x.name : '',
    arguments: typeof args === 'string' ? args : args === undefined ? '' : safeStringify(args),
  };
}

function normalizeUsage(u: unknown): Usage {
  const x = (u !== null && typeof u === 'object' ? u : {}) as Partial<Usage>;
  const usage: Usage = {
    inputTokens: isCount(x.inputTokens) ? x.inputTokens : 0,
    outputTokens: isCount(x.outputTokens) ? x.outputTokens : 0,
  };
  if (isCount(x.cachedInputTokens)) usage.cachedInputTokens = x.cachedInputTokens;
  return usage;
}

function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0;
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
