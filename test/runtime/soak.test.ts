/**
 * Fault-injection soak: thousands of turns, 50 at a time, with a seeded chaos
 * model and chaos tools (errors, timeouts, hangs, malformed and invalid
 * arguments, unknown tools, envelope errors, mismatched principals, garbage
 * replies). Invariants checked on every turn and every model call:
 * no unhandled rejection, every turn answers, every emitted tool call gets
 * exactly one result, one routing event per turn (right before turn_end, the
 * last), and no raw error text or suppressed payload reaches any model or event.
 * The streaming soak runs the same chaos through streamed replies (failing or
 * hanging mid-stream, garbage chunks) and readers that leave or cancel: every
 * stream read to its end ends with turn_end, no delta or event carries raw
 * error text, `text` is exactly the deltas, no unhandled rejection.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  createRuntime,
  type LlmChunk,
  type LlmClient,
  type LlmRequest,
  type LlmResponse,
  type Message,
  type RuntimeEvent,
  type ToolHandler,
} from '../../src/runtime/index.js';
import { makeBundle } from './fixtures/bundle.js';

const TURNS = 3_000;
const BATCH = 50;
const FORBIDDEN = /RAW-|LEAK-/;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let unhandled = 0;
const onUnhandled = () => void unhandled++;
beforeAll(() => void process.on('unhandledRejection', onUnhandled));
afterAll(() => void process.off('unhandledRejection', onUnhandled));

/** A seeded chaos world: the model, the tools and a runtime over them. */
function chaosWorld(seed: number, streaming: boolean) {
  const rng = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];
  let n = 0;
  const raw = () => `RAW-${++n} stack at Object.<anonymous> (/srv/app.js:1:1)`;
  const hang = (signal: AbortSignal) => new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error(raw())), { once: true }));
  const violations: string[] = [];
  let modelCalls = 0;
  let mismatchesReturned = 0;

  const call = (name: string, args: unknown) => ({ id: `c${++n}`, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });
  const text = (t: string): LlmResponse => ({ text: t, toolCalls: [], usage: { inputTokens: 1, outputTokens: 1 } });
  const calls = (...c: ReturnType<typeof call>[]): LlmResponse => ({ text: '', toolCalls: c, usage: { inputTokens: 1, outputTokens: 1 } });

  function checkRequest(req: LlmRequest): void {
    modelCalls++;
    const shown = JSON.stringify([req.system, req.messages]);
    if (FORBIDDEN.test(shown)) violations.push(`${req.agent} saw ${FORBIDDEN.exec(shown)![0]}: ${shown.slice(0, 300)}`);
    // Every assistant tool call is answered by exactly one tool message, in order.
    req.messages.forEach((m: Message, i) => {
      if (m.role !== 'assistant' || !m.toolCalls?.length) return;
      const answers = req.messages.slice(i + 1, i + 1 + m.toolCalls.length);
      const ok = answers.length === m.toolCalls.length && answers.every((a, j) => a.role === 'tool' && a.toolCallId === m.toolCalls![j].id);
      if (!ok) violations.push(`${req.agent}: unanswered tool calls`);
    });
  }

  const subAgents = ['billing', 'travel', 'rewards', 'support'];
  const ownTools: Record<string, string[]> = {
    billing: ['get_invoices'],
    travel: ['search_trips', 'ask_weather'],
    rewards: ['get_points'],
    support: [],
    weather: [],
  };

  const llm: LlmClient = {
    async complete(req) {
      checkRequest(req);
      const last = req.messages.at(-1)!;
      if (req.agent === 'concierge') {
        if (last.role === 'tool') return text('composed');
        const isNotice = last.role === 'user' && last.content.startsWith('[runtime notice]');
        if (isNotice && rng() < 0.5) return text('no more');
        const k = 1 + Math.floor(rng() * 4);
        const declared = rng() < 0.3 ? k + 1 : k;
        const out = [];
        for (let i = 0; i < k; i++) {
          const r = rng();
          const agent = pick(subAgents);
          if (r < 0.06) out.push(call(`ask_${agent}`, '{"query": broken'));
          else if (r < 0.1) out.push(call(`ask_${agent}`, { query: 7, intent_count: declared }));
          else if (r < 0.13) out.push(call('ask_nobody', { query: 'x' }));
          else if (r < 0.16) out.push(call('record_feedback', { positive: rng() < 0.5 }));
          else out.push(call(`ask_${agent}`, { query: `q${n}`, intent_count: declared, ...(rng() < 0.2 ? { prior_context: 'earlier' } : {}) }));
        }
        return calls(...out);
      }
      const r = rng();
      if (last.role === 'tool') {
        if (r < 0.05) throw new Error(raw());
        if (r < 0.12 && ownTools[req.agent].length > 0) return calls(call(pick(ownTools[req.agent]), {}));
        return text(`answer from ${req.agent}`);
      }
      if (r < 0.3) return text(`answer from ${req.agent}`);
      if (r < 0.4) throw new Error(raw());
      if (r < 0.45) throw Object.assign(new Error(raw()), { timeout: true });
      if (r < 0.5) return hang(req.signal);
      if (r < 0.53) return null as unknown as LlmResponse;
      if (r < 0.56) return calls(call('not_a_tool', {}));
      if (ownTools[req.agent].length === 0) return text('plain');
      const tool = pick(ownTools[req.agent]);
      const args =
        tool === 'search_trips' ? (rng() < 0.2 ? { town: 'x' } : { city: 'Rome' }) : tool === 'ask_weather' ? { query: 'w' } : rng() < 0.1 ? '[1,2' : {};
      return calls(...Array.from({ length: 1 + Math.floor(rng() * 3) }, () => call(tool, args)));
    },
  };

  const envelopeTool: ToolHandler = async (_args, ctx) => {
    const r = rng();
    if (r < 0.35) return { status: 'ok', principal: ctx.principal, payload: { v: 1 } };
    if (r < 0.45) return { status: 'partial', principal: ctx.principal, payload: { v: 2 }, partial: [{ source: 'LEAK-partial' }] };
    if (r < 0.55) return { status: 'error', principal: ctx.principal, payload: { v: 'LEAK-error-payload' } };
    if (r < 0.65) {
      mismatchesReturned++;
      return { status: 'ok', principal: 'someone-else', payload: { v: 'LEAK-mismatch' } };
    }
    if (r < 0.75) throw new Error(raw());
    if (r < 0.8) return hang(ctx.signal);
    if (r < 0.85) return 'LEAK-not-an-envelope';
    return undefined;
  };
  const plainTool: ToolHandler = async (_args, ctx) => {
    const r = rng();
    if (r < 0.6) return { trips: 2 };
    if (r < 0.8) throw new Error(raw());
    if (r < 0.85) return hang(ctx.signal);
    return undefined;
  };

  const small = { policy: { time_budget_ms: 25 } };
  const bundle = makeBundle({
    billing: small,
    travel: { policy: { time_budget_ms: 25, max_recursion_depth: 1 } },
    rewards: small,
    support: small,
    weather: small,
    concierge: { policy: { max_recursion_depth: 2 } },
  });
  const runtime = createRuntime({
    bundle,
    llm: streaming ? chaosStream(llm, rng, raw, hang) : llm,
    // The root's own tool never hangs: only the root's (long) budget would end it, failing the turn by design.
    tools: {
      get_invoices: envelopeTool,
      get_points: envelopeTool,
      search_trips: plainTool,
      record_feedback: () => (rng() < 0.5 ? { saved: true } : Promise.reject(new Error(raw()))),
    },
  });

  return {
    runtime,
    violations,
    rng,
    stats: {
      get modelCalls() {
        return modelCalls;
      },
      get mismatchesReturned() {
        return mismatchesReturned;
      },
    },
  };
}

