#!/usr/bin/env node
// Provider-client benchmarks (run `npm run build` first): dist/runtime against
// zero-latency mocks on 127.0.0.1 that answer in each wire API's format.
//
// 1. Runtime overhead per turn with each client: fetch_assistant fans out to 3
//    sub-agents (5 model calls per turn), every reply ready at once, the mock in
//    this process (its cost is included: the figure is an upper bound of the
//    client's overhead). Baseline: the in-process scripted model, same run.
// 2. Cold start to first turn: a fresh `node` that imports dist/runtime, reads
//    generated/bundle.json and answers one turn — scripted, and through the
//    OpenAI Responses client against the mock. Median of several runs.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rt = await import(join(root, 'dist/runtime/index.js'));
const bundle = JSON.parse(readFileSync(join(root, 'generated/bundle.json'), 'utf8'));
const ROOT = 'fetch_assistant';
const FAN_OUT = ['rewards', 'shop', 'support'];
const N = Number(process.env.BENCH_TURNS ?? 400);
const WARMUP = 60;
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 5);

/** What the model answers: tool calls on the root's first round, text otherwise. */
function decide(agent, lastRole) {
  if (agent === ROOT && lastRole === 'user') {
    return {
      text: '',
      calls: FAN_OUT.map((a, i) => ({ id: `c${i}`, name: `ask_${a}`, arguments: JSON.stringify({ query: `about ${a}`, intent_count: FAN_OUT.length }) })),
    };
  }
  return { text: agent === ROOT ? 'composed' : `${agent} answer`, calls: [] };
}

const sse = (events) =>
  events.map((e) => `${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`).join('');
const formats = {
  chat(r, stream) {
    if (!stream) {
      return {
        type: 'application/json',
        body: JSON.stringify({
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: r.text || null,
                tool_calls: r.calls.length
                  ? r.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }))
                  : undefined,
              },
              finish_reason: 'stop',
            },
          ],
          usage: { prompt_tokens: 1000, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 900 } },
        }),
      };
    }
    const ev = [];
    if (r.text) ev.push({ data: { choices: [{ index: 0, delta: { content: r.text }, finish_reason: null }] } });
    r.calls.forEach((c, index) =>
      ev.push({
        data: {
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }] },
              finish_reason: null,
            },
          ],
        },
      }),
    );
    ev.push(
      { data: { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] } },
      { data: { choices: [], usage: { prompt_tokens: 1000, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 900 } } } },
      { data: '[DONE]' },
    );
    return { type: 'text/event-stream', body: sse(ev) };
  },
  responses(r) {
    const ev = [];
    if (r.text) ev.push({ event: 'response.output_text.delta', data: { type: 'response.output_text.delta', delta: r.text } });
    for (const c of r.calls)
      ev.push({
        event: 'response.output_item.done',
        data: { type: 'response.output_item.done', item: { type: 'function_call', call_id: c.id, name: c.name, arguments: c.arguments } },
      });
    ev.push({
      event: 'response.completed',
      data: { type: 'response.completed', response: { usage: { input_tokens: 1000, input_tokens_details: { cached_tokens: 900 }, output_tokens: 10 } } },
    });
    return { type: 'text/event-stream', body: sse(ev) };
  },
  messages(r) {
    const ev = [
      { event: 'message_start', data: { type: 'message_start', message: { usage: { input_tokens: 100, cache_read_input_tokens: 900, output_tokens: 1 } } } },
    ];
    let i = 0;
    if (r.text)
      ev.push(
        { event: 'content_block_start', data: { type: 'content_block_start', index: i, content_block: { type: 'text', text: '' } } },
        { event: 'content_block_delta', data: { type: 'content_block_delta', index: i, delta: { type: 'text_delta', text: r.text } } },
        { event: 'content_block_stop', data: { type: 'content_block_stop', index: i++ } },
      );
    for (const c of r.calls)
      ev.push(
        {
          event: 'content_block_start',
          data: { type: 'content_block_start', index: i, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } },
        },
        { event: 'content_block_delta', data: { type: 'content_block_delta', index: i, delta: { type: 'input_json_delta', partial_json: c.arguments } } },
        { event: 'content_block_stop', data: { type: 'content_block_stop', index: i++ } },
      );
    ev.push(
      { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 10 } } },
      { event: 'message_stop', data: { type: 'message_stop' } },
    );
    return { type: 'text/event-stream', body: sse(ev) };
  },
};

function agentOf(body) {
  const key = /^agentc:([^:]+):/.exec(body.prompt_cache_key ?? '')?.[1];
  if (key) return key;
  const prefix = body.system?.[0]?.text ?? '';
  return Object.values(bundle.agents).find((a) => a.prefixes.some((p) => p.text === prefix))?.id ?? ROOT;
}
function lastRole(path, body) {
  if (path.endsWith('/responses')) return body.input.at(-1).type === 'function_call_output' ? 'tool' : 'user';
  if (path.endsWith('/messages')) return body.messages.at(-1).content.some((b) => b.type === 'tool_result') ? 'tool' : 'user';
  return body.messages.at(-1).role;
}

