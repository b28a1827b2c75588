/**
 * An LlmClient for the OpenAI Responses API (POST {baseURL}/responses), without
 * the SDK. The seeds' reasoning models with tools need it.
 *
 * Invariants: `instructions` is the prefix followed by the suffix (prefix bytes
 * first); the request carries `prompt_cache_key` (agent + cohort prefix hash),
 * `store: false`, and the bundle's strict tools flattened to the Responses
 * function-tool shape; a tool call is emitted when its output item is done;
 * usage comes from `response.completed` / `response.incomplete`, cached input
 * from `input_tokens_details.cached_tokens`; a `response.failed` or `error`
 * event throws with the provider's message.
 */
import type { LlmChunk, LlmClient, LlmRequest, Message, Usage } from '../types.js';
import { num, openaiTools, promptCacheKey, systemText, trimSlash, type ProviderClientOptions } from './common.js';
import { LlmProtocolError } from './errors.js';
import { streamingClient } from './streaming-client.js';
import { readSse } from './sse.js';

const PROVIDER = 'OpenAI Responses';

export function createOpenAIResponsesClient(opts: ProviderClientOptions): LlmClient {
  const url = `${trimSlash(opts.baseURL)}/responses`;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(opts.headers ?? {}) };
  if (opts.apiKey !== undefined && opts.apiKey !== '') headers.authorization = `Bearer ${opts.apiKey}`;
  return streamingClient(opts, { url, headers, provider: PROVIDER, body: toResponsesRequest, chunks: responsesChunks });
}

/** The request body we send (a test checks it against the `openai` SDK's types). */
export interface ResponsesRequestBody {
  model: string;
  instructions: string;
  input: ResponsesInputItem[];
  prompt_cache_key: string;
  store: false;
  stream: true;
  tools?: { type: 'function'; name: string; description: string; parameters: Record<string, unknown>; strict: boolean }[];
  parallel_tool_calls?: boolean;
  max_output_tokens?: number;
  /** The card's value, passed through as written. */
  reasoning?: { effort: string };
}

export type ResponsesInputItem =
  | { type: 'message'; role: 'user' | 'assistant'; content: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string };

/** The Responses request body (streaming) for one LlmRequest. */
export function toResponsesRequest(req: LlmRequest): ResponsesRequestBody {
  const body: ResponsesRequestBody = {
    model: req.model.model,
    instructions: systemText(req.system),
    input: req.messages.flatMap(toInputItems),
    prompt_cache_key: promptCacheKey(req),
    store: false,
    stream: true,
  };
  if (req.tools.length > 0) {
    body.tools = openaiTools(req).map(({ function: f }) => ({
      type: 'function' as const,
      name: f.name,
      description: f.description,
      parameters: f.parameters,
      strict: f.strict === true,
    }));
    body.parallel_tool_calls = req.parallelToolCalls;
  }
  if (req.maxOutputTokens !== undefined) body.max_output_tokens = req.maxOutputTokens;
  if (req.reasoningEffort !== undefined) body.reasoning = { effort: req.reasoningEffort };
  return body;
}

function toInputItems(m: Message): ResponsesInputItem[] {
  switch (m.role) {
    case 'user':
      return [{ type: 'message', role: 'user', content: m.content }];
    case 'assistant': {
      const items: ResponsesInputItem[] = [];
      if (m.content !== '') items.push({ type: 'message', role: 'assistant', content: m.content });
      for (const c of m.toolCalls ?? []) items.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: c.arguments });
      return items;
    }
    case 'tool':
      return [{ type: 'function_call_output', call_id: m.toolCallId, output: m.content }];
  }
}

async function* responsesChunks(res: Response): AsyncGenerator<LlmChunk> {
  let usage: Usage | undefined;
  for await (const { event, data } of readSse(res, PROVIDER)) {
    const type = typeof data.type === 'string' ? data.type : event;
    switch (type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        if (typeof data.delta === 'string' && data.delta !== '') yield { type: 'text_delta', delta: data.delta };
        break;
      case 'response.output_item.done': {
        const item = (data.item ?? {}) as Record<string, unknown>;
        if (item.type !== 'function_call') break;
        yield {
          type: 'tool_call',
          call: {
            id: typeof item.call_id === 'string' ? item.call_id : typeof item.id === 'string' ? item.id : '',
            name: typeof item.name === 'string' ? item.name : '',
            arguments: typeof item.arguments === 'string' ? item.arguments : '',
          },
        };
        break;
      }
      case 'response.completed':
      case 'response.incomplete':
        usage = responsesUsage(((data.response ?? {}) as { usage?: unknown }).usage);
        break;
      case 'response.failed': {
        const err = ((data.response ?? {}) as { error?: { message?: unknown; code?: unknown } }).error ?? {};
        throw new LlmProtocolError(
          `${PROVIDER} failed: ${typeof err.message === 'string' ? err.message : 'unknown error'}`,
          typeof err.code === 'string' ? err.code : undefined,
        );
      }
      case 'error': {
        const message = typeof data.message === 'string' ? data.message : 'unknown error';
        throw new LlmProtocolError(`${PROVIDER} stream failed: ${message}`, typeof data.code === 'string' ? data.code : undefined);
      }
      default:
        break;
    }
  }
  if (usage !== undefined) yield { type: 'usage', usage };
}

function responsesUsage(u: unknown): Usage | undefined {
  if (u === null || typeof u !== 'object') return undefined;
  const x = u as Record<string, unknown>;
  const usage: Usage = { inputTokens: num(x.input_tokens), outputTokens: num(x.output_tokens) };
  const cached = (x.input_tokens_details as { cached_tokens?: unknown } | undefined)?.cached_tokens;
  if (typeof cached === 'number') usage.cachedInputTokens = num(cached);
  return usage;
}
