#!/usr/bin/env node
// Session store benchmarks (run `npm run build` first): imports dist/runtime/index.js and
// compiles this repository's example workspace with dist/compile.js.
//
// 1. Per-turn overhead of each store on a 200-turn episode: fetch_assistant asks one
//    specialist per turn, every model answers instantly, fetch_assistant's history policy
//    compacts as it goes; the same turns on the in-memory store, a SQLite file and a
//    Redis on loopback (a redis-server this script starts, when one is on PATH). Medians
//    of several episodes, ratios to the in-memory store measured in the same run, and
//    turns 181–200 against 101–120 (≈1x: a turn's cost stops growing with the episode).
// 2. Memory use of the in-memory store at its bound: twice `maxEpisodes` episodes of
//    10 turns (~2.2 KB of narration each) written; the heap held after GC, per episode.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exampleBundle, runtime } from './example-bundle.mjs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const rt = runtime;
const bundle = await exampleBundle('bench/sessions');
const ROOT = 'fetch_assistant';
const TURNS = 200;
const RUNS = Number(process.env.SESSIONS_BENCH_RUNS ?? 3);
const usage = { inputTokens: 0, outputTokens: 0 };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ANSWER = 'Here is what I found for you: '.padEnd(400, 'points offers receipts ');

/** Routes each user turn to rewards, composes after its result; summaries are one line. */
function client() {
  let n = 0;
  return {
    async complete(req) {
      if (req.agent.endsWith(':summary')) return { text: 'The user asked about points, offers and receipts.', toolCalls: [], usage };
      const last = req.messages.at(-1);
      if (req.agent !== ROOT) return { text: `${req.agent}: ${ANSWER}`, toolCalls: [], usage };
      if (last.role === 'tool') return { text: ANSWER, toolCalls: [], usage };
      return { text: '', toolCalls: [{ id: `c${++n}`, name: 'ask_rewards', arguments: JSON.stringify({ query: last.content, intent_count: 1 }) }], usage };
    },
  };
}

async function episode(store, id) {
  const runtime = rt.createRuntime({ bundle, llm: client(), tools: {}, sessions: store });
  const samples = [];
  for (let i = 0; i < TURNS; i++) {
    const t0 = process.hrtime.bigint();
    await runtime.turn({ agent: ROOT, message: `how many points do I have after receipt ${i}?`, context: { principal: 'user-1', episode: id } });
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  // Per-turn median, and the last 20 turns against turns 101–120: ~1x when the cost of a turn stops growing with the episode.
  return { median: median(samples), growth: median(samples.slice(-20)) / median(samples.slice(100, 120)) };
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function startRedis() {
  if (spawnSync('redis-server', ['--version']).status !== 0) return undefined;
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let i = 0; i < 200; i++) {
    const up = await new Promise((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (up) return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGTERM');
  return undefined;
}

// 1. Per-turn overhead per store.
{
  const dir = mkdtempSync(join(tmpdir(), 'agentc-bench-sessions-'));
  const redis = await startRedis();
  const stores = [
    ['memory', () => rt.createMemorySessionStore()],
    ['sqlite', () => rt.openSessionStore(`sqlite:${join(dir, 'bench.db')}`)],
  ];
  if (redis) stores.push(['redis', () => rt.openSessionStore(redis.url, { ttlMs: 55 * 60_000 })]);
  const results = Object.fromEntries(stores.map(([name]) => [name, []]));
  const growth = Object.fromEntries(stores.map(([name]) => [name, []]));
  try {
    await episode(rt.createMemorySessionStore(), 'warm-up');
    for (let run = 0; run < RUNS; run++) {
      // Rotate the order every run to spread machine noise.
      for (let k = 0; k < stores.length; k++) {
        const [name, open] = stores[(k + run) % stores.length];
        const store = await open();
        const r = await episode(store, `bench-${name}-${run}`);
        results[name].push(r.median);
        growth[name].push(r.growth);
        await store.close();
      }
    }
  } finally {
    redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const base = median(results.memory);
  for (const [name] of stores) {
    const m = median(results[name]);
    console.log(
      `session store ${name}: ${m.toFixed(2)} ms per turn on a ${TURNS}-turn episode (median of ${RUNS} episodes' per-turn medians; ${(m / base).toFixed(2)}x memory; turns 181–200 ${median(growth[name]).toFixed(2)}x turns 101–120)`,
    );
  }
  if (!redis) console.log('session store redis: skipped (no redis-server on PATH)');
}

// 2. In-memory store at its bound.
{
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  const BOUND = 1000;
  const record = (e, i) => ({
    id: `${e}-${i}`,
    narration: { user: `question ${i} `.padEnd(200, 'x'), assistant: `answer ${i} `.padEnd(2000, 'y') },
    handled_by: ['rewards'],
    tool_calls: [],
    tool_results: [],
    sub_agents: [{ agent: 'rewards', tool: 'ask_rewards', outcome: 'ok' }],
    usage,
  });
  gc();
  const before = process.memoryUsage().heapUsed;
  const store = rt.createMemorySessionStore({ maxEpisodes: BOUND });
  for (let e = 0; e < BOUND * 2; e++) for (let i = 0; i < 10; i++) await store.appendTurn(`ep-${e}`, ROOT, record(e, i));
  gc();
  const held = process.memoryUsage().heapUsed - before;
  console.log(
    `memory store at its bound: ${store.size} episodes held of ${BOUND * 2} written (maxEpisodes ${BOUND}), ${(held / 1024 / 1024).toFixed(1)} MB heap, ${(held / BOUND / 1024).toFixed(1)} KB per 10-turn episode`,
  );
}
