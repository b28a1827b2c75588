/**
 * The OpenAI-compatible client against a Chat Completions mock on 127.0.0.1
 * (node:http, ephemeral port): wire format, parallel tool calls, usage,
 * HTTP failures (→ fallback), abort on a sub-agent's time budget.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { createOpenAIClient, createRuntime, fromChatResponse, LlmHttpError } from '../../src/runtime/index.js';
import { makeBundle } from './fixtures/bundle.js';
import { CTX } from './helpers.js';

interface Seen {
  body: Record<string, any>;
  headers: IncomingMessage['headers'];
  aborted: boolean;
}
type Handler = (body: Record<string, any>, res: ServerResponse, seen: Seen) => void;

let server: Server;
let baseURL: string;
let handler: Handler;
let seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const record: Seen = { body: JSON.parse(raw) as Record<string, any>, headers: req.headers, aborted: false };
      seen.push(record);
      res.on('close', () => {
        if (!res.writableEnded) record.aborted = true;
      });
      if (req.url !== '/v1/chat/completions' || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      handler(record.body, res, record);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);
beforeEach(() => {
  seen = [];
});

const reply = (
  res: ServerResponse,
  message: Record<string, unknown>,
  usage = { prompt_tokens: 100, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 64 } },
) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
      usage,
    }),
  );
};
const agentOf = (body: Record<string, any>) => /You are the (\w+) agent/.exec(body.messages[0].content)?.[1];

test('Chat Completions wire format, parallel tool calls, composition, usage', async () => {
  handler = (body, res) => {
    const agent = agentOf(body);
    if (agent === 'concierge') {
      if (body.messages.at(-1).role === 'user') {
        return reply(res, {
          content: null,
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'ask_billing', arguments: '{"query":"invoices","intent_count":2}' } },
            { id: 'call_b', type: 'function', function: { name: 'ask_travel', arguments: '{"query":"Rome","intent_count":2}' } },
          ],
        });
      }
      return reply(res, { content: 'You have 2 invoices and 3 trips.' });
    }
    return reply(res, { content: agent === 'billing' ? '2 invoices' : '3 trips' });
  };
  const runtime = createRuntime({ bundle: makeBundle(), llm: createOpenAIClient({ baseURL, apiKey: 'sk-test', headers: { 'x-team': 'runtime' } }), tools: {} });
  const r = await runtime.turn({ agent: 'concierge', message: 'invoices and trips', context: CTX });
  expect(r.text).toBe('You have 2 invoices and 3 trips.');
  expect(r.outcomes).toEqual({ billing: 'ok', travel: 'ok' });
  expect(r.usage).toEqual({ inputTokens: 400, outputTokens: 80, cachedInputTokens: 256 });

  const first = seen[0];
  expect(first.headers.authorization).toBe('Bearer sk-test');
  expect(first.headers['x-team']).toBe('runtime');
  expect(first.body.model).toBe('gpt-orch');
  expect(first.body.messages[0]).toEqual({
    role: 'system',
    content: 'You are the concierge agent.\n\n<context>\nDate: 2026-11-21\nLocale: en-US\nLocation: Rome\n</context>',
  });
  expect(first.body.messages[1]).toEqual({ role: 'user', content: 'invoices and trips' });
  expect(first.body.parallel_tool_calls).toBe(true);
  expect(first.body.max_completion_tokens).toBe(500);
  // The runtime hands over the bundle's OpenAI shapes (req.toolShapes): strict function tools.
  expect(first.body.tools[1]).toEqual({
    type: 'function',
    function: {
      name: 'ask_billing',
      description: 'Invoices and payments.',
      parameters: makeBundle().agents.concierge.tools.neutral[1].parameters,
      strict: true,
    },
  });

  const compose = seen.find((s) => agentOf(s.body) === 'concierge' && s.body.messages.at(-1).role === 'tool')!;
  expect(compose.body.messages.slice(2)).toEqual([
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_a', type: 'function', function: { name: 'ask_billing', arguments: '{"query":"invoices","intent_count":2}' } },
        { id: 'call_b', type: 'function', function: { name: 'ask_travel', arguments: '{"query":"Rome","intent_count":2}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_a', content: '{"ok":true,"answer":"2 invoices"}' },
    { role: 'tool', tool_call_id: 'call_b', content: '{"ok":true,"answer":"3 trips"}' },
  ]);
  // Sub-agents get no tools of the orchestrator and only their handoff.
  const billing = seen.find((s) => agentOf(s.body) === 'billing')!;
  expect(billing.body.messages.slice(1)).toEqual([{ role: 'user', content: '{"query":"invoices"}' }]);
  expect(billing.body.tools.map((t: any) => t.function.name)).toEqual(['get_invoices']);
});

test('an HTTP error is a typed error; the fallback model is asked next; no body text leaks', async () => {
  handler = (body, res) => {
    const agent = agentOf(body);
    if (agent === 'billing' && body.model === 'gpt-sub') {
      res.writeHead(500, { 'content-type': 'application/json' });
      return res.end('{"error":{"message":"RAW-PROVIDER-ERROR internal"}}');
    }
    if (agent === 'concierge' && body.messages.at(-1).role === 'user') {
      return reply(res, {
        content: '',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ask_billing', arguments: '{"query":"q","intent_count":1}' } }],
      });
    }
    return reply(res, { content: `answer from ${body.model}` });
  };
  const runtime = createRuntime({ bundle: makeBundle(), llm: createOpenAIClient({ baseURL, retry: { maxRetries: 0 } }), tools: {} });
  const r = await runtime.turn({ agent: 'concierge', message: 'hi', context: CTX });
  expect(seen.filter((s) => agentOf(s.body) === 'billing').map((s) => s.body.model)).toEqual(['gpt-sub', 'gpt-fallback']);
  expect(seen[0].headers.authorization).toBeUndefined();
  const compose = seen.at(-1)!;
  expect(compose.body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', content: '{"ok":true,"answer":"answer from gpt-fallback"}' });
  expect(JSON.stringify(seen.map((s) => s.body))).not.toContain('RAW-PROVIDER-ERROR');
  expect(r.outcomes).toEqual({ billing: 'ok' });
});

test('the request is aborted when the sub-agent’s time budget runs out', async () => {
  handler = (body, res) => {
    const agent = agentOf(body);
    if (agent === 'travel') return void setTimeout(() => reply(res, { content: 'too late' }), 3_000).unref();
    if (body.messages.at(-1).role === 'user') {
      return reply(res, {
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'ask_travel', arguments: '{"query":"q","intent_count":2}' } },
          { id: 'c2', type: 'function', function: { name: 'ask_support', arguments: '{"query":"q","intent_count":2}' } },
        ],
      });
    }
    return reply(res, { content: agent === 'support' ? 'help' : 'composed' });
  };
  const bundle = makeBundle({ travel: { policy: { time_budget_ms: 200 } } });
  const runtime = createRuntime({ bundle, llm: createOpenAIClient({ baseURL }), tools: {} });
  const t0 = performance.now();
  const r = await runtime.turn({ agent: 'concierge', message: 'hi', context: CTX });
  expect(performance.now() - t0).toBeLessThan(1_500);
  expect(r.outcomes).toEqual({ support: 'ok', travel: 'timeout' });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const travelReq = seen.find((s) => agentOf(s.body) === 'travel')!;
  expect(travelReq.aborted).toBe(true);
});

test('408/504 are timeouts; response parsing tolerates content parts and refusals', () => {
  expect(new LlmHttpError(504).timeout).toBe(true);
  expect(new LlmHttpError(500).timeout).toBe(false);
  expect(
    fromChatResponse({
      choices: [
        {
          message: {
            content: [
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ],
          },
        },
      ],
    }).text,
  ).toBe('ab');
  expect(fromChatResponse({ choices: [{ message: { content: null, refusal: 'no' } }] }).text).toBe('no');
  expect(() => fromChatResponse({ error: {} })).toThrow();
});