test(`soak: ${TURNS} chaotic turns`, async () => {
  const { runtime, violations, stats } = chaosWorld(0xa6e17c, false);
  const t0 = performance.now();
  let answered = 0;
  const tally: Record<string, number> = {};
  for (let start = 0; start < TURNS; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, TURNS - start) }, (_, i) =>
      runtime.turn({
        agent: 'concierge',
        message: `turn ${start + i}`,
        context: { principal: `user-${(start + i) % 7}`, episode: `ep-${(start + i) % 97}`, locale: 'en-US' },
      }),
    );
    for (const r of await Promise.all(batch)) {
      if (r.text === 'composed') answered++;
      for (const o of Object.values(r.outcomes)) tally[o] = (tally[o] ?? 0) + 1;
      const routing = r.events.filter((e) => e.type === 'routing');
      if (routing.length !== 1 || r.events.at(-2) !== routing[0]) violations.push('routing event missing or not right before turn_end');
      if (r.events.at(-1)?.type !== 'turn_end') violations.push('turn_end not last');
      const shown = JSON.stringify(r.events);
      if (FORBIDDEN.test(shown)) violations.push(`event leaked ${FORBIDDEN.exec(shown)![0]}`);
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 50));

  expect(violations.slice(0, 5)).toEqual([]);
  // The chaos reached every failure path the root can observe.
  expect(Object.keys(tally).sort()).toEqual(['budget_exceeded', 'data_unavailable', 'error', 'ok', 'schema_violation', 'timeout']);
  expect(unhandled).toBe(0);
  expect(answered).toBe(TURNS);
  expect(runtime.security.principalMismatches).toBeGreaterThan(0);
  expect(runtime.security.principalMismatches).toBeLessThanOrEqual(stats.mismatchesReturned);
  expect(stats.modelCalls).toBeGreaterThan(TURNS * 3);
  expect(seconds).toBeLessThan(20);
}, 60_000);

