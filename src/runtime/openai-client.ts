/**
 * An LlmClient for any OpenAI-compatible Chat Completions endpoint
 * (POST {baseURL}/chat/completions), without the SDK.
 *
 * Invariants: the system message is the prefix followed by the suffix (a blank
 * line is inserted only when the prefix does not end with a newline), so the
 * cacheable prefix is always the first bytes the provider sees; the request is
 * aborted with `req.signal`; an HTTP failure throws an LlmHttpError that carries
 * the status only (never the response body).
 */
import type { LlmClient, LlmRequest, LlmResponse, Message, ToolCall } from './types.js';

export interface OpenAIClientOptions {
  /** e.g. https://api.openai.com/v1 — `/chat/completions` is appended. */
  baseURL: string;
  apiKey?: string;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
}

export class LlmHttpError extends Error {
  /** 408 and 504 count as timeouts (the runtime's `timeout` kind). */
  readonly timeout: boolean;
  constructor(readonly status: number) {
    super(`model endpoint answered HTTP ${status}`);
    this.name = 'LlmHttpError';
    this.timeout = status === 408 || status === 504;
  }
}

export function createOpenAIClient(opts: OpenAIClientOptions): LlmClient {
  const url = `${opts.baseURL.replace(/\/+$/, '')}/chat/completions`;
  const doFetch = opts.fetch ?? fetch;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(opts.headers ?? {}) };
  if (opts.apiKey !== undefined && opts.apiKey !== '') headers.authorization = `Bearer ${opts.apiKey}`;
  return {
    async complete(req) {
      const res = await doFetch(url, { method: 'POST', headers, body: JSON.stringify(toChatRequest(req)), signal: req.signal });
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        throw new LlmHttpError(res.status);
      }
      return fromChatResponse(await res.json());
    },
  };
}

export function systemText(system: { prefix: string; suffix: string }): string {
  if (system.suffix === '' || system.prefix === '' || system.prefix.endsWith('\n')) return system.prefix + system.suffix;
  return `${system.prefix}\n\n${system.suffix}`;
}

/** The Chat Completions request body for one LlmRequest. */
export function toChatRequest(req: LlmRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: req.model.model,
    messages: [{ role: 'system', content: systemText(req.system) }, ...req.messages.map(toChatMessage)],
  };
  if (req.tools.length > 0) {
    body.tools = req.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
    body.parallel_tool_calls = req.parallelToolCalls;
  }
  if (req.maxOutputTokens !== undefined) body.max_completion_tokens = req.maxOutputTokens;
  if (req.reasoningEffort !== undefined) body.reasoning_effort = req.reasoningEffort;
  return body;
}

function toChatMessage(m: Message): Record<string, unknown> {
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

/** Reads choices[0].message and usage; anything else in the response is ignored. */
export function fromChatResponse(json: unknown): LlmResponse {
  const choice = (json as { choices?: { message?: Record<string, unknown> }[] } | null)?.choices?.[0];
  const message = choice?.message;
  if (message === undefined || message === null || typeof message !== 'object') throw new Error('response has no choices[0].message');
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
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const reply: LlmResponse = { text, toolCalls, usage: { inputTokens: num(u.prompt_tokens), outputTokens: num(u.completion_tokens) } };
  const cached = (u.prompt_tokens_details as { cached_tokens?: unknown } | undefined)?.cached_tokens;
  if (typeof cached === 'number') reply.usage.cachedInputTokens = cached;
  return reply;
}
