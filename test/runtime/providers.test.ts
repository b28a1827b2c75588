/**
 * The three wire APIs against mocks on 127.0.0.1 that stream each API's real
 * event shapes in 7-byte pieces: text deltas and parallel tool calls assembled,
 * usage with cached input, the cache boundary in the request (prefix bytes
 * first, prompt_cache_key or the Anthropic breakpoint, strict tools, the same
 * bytes for two users of one cohort), retries with retry-after bounded by the
 * deadline, typed errors carrying the cause, abort.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  collect,
  createAnthropicClient,
  createOpenAIClient,
  createOpenAIResponsesClient,
  createProviderClient,
  LlmHttpError,
  LlmNetworkError,
  LlmProtocolError,
  modelApi,
  parseRetryAfter,
  type LlmChunk,
  type LlmClient,
} from '../../src/runtime/index.js';
import { ANTHROPIC_STREAM, CHAT_STREAM, EXPECTED_CALLS, PREFIX, request, RESPONSES_STREAM } from './providers/fixtures.js';
import { json, sse, startMock, type Mock, type SseOut } from './providers/mock-server.js';

let mock: Mock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock.close());
beforeEach(() => {
  mock.seen.length = 0;
});

const apis: {
  name: string;
  path: string;
  stream: SseOut[];
  make: (o: { baseURL: string; apiKey?: string; retry?: { maxRetries?: number; baseDelayMs?: number } }) => LlmClient;
  base: (url: string) => string;
  cached: { inputTokens: number; outputTokens: number; cachedInputTokens: number };
}[] = [
  {
    name: 'OpenAI Chat Completions',
    path: '/v1/chat/completions',
    stream: CHAT_STREAM,
    make: createOpenAIClient,
    base: (u) => `${u}/v1`,
    cached: { inputTokens: 1200, outputTokens: 40, cachedInputTokens: 1024 },
  },
  {
    name: 'OpenAI Responses',
    path: '/v1/responses',
    stream: RESPONSES_STREAM,
    make: createOpenAIResponsesClient,
    base: (u) => `${u}/v1`,
    cached: { inputTokens: 1200, outputTokens: 40, cachedInputTokens: 1024 },
  },
  {
    name: 'Anthropic Messages',
    path: '/v1/messages',
    stream: ANTHROPIC_STREAM,
    make: createAnthropicClient,
    base: (u) => u,
    cached: { inputTokens: 1200, outputTokens: 40, cachedInputTokens: 1024 },
  },
];

async function drain(it: AsyncIterable<LlmChunk>): Promise<LlmChunk[]> {
  const out: LlmChunk[] = [];
  for await (const c of it) out.push(c);
  return out;
}

describe.each(apis)('$name', (api) => {
  test('streams text deltas, then both parallel tool calls complete, then usage with cached input', async () => {
    mock.handle((s, res) => (s.path === api.path ? sse(res, api.stream) : json(res, 404, {})));
    const chunks = await drain(api.make({ baseURL: api.base(mock.url), apiKey: 'sk-test' }).stream!(request()));
    const text = chunks.filter((c) => c.type === 'text_delta').map((c) => (c as { delta: string }).delta);
    expect(text.join('')).toBe('Let me check — ü.');
    expect(chunks.filter((c) => c.type === 'tool_call').map((c) => (c as { call: unknown }).call)).toEqual(EXPECTED_CALLS);
    expect(chunks.at(-1)).toEqual({ type: 'usage', usage: api.cached });
    // Text first, calls after it: the order the model produced them.
    expect(chunks.findIndex((c) => c.type === 'tool_call')).toBeGreaterThan(chunks.findLastIndex((c) => c.type === 'text_delta'));
    const reply = await api.make({ baseURL: api.base(mock.url) }).complete(request());
    expect(reply).toEqual({ text: 'Let me check — ü.', toolCalls: EXPECTED_CALLS, usage: api.cached });
  });

  test('two users of one cohort send the same bytes up to the end of the prefix, the same tools and cache key', async () => {
    mock.handle((_s, res) => sse(res, api.stream));
    const client = api.make({ baseURL: api.base(mock.url) });
    await collect(client.stream!(request({ suffix: '<context>\nDate: 2026-11-21\nLocale: en-US\n</context>', message: 'invoices' })));
    await collect(client.stream!(request({ suffix: '<context>\nDate: 2026-12-01\nLocale: fr-FR\n</context>', message: 'mes voyages' })));
    const [a, b] = mock.seen;
    const escaped = JSON.stringify(PREFIX).slice(1, -1);
    const end = a!.raw.indexOf(escaped) + escaped.length;
    expect(a!.raw.indexOf(escaped)).toBeGreaterThan(0);
    expect(b!.raw.slice(0, end)).toBe(a!.raw.slice(0, end));
    expect(JSON.stringify(b!.body.tools)).toBe(JSON.stringify(a!.body.tools));
    expect(a!.raw).not.toBe(b!.raw);
  });
});

describe('the cache boundary in each API’s request', () => {
  test('Chat Completions: system message = prefix then suffix, prompt_cache_key per agent and cohort, strict tools, usage requested', async () => {
    mock.handle((_s, res) => sse(res, CHAT_STREAM));
    const client = createOpenAIClient({ baseURL: `${mock.url}/v1`, apiKey: 'sk-test' });
    await collect(client.stream!(request()));
    await collect(client.stream!(request({ agent: 'billing' })));
    await collect(client.stream!(request({ prefixSha256: 'b'.repeat(64) })));
    const [first, otherAgent, otherCohort] = mock.seen.map((s) => s.body);
    expect(mock.seen[0]!.headers.authorization).toBe('Bearer sk-test');
    expect(first.messages[0]).toEqual({ role: 'system', content: `${PREFIX}<context>\nDate: 2026-11-21\nLocale: en-US\n</context>` });
    expect(first.prompt_cache_key).toBe(`agentc:concierge:${'a'.repeat(16)}`);
    expect(new Set([first.prompt_cache_key, otherAgent.prompt_cache_key, otherCohort.prompt_cache_key]).size).toBe(3);
    expect(first.tools[0]).toEqual({
      type: 'function',
      function: { name: 'ask_billing', description: 'Invoices and payments.', parameters: request().tools[0]!.parameters, strict: true },
    });
    expect(first).toMatchObject({ stream: true, stream_options: { include_usage: true }, parallel_tool_calls: true, max_completion_tokens: 500 });
  });

  test('Responses: instructions = prefix then suffix, prompt_cache_key, flattened strict function tools, store off', async () => {
    mock.handle((_s, res) => sse(res, RESPONSES_STREAM));
    await collect(createOpenAIResponsesClient({ baseURL: `${mock.url}/v1` }).stream!({ ...request(), reasoningEffort: 'low' }));
    const body = mock.seen[0]!.body;
    expect(body.instructions.startsWith(PREFIX)).toBe(true);
    expect(body.prompt_cache_key).toBe(`agentc:concierge:${'a'.repeat(16)}`);
    expect(body.tools[1]).toEqual({ type: 'function', name: 'ask_travel', description: 'Trips.', parameters: request().tools[1]!.parameters, strict: true });
    expect(body).toMatchObject({
      model: 'model-x',
      stream: true,
      store: false,
      parallel_tool_calls: true,
      max_output_tokens: 500,
      reasoning: { effort: 'low' },
    });
    expect(body.input).toEqual([{ type: 'message', role: 'user', content: 'invoices and trips' }]);
  });

  test('Anthropic: system blocks with the breakpoint on the prefix only, tools as input_schema (cached with it), version header', async () => {
    mock.handle((_s, res) => sse(res, ANTHROPIC_STREAM));
    await collect(createAnthropicClient({ baseURL: mock.url, apiKey: 'sk-ant' }).stream!(request()));
    const { body, headers } = mock.seen[0]!;
    expect(headers['x-api-key']).toBe('sk-ant');
    expect(headers['anthropic-version']).toBe('2023-06-01');
    expect(body.system).toEqual([
      { type: 'text', text: PREFIX, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: '<context>\nDate: 2026-11-21\nLocale: en-US\n</context>' },
    ]);
    // Tools precede system in Anthropic's cache order: the prefix breakpoint covers them; none of their own.
    expect(body.tools).toEqual(request().toolShapes!.anthropic);
    expect(body).toMatchObject({ model: 'model-x', max_tokens: 500, stream: true });
    expect(body.tool_choice).toBeUndefined();
  });

  test('Anthropic: a conversation with tool results is grouped the way the API requires', async () => {
    mock.handle((_s, res) => sse(res, ANTHROPIC_STREAM));
    const req = request({ prefix: '' });
    req.parallelToolCalls = false;
    req.messages.push(
      {
        role: 'assistant',
        content: 'Let me check.',
        toolCalls: [
          { id: 'call_a', name: 'ask_billing', arguments: '{"query":"x"}' },
          { id: 'call_b', name: 'ask_travel', arguments: 'not json' },
        ],
      },
      { role: 'tool', toolCallId: 'call_a', name: 'ask_billing', content: '{"ok":true}' },
      { role: 'tool', toolCallId: 'call_b', name: 'ask_travel', content: '{"ok":false}' },
    );
    await collect(createAnthropicClient({ baseURL: mock.url }).stream!(req));
    const body = mock.seen[0]!.body;
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'invoices and trips' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'call_a', name: 'ask_billing', input: { query: 'x' } },
          { type: 'tool_use', id: 'call_b', name: 'ask_travel', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_a', content: '{"ok":true}' },
          { type: 'tool_result', tool_use_id: 'call_b', content: '{"ok":false}' },
        ],
      },
    ]);
    // No prefix: the breakpoint moves to the last tool; serial tool use is asked for explicitly.
    expect(body.system).toEqual([{ type: 'text', text: '<context>\nDate: 2026-11-21\nLocale: en-US\n</context>' }]);
    expect(body.tools[1].cache_control).toEqual({ type: 'ephemeral' });
    expect(body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
  });
});

describe('failures carry their cause; retries honour retry-after and the deadline', () => {
  test('a 401 is not retried and carries the status and the provider’s message', async () => {
    mock.handle((_s, res) =>
      json(res, 401, { error: { message: 'Incorrect API key provided: sk-bad.', type: 'invalid_request_error', code: 'invalid_api_key' } }),
    );
    const err = await collect(createOpenAIResponsesClient({ baseURL: `${mock.url}/v1`, apiKey: 'sk-bad' }).stream!(request())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmHttpError);
    expect(err).toMatchObject({ status: 401, providerMessage: 'Incorrect API key provided: sk-bad.', providerType: 'invalid_request_error', timeout: false });
    expect((err as Error).message).toBe('OpenAI Responses answered HTTP 401: Incorrect API key provided: sk-bad. (invalid_request_error)');
    expect(mock.seen).toHaveLength(1);
  });

  test('429 with retry-after is retried after the wait, then succeeds', async () => {
    let n = 0;
    mock.handle((_s, res) =>
      n++ === 0
        ? json(res, 429, { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }, { 'retry-after': '0.2' })
        : sse(res, ANTHROPIC_STREAM),
    );
    const t0 = Date.now();
    const reply = await createAnthropicClient({ baseURL: mock.url }).complete(request({ provider: 'anthropic' }));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    expect(reply.toolCalls).toEqual(EXPECTED_CALLS);
    expect(mock.seen).toHaveLength(2);
  });

  test('5xx is retried with backoff; a retry-after past the deadline is not waited for', async () => {
    let n = 0;
    mock.handle((_s, res) => (n++ < 1 ? json(res, 503, { error: { message: 'overloaded' } }) : sse(res, CHAT_STREAM)));
    const ok = await createOpenAIClient({ baseURL: `${mock.url}/v1`, retry: { baseDelayMs: 20 } }).complete(request());
    expect(ok.usage.cachedInputTokens).toBe(1024);
    expect(mock.seen).toHaveLength(2);

    mock.seen.length = 0;
    mock.handle((_s, res) => json(res, 429, { error: { message: 'rate limited' } }, { 'retry-after': '30' }));
    const t0 = Date.now();
    const err = await createOpenAIClient({ baseURL: `${mock.url}/v1` })
      .complete(request({ deadline: Date.now() + 2_000 }))
      .catch((e: unknown) => e);
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(err).toMatchObject({ status: 429, providerMessage: 'rate limited', retryAfterMs: 30_000 });
    expect(mock.seen).toHaveLength(1);
  });

  test('a refused connection is a network error naming the errno', async () => {
    const closed = await startMock();
    await closed.close();
    const err = await createOpenAIClient({ baseURL: `${closed.url}/v1`, retry: { maxRetries: 0 } })
      .complete(request())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmNetworkError);
    expect(err).toMatchObject({ code: 'ECONNREFUSED' });
    expect((err as Error).message).toBe(`cannot reach ${closed.url}/v1/chat/completions: ECONNREFUSED`);
  });

  test('an error event inside a 200 stream throws with the provider’s message', async () => {
    mock.handle((_s, res) =>
      sse(res, [ANTHROPIC_STREAM[0]!, { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }]),
    );
    const err = await collect(createAnthropicClient({ baseURL: mock.url }).stream!(request())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmProtocolError);
    expect(err).toMatchObject({ message: 'Anthropic Messages stream failed: Overloaded', providerType: 'overloaded_error' });
  });

  test('abort mid-stream stops reading and closes the connection; the deadline does too', async () => {
    mock.handle(async (_s, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(CHAT_STREAM[1]!.data)}\n\n`);
      // Never ends on its own.
    });
    const ac = new AbortController();
    const chunks: LlmChunk[] = [];
    const run = (async () => {
      for await (const c of createOpenAIClient({ baseURL: `${mock.url}/v1` }).stream!(request({ signal: ac.signal }))) {
        chunks.push(c);
        ac.abort();
      }
    })();
    await expect(run).rejects.toThrow();
    expect(chunks).toEqual([{ type: 'text_delta', delta: 'Let me ' }]);
    const t0 = Date.now();
    await expect(collect(createOpenAIResponsesClient({ baseURL: `${mock.url}/v1` }).stream!(request({ deadline: Date.now() + 150 })))).rejects.toThrow();
    expect(Date.now() - t0).toBeLessThan(1_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(mock.seen.map((s) => s.aborted)).toEqual([true, true]);
  });

  test('not an event stream, or an event that is not JSON: a protocol error that says so', async () => {
    mock.handle((_s, res) => json(res, 200, { hello: 'proxy page' }));
    await expect(collect(createOpenAIResponsesClient({ baseURL: `${mock.url}/v1` }).stream!(request()))).rejects.toThrow(
      'OpenAI Responses answered with "application/json", not an event stream: is the base URL right?',
    );
    mock.handle((_s, res) => sse(res, [{ event: 'message_start', data: '{"type":"message_start", oops' }]));
    await expect(collect(createAnthropicClient({ baseURL: mock.url }).stream!(request()))).rejects.toThrow(LlmProtocolError);
  });

  test('retry-after forms', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '150' }))).toBe(150);
    expect(parseRetryAfter(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfter(new Headers({ 'retry-after': new Date(10_000).toUTCString() }), 7_000)).toBe(3000);
    expect(parseRetryAfter(new Headers({}))).toBeUndefined();
  });
});

test('one client per bundle: each model goes to its API (default per provider)', async () => {
  mock.handle((s, res) => sse(res, s.path === '/v1/chat/completions' ? CHAT_STREAM : s.path === '/v1/responses' ? RESPONSES_STREAM : ANTHROPIC_STREAM));
  // One base URL for both (as `agentc run --endpoint` gives): Anthropic's /v1 is not doubled.
  const client = createProviderClient({ openai: { baseURL: `${mock.url}/v1` }, anthropic: { baseURL: `${mock.url}/v1/` } });
  for (const r of [request(), request({ provider: 'anthropic' }), request({ api: 'openai-chat' }), request({ provider: 'local-vllm' })]) {
    expect((await client.complete(r)).toolCalls).toEqual(EXPECTED_CALLS);
  }
  expect(mock.seen.map((s) => s.path)).toEqual(['/v1/responses', '/v1/messages', '/v1/chat/completions', '/v1/chat/completions']);
  expect(modelApi({ provider: 'anthropic', api: 'openai-chat' })).toBe('openai-chat');
  // A non-OpenAI server on Chat Completions gets no prompt_cache_key (it may reject unknown fields).
  expect(mock.seen[2]!.body.prompt_cache_key).toMatch(/^agentc:concierge:/);
  expect(mock.seen[3]!.body).not.toHaveProperty('prompt_cache_key');
});
