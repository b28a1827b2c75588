/**
 * An LlmClient for OpenAI Chat Completions and any compatible endpoint
 * (POST {baseURL}/chat/completions), without the SDK: `stream` reads the SSE
 * stream, `complete` makes one non-streaming call.
 *
 * Invariants: the system message is the prefix followed by the suffix, so the
 * cacheable prefix is always the first bytes the provider sees; the request
 * carries `prompt_cache_key` (agent + cohort prefix hash; provider `openai`
 * only) and the bundle's
 * strict tools when the request has them; a tool call is emitted once, complete,
 * when the stream moves past it (a later index or the end); the request is
 * aborted with `req.signal` and at `req.deadline`; failures throw the errors of
 * `clients/errors.ts` (status, provider message, errno), never a model-visible text.
 */
import { collect, num, openaiTools, promptCacheKey, systemText, trimSlash, type ProviderClientOptions } from './clients/common.js';
import { LlmProtocolError } from './clients/errors.js';
import { postWithRetry } from './clients/http.js';
import { readSse } from './clients/sse.js';
import type { LlmChunk, LlmClient, LlmRequest, LlmResponse, Message, ToolCall, Usage } from './types.js';

export { LlmHttpError } from './clients/errors.js';
export { systemText } from './clients/common.js';

/** `baseURL` e.g. https://api.openai.com/v1 — `/chat/completions` is appended. */
export type OpenAIClientOptions = ProviderClientOptions;

export function createOpenAIClient(opts: OpenAIClientOptions): LlmClient {
  const url = `${trimSlash(opts.baseURL)}/chat/completions`;
  const doFetch = opts.fetch ?? fetch;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(opts.headers ?? {}) };
  if (opts.apiKey !== undefined && opts.apiKey !== '') headers.authorization = `Bearer ${opts.apiKey}`;
  const post = (req: LlmRequest, body: ChatRequestBody) =>
    postWithRetry({
      fetch: doFetch,
      url,
      headers,
      body: JSON.stringify(body),
      signal: req.signal,
      ...(req.deadline !== undefined ? { deadline: req.deadline } : {}),
      ...(opts.retry ? { retry: opts.retry } : {}),
      provider: 'OpenAI Chat Completions',
    });
  return {
    async complete(req) {
      const { res } = await post(req, toChatRequest(req));
      // Some compatible servers stream whatever was asked: read what came.
      if (isEventStream(res)) return collect(chatChunks(res));
      return fromChatResponse(await readJson(res));
    },
    async *stream(req) {
      const { res } = await post(req, { ...toChatRequest(req), stream: true, stream_options: { include_usage: true } });
      // A compatible server that ignores `stream` answers with one JSON completion: replay it as chunks.
      if (!isEventStream(res)) yield* replyChunks(fromChatResponse(await readJson(res)));
      else yield* chatChunks(res);
    },
  };
}

/** The request body we send (a test checks it against the `openai` SDK's types). */
export interface ChatRequestBody {
  model: string;
  messages: ChatMessage[];
  /** Only for provider `openai`: other OpenAI-compatible servers may reject unknown fields. */
  prompt_cache_key?: string;
  tools?: ChatTool[];
  parallel_tool_calls?: boolean;
  max_completion_tokens?: number;
  /** The card's value, passed through as written. */
  reasoning_effort?: string;
  /** Best-effort determinism (`agentc eval --seed`); the Responses and Anthropic Messages APIs have no such field. */
  seed?: number;
  stream?: true;
  stream_options?: { include_usage: boolean };
}

export type ChatTool = { type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown>; strict?: boolean } };

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** The Chat Completions request body for one LlmRequest (prefix first, cache key, strict tools). */
export function toChatRequest(req: LlmRequest): ChatRequestBody {
  const body: ChatRequestBody = {
    model: req.model.model,
    messages: [{ role: 'system', content: systemText(req.system) }, ...req.messages.map(toChatMessage)],
  };
  if (req.model.provider === 'openai') body.prompt_cache_key = promptCacheKey(req);
  if (req.tools.length > 0) {
    body.tools = openaiTools(req);
    body.parallel_tool_calls = req.parallelToolCalls;
  }
  if (req.maxOutputTokens !== undefined) body.max_completion_tokens = req.maxOutputTokens;
  if (req.reasoningEffort !== undefined) body.reasoning_effort = req.reasoningEffort;
  if (req.seed !== undefined) body.seed = req.seed;
  return body;
}

function toChatMessage(m: Message): ChatMessage {
  switch (m.role) {
    case 'user':
      return { role: 'user', content: m.content };
    case 'assistant':
      if (m.toolCalls === undefined || m.toolCalls.length === 0) return { role: 'assistant', content: m.content };
      return {
        role: 'assistant',
        content: m.content === '' ? null : m.content,
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  }
}

function isEventStream(res: Response): boolean {
  return (res.headers.get('content-type') ?? '').toLowerCase().includes('text/event-stream');
}

async function readJson(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    throw new LlmProtocolError('OpenAI Chat Completions sent a response that is not JSON');
  }
}

