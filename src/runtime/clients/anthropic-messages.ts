/**
 * An LlmClient for the Anthropic Messages API (POST {baseURL}/v1/messages),
 * without the SDK.
 *
 * Invariants: `system` is a list of text blocks — the cohort prefix first,
 * marked `cache_control: {type: "ephemeral"}`, then the per-request suffix
 * without it. Anthropic's cache order is tools → system → messages, so the one
 * breakpoint on the prefix caches the tool list together with the prefix (when
 * the prefix is empty, the breakpoint goes on the last tool instead). Tools go
 * out as `input_schema`; tool results are grouped into one user message per
 * round, as the API requires. Usage: input = uncached + cache writes + cache
 * reads; cached input = `cache_read_input_tokens`.
 */
import type { AnthropicTool, LlmChunk, LlmClient, LlmRequest, Message, ToolCall, Usage } from '../types.js';
import { num, trimSlash, type ProviderClientOptions } from './common.js';
import { LlmProtocolError } from './errors.js';
import { streamingClient } from './streaming-client.js';
import { readSse } from './sse.js';

const PROVIDER = 'Anthropic Messages';
/** Anthropic requires max_tokens; used when the card sets no output budget. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;
const EPHEMERAL = { type: 'ephemeral' } as const;

export function createAnthropicClient(opts: ProviderClientOptions & { version?: string }): LlmClient {
  // The SDK's base URL has no /v1; one given with it (an OpenAI-style --endpoint) is accepted too.
  const url = `${trimSlash(opts.baseURL).replace(/\/v1$/, '')}/v1/messages`;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'anthropic-version': opts.version ?? '2023-06-01',
    ...(opts.headers ?? {}),
  };
  if (opts.apiKey !== undefined && opts.apiKey !== '') headers['x-api-key'] = opts.apiKey;
  return streamingClient(opts, { url, headers, provider: PROVIDER, body: toMessagesRequest, chunks: messagesChunks });
}

/** The request body we send (a test checks it against the `@anthropic-ai/sdk` types). */
export interface MessagesRequestBody {
  model: string;
  max_tokens: number;
  system: SystemBlock[];
  messages: AnthropicMessage[];
  stream: true;
  tools?: MessagesTool[];
  tool_choice?: { type: 'auto'; disable_parallel_tool_use: true };
}

/** A tool as sent: the bundle's Anthropic shape (its input schema is always an object schema). */
export interface MessagesTool {
  name: string;
  description: string;
  input_schema: { type: 'object'; [key: string]: unknown };
  cache_control?: typeof EPHEMERAL;
}
export type SystemBlock = { type: 'text'; text: string; cache_control?: typeof EPHEMERAL };
export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string };
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

/** The Messages request body (streaming) for one LlmRequest. */
export function toMessagesRequest(req: LlmRequest): MessagesRequestBody {
  const system: SystemBlock[] = [];
  if (req.system.prefix !== '') system.push({ type: 'text', text: req.system.prefix, cache_control: EPHEMERAL });
  if (req.system.suffix !== '') system.push({ type: 'text', text: req.system.suffix });
  const body: MessagesRequestBody = {
    model: req.model.model,
    max_tokens: req.maxOutputTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    system,
    messages: toMessages(req.messages),
    stream: true,
  };
  if (req.tools.length > 0) {
    const shapes = req.toolShapes?.anthropic;
    const source: AnthropicTool[] =
      shapes !== undefined && shapes.length === req.tools.length
        ? shapes
        : req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
    const tools = source.map((t): MessagesTool => ({ name: t.name, description: t.description, input_schema: { ...t.input_schema, type: 'object' } }));
    if (req.system.prefix === '') tools[tools.length - 1]!.cache_control = EPHEMERAL;
    body.tools = tools;
    if (!req.parallelToolCalls) body.tool_choice = { type: 'auto', disable_parallel_tool_use: true };
  }
  return body;
}

type Block = AnthropicBlock;

