#!/usr/bin/env node
// Runtime benchmarks (run `npm run build` first): imports dist/runtime/index.js and
// compiles this repository's example workspace with dist/compile.js.
//
// 1. Runtime overhead per turn: fetch_assistant fans out to 3 sub-agents, every
//    model answers instantly (no latency), so the turn's wall time is the runtime's
//    own cost: prompt assembly, validation, planning, dispatch, envelopes, events.
// 2. Fan-out wall time: sub-agents whose models take 100/150/200 ms; the turn should
//    take about as long as the slowest (ratio ≈ 1.0x), not the sum (2.25x).
import { exampleBundle, runtime } from './example-bundle.mjs';

const { createRuntime } = runtime;
const bundle = await exampleBundle('bench/runtime');
const ROOT = 'fetch_assistant';
const FAN_OUT = ['rewards', 'shop', 'support'];
const usage = { inputTokens: 0, outputTokens: 0 };

/** A model that routes to FAN_OUT on the user's turn, composes after tool results; sub-agents answer after `delays[agent]` ms. */
function client(delays = {}) {
  let n = 0;
  return {
    async complete(req) {
      const last = req.messages.at(-1);
      if (req.agent === ROOT) {
        if (last.role === 'tool') return { text: 'composed', toolCalls: [], usage };
        return {
          text: '',
          toolCalls: FAN_OUT.map((a) => ({
            id: `c${++n}`,
            name: `ask_${a}`,
            arguments: JSON.stringify({ query: `about ${a}`, intent_count: FAN_OUT.length }),
          })),
          usage,
        };
      }
      const ms = delays[req.agent] ?? 0;
      if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
      return { text: `${req.agent} answer`, toolCalls: [], usage };
    },
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
const context = (i) => ({ principal: 'user-1', episode: `bench-${i}`, locale: 'en-US', location: 'Chicago', date: '2026-11-21' });

// 1. Overhead.
{
  const runtime = createRuntime({ bundle, llm: client(), tools: {} });
  const WARMUP = 300;
  const N = 3000;
  const samples = [];
  for (let i = 0; i < WARMUP + N; i++) {
    const t0 = process.hrtime.bigint();
    const r = await runtime.turn({ agent: ROOT, message: 'points, a product and my order', context: context(i) });
    const us = Number(process.hrtime.bigint() - t0) / 1000;
    if (r.text !== 'composed') throw new Error('unexpected answer');
    if (i >= WARMUP) samples.push(us);
  }
  console.log(
    `runtime overhead per turn: ${Math.round(median(samples))} µs (median of ${N}; p95 ${Math.round(p95(samples))} µs; fan-out of ${FAN_OUT.length}, zero-latency scripted model, 5 model calls per turn)`,
  );
}

// 2. Fan-out wall time vs the slowest sub-agent.
{
  const delays = { rewards: 100, shop: 150, support: 200 };
  const slowest = Math.max(...Object.values(delays));
  const runtime = createRuntime({ bundle, llm: client(delays), tools: {} });
  const RUNS = 7;
  const walls = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await runtime.turn({ agent: ROOT, message: 'points, a product and my order', context: context(`fan-${i}`) });
    walls.push(performance.now() - t0);
  }
  const wall = median(walls);
  const sum = Object.values(delays).reduce((a, b) => a + b, 0);
  console.log(
    `fan-out wall time: ${wall.toFixed(1)} ms for sub-agents of ${Object.values(delays).join('/')} ms → ${(wall / slowest).toFixed(2)}x the slowest (sequential would be ${(sum / slowest).toFixed(2)}x; median of ${RUNS})`,
  );
}
