/**
 * Requests and streamed replies for the provider tests. The replies follow the
 * providers' documented streaming examples (OpenAI Chat Completions chunks,
 * OpenAI Responses events, Anthropic Messages events), with two parallel tool
 * calls whose arguments arrive in several deltas.
 */
import type { LlmRequest } from '../../../src/runtime/types.js';
import type { SseOut } from './mock-server.js';

export const PREFIX = 'You are the concierge agent. Écrivez clairement — ünïcode stays byte-exact.\n\n## Tools\nUse ask_billing for invoices.\n';

const params = (prop: string) => ({ type: 'object', properties: { [prop]: { type: 'string' } }, required: [prop], additionalProperties: false });

export function request(
  over: {
    agent?: string;
    prefix?: string;
    prefixSha256?: string;
    suffix?: string;
    message?: string;
    api?: 'openai-chat' | 'openai-responses' | 'anthropic-messages';
    provider?: string;
    signal?: AbortSignal;
    deadline?: number;
  } = {},
): LlmRequest {
  const tools = [
    { name: 'ask_billing', description: 'Invoices and payments.', parameters: params('query') },
    { name: 'ask_travel', description: 'Trips.', parameters: params('query') },
  ];
  const req: LlmRequest = {
    agent: over.agent ?? 'concierge',
    model: {
      id: 'm',
      provider: over.provider ?? 'openai',
      model: 'model-x',
      contextWindow: 100_000,
      encoding: 'o200k_base',
      approximateTokens: false,
      ...(over.api ? { api: over.api } : {}),
    },
    system: {
      prefix: over.prefix ?? PREFIX,
      suffix: over.suffix ?? '<context>\nDate: 2026-11-21\nLocale: en-US\n</context>',
      prefixSha256: over.prefixSha256 ?? 'a'.repeat(64),
    },
    messages: [{ role: 'user', content: over.message ?? 'invoices and trips' }],
    tools,
    toolShapes: {
      openai: tools.map((t) => ({
        type: 'function' as const,
        function: { name: t.name, description: t.description, parameters: t.parameters, strict: true as const },
      })),
      anthropic: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })),
    },
    parallelToolCalls: true,
    maxOutputTokens: 500,
    signal: over.signal ?? new AbortController().signal,
  };
  if (over.deadline !== undefined) req.deadline = over.deadline;
  return req;
}

export const EXPECTED_CALLS = [
  { id: 'call_a', name: 'ask_billing', arguments: '{"query":"invoices"}' },
  { id: 'call_b', name: 'ask_travel', arguments: '{"query":"Rome trips"}' },
];

const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseOut => ({
  data: {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'model-x',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  },
});

export const CHAT_STREAM: SseOut[] = [
  chunk({ role: 'assistant', content: '', refusal: null }),
  chunk({ content: 'Let me ' }),
  chunk({ content: 'check — ü.' }),
  chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'ask_billing', arguments: '' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"que' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: 'ry":"inv' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: 'oices"}' } }] }),
  chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'ask_travel', arguments: '' } }] }),
  chunk({ tool_calls: [{ index: 1, function: { arguments: '{"query":' } }] }),
  chunk({ tool_calls: [{ index: 1, function: { arguments: '"Rome trips"}' } }] }),
  chunk({}, 'tool_calls'),
  {
    data: {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'model-x',
      choices: [],
      usage: { prompt_tokens: 1200, completion_tokens: 40, total_tokens: 1240, prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 } },
    },
  },
  { data: '[DONE]' },
];

const r = (type: string, rest: Record<string, unknown>, seq: number): SseOut => ({ event: type, data: { type, sequence_number: seq, ...rest } });
const fc = (id: string, callId: string, name: string, args: string, status: string) => ({
  type: 'function_call',
  id,
  call_id: callId,
  name,
  arguments: args,
  status,
});

export const RESPONSES_STREAM: SseOut[] = [
  r('response.created', { response: { id: 'resp_1', object: 'response', status: 'in_progress', output: [], usage: null } }, 0),
  r('response.in_progress', { response: { id: 'resp_1', object: 'response', status: 'in_progress', output: [], usage: null } }, 1),
  r('response.output_item.added', { output_index: 0, item: { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] } }, 2),
  r('response.content_part.added', { item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }, 3),
  r('response.output_text.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Let me ' }, 4),
  r('response.output_text.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'check — ü.' }, 5),
  r('response.output_text.done', { item_id: 'msg_1', output_index: 0, content_index: 0, text: 'Let me check — ü.' }, 6),
  r(
    'response.content_part.done',
    { item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: 'Let me check — ü.', annotations: [] } },
    7,
  ),
  r(
    'response.output_item.done',
    {
      output_index: 0,
      item: {
        id: 'msg_1',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Let me check — ü.', annotations: [] }],
      },
    },
    8,
  ),
  r('response.output_item.added', { output_index: 1, item: fc('fc_1', 'call_a', 'ask_billing', '', 'in_progress') }, 9),
  r('response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 1, delta: '{"query":' }, 10),
  r('response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 1, delta: '"invoices"}' }, 11),
  r('response.function_call_arguments.done', { item_id: 'fc_1', output_index: 1, arguments: '{"query":"invoices"}' }, 12),
  r('response.output_item.done', { output_index: 1, item: fc('fc_1', 'call_a', 'ask_billing', '{"query":"invoices"}', 'completed') }, 13),
  r('response.output_item.added', { output_index: 2, item: fc('fc_2', 'call_b', 'ask_travel', '', 'in_progress') }, 14),
  r('response.function_call_arguments.delta', { item_id: 'fc_2', output_index: 2, delta: '{"query":"Rome' }, 15),
  r('response.function_call_arguments.delta', { item_id: 'fc_2', output_index: 2, delta: ' trips"}' }, 16),
  r('response.function_call_arguments.done', { item_id: 'fc_2', output_index: 2, arguments: '{"query":"Rome trips"}' }, 17),
  r('response.output_item.done', { output_index: 2, item: fc('fc_2', 'call_b', 'ask_travel', '{"query":"Rome trips"}', 'completed') }, 18),
  r(
    'response.completed',
    {
      response: {
        id: 'resp_1',
        object: 'response',
        status: 'completed',
        usage: {
          input_tokens: 1200,
          input_tokens_details: { cached_tokens: 1024 },
          output_tokens: 40,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 1240,
        },
      },
    },
    19,
  ),
];

const a = (type: string, rest: Record<string, unknown> = {}): SseOut => ({ event: type, data: { type, ...rest } });

export const ANTHROPIC_STREAM: SseOut[] = [
  a('message_start', {
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [],
      model: 'model-x',
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 76, cache_creation_input_tokens: 100, cache_read_input_tokens: 1024, output_tokens: 1 },
    },
  }),
  a('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  a('ping'),
  a('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Let me ' } }),
  a('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'check — ü.' } }),
  a('content_block_stop', { index: 0 }),
  a('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'call_a', name: 'ask_billing', input: {} } }),
  a('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '' } }),
  a('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"query":' } }),
  a('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '"invoices"}' } }),
  a('content_block_stop', { index: 1 }),
  a('content_block_start', { index: 2, content_block: { type: 'tool_use', id: 'call_b', name: 'ask_travel', input: {} } }),
  a('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '{"query":"Rome' } }),
  a('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: ' trips"}' } }),
  a('content_block_stop', { index: 2 }),
  a('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 40 } }),
  a('message_stop'),
];
