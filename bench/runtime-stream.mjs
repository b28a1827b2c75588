#!/usr/bin/env node
// Streaming runtime benchmarks (run `npm run build` first): imports dist/runtime/index.js
// and compiles this repository's example workspace with dist/compile.js.
//
// 1. Time to first text_delta: from the moment a zero-latency streaming model yields
//    its first chunk to the moment the reader of `runtime.stream()` holds the
//    matching `text_delta` event — the runtime's own latency on the hot path.
// 2. Per-turn overhead, the same fan-out turn as bench/runtime.mjs (3 sub-agents,
//    5 model calls, instant models), in three modes interleaved round by round:
//      turn/complete   turn() with a client that only has complete() (today's path)
//      turn/stream     turn() with a streaming client (collects stream())
//      stream          stream() read event by event, streaming client
//    Each round times every mode over the same number of turns; the figures are
//    medians of the per-round medians, and the ratios are taken within the run.
import { exampleBundle, runtime } from './example-bundle.mjs';

const { createRuntime } = runtime;
const bundle = await exampleBundle('bench/runtime-stream');
const ROOT = 'fetch_assistant';
const FAN_OUT = ['rewards', 'shop', 'support'];
const usage = { inputTokens: 0, outputTokens: 0 };
const ANSWER = 'You have 12,400 points and cold brew starts at $6.99.';

/** The reply bench/runtime.mjs's model gives: route on the user's turn, compose after results. */
function reply(req, n) {
  const last = req.messages.at(-1);
  if (req.agent === ROOT) {
    if (last.role === 'tool') return { text: ANSWER, toolCalls: [], usage };
    return {
      text: 'Let me check.',
      toolCalls: FAN_OUT.map((a) => ({ id: `c${n()}`, name: `ask_${a}`, arguments: JSON.stringify({ query: `about ${a}`, intent_count: FAN_OUT.length }) })),
      usage,
    };
  }
  return { text: `${req.agent} answer`, toolCalls: [], usage };
}

function client({ streaming, onFirstChunk }) {
  let id = 0;
  const n = () => ++id;
  const c = { complete: async (req) => reply(req, n) };
  if (streaming) {
    c.stream = async function* (req) {
      const r = reply(req, n);
      const words = r.text.match(/\S+\s*/g) ?? [];
      for (const [i, w] of words.entries()) {
        if (i === 0 && req.agent === ROOT) onFirstChunk?.();
        yield { type: 'text_delta', delta: w };
      }
      for (const call of r.toolCalls) yield { type: 'tool_call', call };
      yield { type: 'usage', usage: r.usage };
    };
  }
  return c;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const context = (i) => ({ principal: 'user-1', episode: `bench-${i}`, locale: 'en-US', location: 'Chicago', date: '2026-11-21' });
const request = (i) => ({ agent: ROOT, message: 'points, a product and my order', context: context(i) });

// 1. Time to first text_delta.
{
  let chunkAt = 0;
  const runtime = createRuntime({ bundle, llm: client({ streaming: true, onFirstChunk: () => void (chunkAt = chunkAt || performance.now()) }), tools: {} });
  const samples = [];
  for (let i = 0; i < 2300; i++) {
    chunkAt = 0;
    let seen = 0;
    for await (const e of runtime.stream(request(`ttft-${i}`))) {
      if (e.type === 'text_delta' && seen === 0) seen = performance.now();
    }
    if (i >= 300) samples.push((seen - chunkAt) * 1000);
  }
  console.log(
    `stream time to first text_delta after the model's first chunk: ${median(samples).toFixed(1)} µs (median of ${samples.length}; zero-latency streaming model)`,
  );
}

// 2. Per-turn overhead: turn()/complete vs turn()/stream vs stream(), interleaved.
{
  const modes = {
    'turn/complete': { runtime: createRuntime({ bundle, llm: client({ streaming: false }), tools: {} }), run: (rt, i) => rt.turn(request(i)) },
    'turn/stream': { runtime: createRuntime({ bundle, llm: client({ streaming: true }), tools: {} }), run: (rt, i) => rt.turn(request(i)) },
    stream: {
      runtime: createRuntime({ bundle, llm: client({ streaming: true }), tools: {} }),
      run: async (rt, i) => {
        for await (const _e of rt.stream(request(i))) {
          // read every event
        }
      },
    },
  };
  const ROUNDS = 5;
  const PER_ROUND = 600;
  const WARMUP = 200;
  const perRound = Object.fromEntries(Object.keys(modes).map((m) => [m, []]));
  for (const [name, m] of Object.entries(modes)) for (let i = 0; i < WARMUP; i++) await m.run(m.runtime, `w-${name}-${i}`);
  for (let round = 0; round < ROUNDS; round++) {
    const names = Object.keys(modes);
    const order = names.map((_, k) => names[(k + round) % names.length]);
    for (const name of order) {
      const m = modes[name];
      const samples = [];
      for (let i = 0; i < PER_ROUND; i++) {
        const t0 = process.hrtime.bigint();
        await m.run(m.runtime, `${name}-${round}-${i}`);
        samples.push(Number(process.hrtime.bigint() - t0) / 1000);
      }
      perRound[name].push(median(samples));
    }
  }
  const fig = Object.fromEntries(Object.entries(perRound).map(([k, v]) => [k, median(v)]));
  const base = fig['turn/complete'];
  console.log(
    `runtime overhead per turn: turn()/complete ${Math.round(base)} µs, turn()/stream ${Math.round(fig['turn/stream'])} µs (${(fig['turn/stream'] / base).toFixed(2)}x), ` +
      `stream() ${Math.round(fig.stream)} µs (${(fig.stream / base).toFixed(2)}x) (medians of ${ROUNDS} interleaved rounds × ${PER_ROUND} turns; fan-out of 3, 5 model calls; the figure recorded for turn() before streaming was 150 µs on bench/runtime.mjs)`,
  );
}