const server = createServer((req, res) => {
  const parts = [];
  req.on('data', (c) => parts.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(parts).toString('utf8'));
    const path = req.url ?? '';
    const reply = decide(agentOf(body), lastRole(path, body));
    const out = path.endsWith('/responses')
      ? formats.responses(reply)
      : path.endsWith('/messages')
        ? formats.messages(reply)
        : formats.chat(reply, body.stream === true);
    res.writeHead(200, { 'content-type': out.type });
    res.end(out.body);
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const context = (i) => ({ principal: 'user-1', episode: `bench-${i}`, locale: 'en-US', location: 'Chicago', date: '2026-11-21' });
const withApi = (api) => ({ ...bundle, models: Object.fromEntries(Object.entries(bundle.models).map(([k, m]) => [k, { ...m, api }])) });

function scripted() {
  return {
    async complete(req) {
      const r = decide(req.agent, req.messages.at(-1).role);
      return { text: r.text, toolCalls: r.calls, usage: { inputTokens: 1000, outputTokens: 10 } };
    },
  };
}

async function perTurn(label, b, llm) {
  const runtime = rt.createRuntime({ bundle: b, llm, tools: {} });
  const samples = [];
  for (let i = 0; i < WARMUP + N; i++) {
    const t0 = process.hrtime.bigint();
    const r = await runtime.turn({ agent: ROOT, message: 'points, a product and my order', context: context(i) });
    if (r.text !== 'composed') throw new Error(`${label}: unexpected answer ${JSON.stringify(r.text)}`);
    if (i >= WARMUP) samples.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  return median(samples);
}

const clients = { openai: { baseURL: `${base}/v1` }, anthropic: { baseURL: base } };
const results = [['scripted (in process)', await perTurn('scripted', bundle, scripted())]];
for (const [label, api] of [
  ['OpenAI Chat Completions', 'openai-chat'],
  ['OpenAI Responses', 'openai-responses'],
  ['Anthropic Messages', 'anthropic-messages'],
]) {
  results.push([label, await perTurn(label, withApi(api), rt.createProviderClient(clients))]);
}
const baseline = results[0][1];
for (const [label, us] of results) {
  console.log(
    `provider overhead per turn, ${label}: ${Math.round(us)} µs (median of ${N}; ${(us / baseline).toFixed(1)}× scripted; 5 model calls per turn, zero-latency mock on 127.0.0.1 in the same process)`,
  );
}

// 2. Cold start.
const coldScript = (mode) => `
const t0 = performance.now();
const rt = await import(${JSON.stringify(join(root, 'dist/runtime/index.js'))});
const { readFileSync } = await import('node:fs');
const bundle = JSON.parse(readFileSync(${JSON.stringify(join(root, 'generated/bundle.json'))}, 'utf8'));
const decide = (agent, role) => agent === ${JSON.stringify(ROOT)} && role === 'user'
  ? { text: '', toolCalls: ${JSON.stringify(FAN_OUT)}.map((a, i) => ({ id: 'c' + i, name: 'ask_' + a, arguments: JSON.stringify({ query: a, intent_count: 3 }) })), usage: { inputTokens: 1, outputTokens: 1 } }
  : { text: agent === ${JSON.stringify(ROOT)} ? 'composed' : 'ok', toolCalls: [], usage: { inputTokens: 1, outputTokens: 1 } };
const llm = ${mode === 'scripted' ? `{ async complete(req) { return decide(req.agent, req.messages.at(-1).role); } }` : `rt.createProviderClient({ openai: { baseURL: ${JSON.stringify(`${base}/v1`)} }, anthropic: { baseURL: ${JSON.stringify(base)} } })`};
const b = ${mode === 'scripted' ? 'bundle' : `{ ...bundle, models: Object.fromEntries(Object.entries(bundle.models).map(([k, m]) => [k, { ...m, api: 'openai-responses' }])) }`};
const r = await rt.createRuntime({ bundle: b, llm, tools: {} }).turn({ agent: ${JSON.stringify(ROOT)}, message: 'hi', context: { principal: 'u', episode: 'e' } });
if (r.text !== 'composed') process.exit(3);
console.log(performance.now() - t0);
`;
function cold(mode) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--input-type=module', '-e', coldScript(mode)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('exit', (code) =>
      code === 0 ? resolve({ wall: performance.now() - t0, inside: Number(out.trim()) }) : reject(new Error(`cold start ${mode}: exit ${code}`)),
    );
  });
}
const cs = { scripted: [], responses: [] };
for (let i = 0; i < COLD_RUNS; i++) for (const mode of i % 2 ? ['responses', 'scripted'] : ['scripted', 'responses']) cs[mode].push(await cold(mode));
for (const [mode, runs] of Object.entries(cs)) {
  console.log(
    `cold start to first turn, ${mode === 'scripted' ? 'scripted model' : 'OpenAI Responses client'}: ${Math.round(median(runs.map((r) => r.wall)))} ms process wall (import + bundle + first turn ${Math.round(median(runs.map((r) => r.inside)))} ms; median of ${COLD_RUNS})`,
  );
}
server.close();
server.closeAllConnections();