function* replyChunks(reply: LlmResponse): Generator<LlmChunk> {
  if (reply.text !== '') yield { type: 'text_delta', delta: reply.text };
  for (const call of reply.toolCalls) yield { type: 'tool_call', call };
  yield { type: 'usage', usage: reply.usage };
}

/** Chat Completions SSE chunks → LlmChunks: tool-call argument deltas assembled by index. */
async function* chatChunks(res: Response): AsyncGenerator<LlmChunk> {
  const pending = new Map<number, ToolCall>();
  let usage: Usage | undefined;
  const flush = function* (below: number): Generator<LlmChunk> {
    for (const index of [...pending.keys()].sort((a, b) => a - b)) {
      if (index >= below) break;
      yield { type: 'tool_call', call: pending.get(index)! };
      pending.delete(index);
    }
  };
  for await (const { data } of readSse(res, 'OpenAI Chat Completions')) {
    if (data.error !== undefined) throw streamError(data.error);
    if (data.usage !== null && typeof data.usage === 'object') usage = chatUsage(data.usage as Record<string, unknown>);
    const choice = (Array.isArray(data.choices) ? data.choices[0] : undefined) as Record<string, unknown> | undefined;
    if (choice === undefined || choice === null) continue;
    const delta = (choice.delta ?? {}) as Record<string, unknown>;
    if (typeof delta.content === 'string' && delta.content !== '') yield { type: 'text_delta', delta: delta.content };
    if (typeof delta.refusal === 'string' && delta.refusal !== '') yield { type: 'text_delta', delta: delta.refusal };
    for (const d of Array.isArray(delta.tool_calls) ? (delta.tool_calls as Record<string, unknown>[]) : []) {
      const index = typeof d.index === 'number' ? d.index : 0;
      // Calls stream one after another: a new index means the earlier ones are complete.
      yield* flush(index);
      const fn = (d.function ?? {}) as { name?: unknown; arguments?: unknown };
      let call = pending.get(index);
      if (call === undefined) pending.set(index, (call = { id: '', name: '', arguments: '' }));
      if (typeof d.id === 'string' && d.id !== '') call.id = d.id;
      if (typeof fn.name === 'string') call.name += fn.name;
      if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
    }
    if (typeof choice.finish_reason === 'string') yield* flush(Infinity);
  }
  yield* flush(Infinity);
  if (usage !== undefined) yield { type: 'usage', usage };
}

function chatUsage(u: Record<string, unknown>): Usage {
  const usage: Usage = { inputTokens: num(u.prompt_tokens), outputTokens: num(u.completion_tokens) };
  const cached = (u.prompt_tokens_details as { cached_tokens?: unknown } | undefined)?.cached_tokens;
  if (typeof cached === 'number') usage.cachedInputTokens = num(cached);
  return usage;
}

function streamError(err: unknown): LlmProtocolError {
  const e = (err ?? {}) as { message?: unknown; type?: unknown; code?: unknown };
  const message = typeof e.message === 'string' ? e.message : 'unknown error';
  const type = typeof e.type === 'string' ? e.type : typeof e.code === 'string' ? e.code : undefined;
  return new LlmProtocolError(`OpenAI Chat Completions stream failed: ${message}`, type);
}

/** Reads choices[0].message and usage; anything else in the response is ignored. */
export function fromChatResponse(json: unknown): LlmResponse {
  const choice = (json as { choices?: { message?: Record<string, unknown> }[] } | null)?.choices?.[0];
  const message = choice?.message;
  if (message === undefined || message === null || typeof message !== 'object')
    throw new LlmProtocolError('OpenAI Chat Completions response has no choices[0].message');
  let text = '';
  if (typeof message.content === 'string') text = message.content;
  else if (Array.isArray(message.content)) {
    text = message.content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('');
  } else if (typeof message.refusal === 'string') text = message.refusal;
  const toolCalls: ToolCall[] = [];
  for (const c of Array.isArray(message.tool_calls) ? (message.tool_calls as Record<string, unknown>[]) : []) {
    const fn = (c?.function ?? {}) as { name?: unknown; arguments?: unknown };
    toolCalls.push({
      id: typeof c?.id === 'string' ? c.id : '',
      name: typeof fn.name === 'string' ? fn.name : '',
      arguments: typeof fn.arguments === 'string' ? fn.arguments : '',
    });
  }
  const u = (json as { usage?: Record<string, unknown> }).usage ?? {};
  return { text, toolCalls, usage: chatUsage(u) };
}