/** Messages in Anthropic's shape: tool results (and the user text after them) merged into one user turn. */
function toMessages(messages: Message[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  const push = (role: 'user' | 'assistant', blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last !== undefined && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'user') push('user', m.content === '' ? [] : [{ type: 'text', text: m.content }]);
    else if (m.role === 'tool') push('user', [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content }]);
    else {
      const blocks: Block[] = m.content === '' ? [] : [{ type: 'text', text: m.content }];
      for (const c of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: toolInput(c.arguments) });
      push('assistant', blocks);
    }
  }
  return out;
}

/** Anthropic wants the input as an object; arguments that do not parse to one are sent as {}. */
function toolInput(args: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(args);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

async function* messagesChunks(res: Response): AsyncGenerator<LlmChunk> {
  const calls = new Map<number, ToolCall>();
  let input = 0;
  let cached: number | undefined;
  let output = 0;
  let sawUsage = false;
  for await (const { event, data } of readSse(res, PROVIDER)) {
    const type = typeof data.type === 'string' ? data.type : event;
    switch (type) {
      case 'message_start': {
        const u = ((data.message ?? {}) as { usage?: Record<string, unknown> }).usage;
        if (u !== undefined && u !== null) {
          sawUsage = true;
          input = num(u.input_tokens) + num(u.cache_creation_input_tokens) + num(u.cache_read_input_tokens);
          if (u.cache_read_input_tokens !== undefined) cached = num(u.cache_read_input_tokens);
          output = num(u.output_tokens);
        }
        break;
      }
      case 'content_block_start': {
        const block = (data.content_block ?? {}) as Record<string, unknown>;
        const index = typeof data.index === 'number' ? data.index : -1;
        if (block.type === 'tool_use')
          calls.set(index, { id: typeof block.id === 'string' ? block.id : '', name: typeof block.name === 'string' ? block.name : '', arguments: '' });
        else if (block.type === 'text' && typeof block.text === 'string' && block.text !== '') yield { type: 'text_delta', delta: block.text };
        break;
      }
      case 'content_block_delta': {
        const delta = (data.delta ?? {}) as Record<string, unknown>;
        if (delta.type === 'text_delta' && typeof delta.text === 'string' && delta.text !== '') yield { type: 'text_delta', delta: delta.text };
        else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
          const call = calls.get(typeof data.index === 'number' ? data.index : -1);
          if (call !== undefined) call.arguments += delta.partial_json;
        }
        break;
      }
      case 'content_block_stop': {
        const index = typeof data.index === 'number' ? data.index : -1;
        const call = calls.get(index);
        if (call !== undefined) {
          calls.delete(index);
          yield { type: 'tool_call', call: { ...call, arguments: call.arguments === '' ? '{}' : call.arguments } };
        }
        break;
      }
      case 'message_delta': {
        const u = data.usage as Record<string, unknown> | undefined;
        if (u !== undefined && u !== null) {
          sawUsage = true;
          if (typeof u.output_tokens === 'number') output = num(u.output_tokens);
          // Newer API versions repeat the input counts here; when present they are final.
          if (typeof u.input_tokens === 'number') {
            input = num(u.input_tokens) + num(u.cache_creation_input_tokens) + num(u.cache_read_input_tokens);
            if (u.cache_read_input_tokens !== undefined && u.cache_read_input_tokens !== null) cached = num(u.cache_read_input_tokens);
          }
        }
        break;
      }
      case 'error': {
        const err = (data.error ?? {}) as { message?: unknown; type?: unknown };
        throw new LlmProtocolError(
          `${PROVIDER} stream failed: ${typeof err.message === 'string' ? err.message : 'unknown error'}`,
          typeof err.type === 'string' ? err.type : undefined,
        );
      }
      default:
        break;
    }
  }
  if (sawUsage) {
    const usage: Usage = { inputTokens: input, outputTokens: output };
    if (cached !== undefined) usage.cachedInputTokens = cached;
    yield { type: 'usage', usage };
  }
}