/**
 * The chaos model as a streaming client: each reply arrives word by word, and a
 * stream may also fail or hang half-way, or send chunks that are not chunks.
 */
function chaosStream(inner: LlmClient, rng: () => number, raw: () => string, hang: (signal: AbortSignal) => Promise<never>): LlmClient {
  return {
    complete: (req) => inner.complete(req),
    async *stream(req: LlmRequest): AsyncGenerator<LlmChunk> {
      const reply = await inner.complete(req);
      if (reply === null) {
        yield null as unknown as LlmChunk;
        throw new Error(raw());
      }
      const words = reply.text.match(/\S+\s*/g) ?? [];
      const r = rng();
      for (const [i, w] of words.entries()) {
        if (i === 1 && r < 0.04) throw new Error(raw());
        // Only sub-agents hang: the root's (long) budget would end the turn, failing it by design.
        if (i === 1 && r < 0.06 && req.agent !== 'concierge') await hang(req.signal);
        yield { type: 'text_delta', delta: w };
      }
      if (r > 0.97) yield { type: 'mystery', delta: raw() } as unknown as LlmChunk;
      for (const call of reply.toolCalls) yield { type: 'tool_call', call };
      yield { type: 'usage', usage: reply.usage };
    },
  };
}

const STREAM_TURNS = 1_000;

test(`soak: ${STREAM_TURNS} chaotic streaming turns, some cancelled by their reader`, async () => {
  const before = unhandled;
  const { runtime, violations, rng } = chaosWorld(0x5eed10, true);
  let ended = 0;
  let left = 0;
  const consume = async (i: number) => {
    const controller = new AbortController();
    const mode = rng();
    const s = runtime.stream({
      agent: 'concierge',
      message: `turn ${i}`,
      context: { principal: `user-${i % 7}`, episode: `sep-${i % 97}`, locale: 'en-US' },
      signal: controller.signal,
    });
    const events: RuntimeEvent[] = [];
    for await (const e of s) {
      events.push(e);
      if (mode < 0.1 && e.type === 'agent_start') break; // the reader leaves
      if (mode > 0.95 && e.type === 'agent_start') controller.abort(); // the caller cancels
    }
    const shown = JSON.stringify(events);
    if (FORBIDDEN.test(shown)) violations.push(`stream leaked ${FORBIDDEN.exec(shown)![0]}`);
    const last = events.at(-1);
    const leftEarly = mode < 0.1 && events.some((e) => e.type === 'agent_start');
    if (leftEarly) left++;
    else if (last?.type !== 'turn_end') violations.push(`stream ended with ${last?.type}`);
    else ended++;
    const deltas = events
      .filter((e) => e.type === 'text_delta')
      .map((e) => (e.type === 'text_delta' ? e.delta : ''))
      .join('');
    const text = events.find((e) => e.type === 'text');
    if (text?.type === 'text' && text.text !== deltas) violations.push('text is not the concatenated deltas');
    await s.result.catch(() => undefined);
  };
  for (let start = 0; start < STREAM_TURNS; start += BATCH) {
    await Promise.all(Array.from({ length: Math.min(BATCH, STREAM_TURNS - start) }, (_, i) => consume(start + i)));
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(violations.slice(0, 5)).toEqual([]);
  expect(unhandled).toBe(before);
  expect(ended).toBeGreaterThan(STREAM_TURNS * 0.8);
  expect(left).toBeGreaterThan(0);
}, 60_000);
