/**
 * `createRuntime`: executes turns against a bundle (docs/runtime.md).
 *
 * Invariants: `stream` validates the request at once (RuntimeUsageError) and
 * starts the turn; its events arrive as they happen and the work never waits
 * for the reader; every turn emits `turn_start` first and `turn_end` last —
 * also when it fails or is cancelled (then `outcome` says why) — with exactly
 * one `routing` event right before `turn_end`; leaving the iteration early or
 * `cancel()` aborts the turn promptly; `turn` is `stream` collected: it resolves
 * with the root's answer (everything the user was shown, in order) or rejects
 * with a TurnError (the root itself could not answer), a ScriptExhaustedError
 * (the script has no reply for the root) — sub-agent failures never reject it;
 * the root's history gets the turn's layered record — narration: the user's
 * message and what the root said (its preambles and its answer, as separate
 * parts); audit: its calls, results, sub-agents and usage — only when the turn
 * succeeded (turn-memory.ts);
 * nothing is emitted after the turn settles.
 */
import type { BundleAgent } from '../bundle/types.js';
import { closest } from './did-you-mean.js';
import { runAgentLoop } from './agent-loop.js';
import { runWithBudget } from './deadline.js';
import { EventQueue } from './event-queue.js';
import { EventSink } from './events.js';
import { AgentFailure, RuntimeUsageError, TurnError } from './failure.js';
import { createRandomIds } from './ids.js';
import { fanOutCap } from './plan.js';
import { createSchemaValidator } from './schema.js';
import { newFrame, type Frame, type TurnState } from './state.js';
import { loadHistory } from './sub-agent.js';
import { createRuntimeMemory, notePreviousTurn, recordTurn, startTurnMemory } from './turn-memory.js';
import { loadBundle } from './load-bundle.js';
import { parseTraceparent } from './traceparent.js';
import { UserText } from './user-text.js';
import type { ErrorInfo, FailureKind, Message, RoutingEvent, Runtime, RuntimeEvent, RuntimeOptions, TurnRequest, TurnResult, TurnStream } from './types.js';

const INHERITED = ['principal', 'episode', 'locale', 'location'];

export function createRuntime(options: RuntimeOptions): Runtime {
  if (options.bundle === null || typeof options.bundle !== 'object' || options.bundle.agents === null || typeof options.bundle.agents !== 'object') {
    throw new RuntimeUsageError(
      'createRuntime needs a bundle with agents (generated/bundle.ts, readBundle("generated/bundle.json") or compile({ bundle: true })).',
    );
  }
  // A bundle.json parsed by the caller is loaded here; an unknown format version is a BundleLoadError.
  const bundle = loadBundle(options.bundle);
  const security = { principalMismatches: 0 };
  const validator = createSchemaValidator();
  const memory = createRuntimeMemory(options);
  const sessions = memory.store;
  const ids = options.ids ?? createRandomIds();
  const clock = options.clock ?? (() => performance.now());
  const limits = { maxRounds: options.limits?.maxRounds ?? 16, maxDepth: options.limits?.maxDepth ?? 8 };
  const defaultFlags = [...(options.flags ?? [])];

  const reportError = (error: unknown, info: ErrorInfo): void => {
    if (options.onError === undefined) return;
    try {
      options.onError(error, info);
    } catch {
      // The developer's error hook cannot break a turn either.
    }
  };

  function stream(req: TurnRequest): TurnStream {
    const { root, flags } = checkRequest(req);
    const cancel = new AbortController();
    const queue = new EventQueue(() => cancel.abort(new Error('the stream was closed')));
    const result = runTurn(req, root, flags, (e) => queue.push(e), cancel.signal);
    // Settles like turn(); awaited or not, never unhandled. The reader is never left waiting (even on an agentc bug).
    result.then(
      () => queue.end(),
      () => queue.end(),
    );
    return {
      result,
      cancel: () => cancel.abort(new Error('cancelled')),
      [Symbol.asyncIterator]: () => queue,
    };
  }

  /** `stream`, collected (TurnResult.events are the events the stream delivered). */
  async function turn(req: TurnRequest): Promise<TurnResult> {
    const s = stream(req);
    for await (const _event of s) {
      // the sink records them
    }
    return s.result;
  }

  async function runTurn(
    req: TurnRequest,
    root: BundleAgent,
    flags: string[],
    push: ((e: RuntimeEvent) => void) | undefined,
    cancelled: AbortSignal,
  ): Promise<TurnResult> {
    const t0 = clock();
    const now = () => Math.round(clock() - t0);
    const trace = parseTraceparent(req.traceparent);
    const traceId = trace?.traceId ?? ids.traceId();
    const rootSpanId = ids.spanId();
    const sink = new EventSink({
      now,
      onEvent: options.onEvent,
      onListenerError: (e) => reportError(e, { agent: root.id, span_id: rootSpanId, kind: 'hook' }),
      push,
      rendering: root.dispatch?.status_rendering ?? {},
    });
    const inherited: Record<string, string | undefined> = {};
    for (const field of [...INHERITED, ...(bundle.dynamicContext?.fields ?? [])]) inherited[field] = req.context[field];
    const state: TurnState = {
      bundle,
      llm: options.llm,
      tools: options.tools ?? {},
      sessions,
      validator,
      flags,
      ids,
      limits,
      now,
      traceId,
      rootSpanId,
      rootAgent: root,
      context: { ...req.context },
      inherited,
      sink,
      userText: new UserText(sink),
      reportError,
      spans: [],
      usage: { inputTokens: 0, outputTokens: 0 },
      costUsd: 0,
      modelCalls: 0,
      security,
      routing: { invoked: [], intentCount: null, intentRetry: false, requested: 0, dropped: [], outcomes: {}, toolOutcomes: {} },
      memory: startTurnMemory(memory, root, req.message),
    };
    sink.emit({ type: 'turn_start', agent: root.id, trace_id: traceId, span_id: rootSpanId, ...(trace ? { parent_span_id: trace.parentId } : {}) });
    await notePreviousTurn(state); // the echo guard's view of the root's last turn (never throws)

    const finish = (outcome: FailureKind | 'cancelled' | 'ok') => {
      emitRouting(state);
      const cost = state.costUsd;
      sink.emit({ type: 'turn_end', agent: root.id, trace_id: traceId, outcome, usage: { ...state.usage }, ...(cost === null ? {} : { cost_usd: cost }) });
      sink.close();
    };

    const input: Message = { role: 'user', content: req.message };
    let failure: { kind: FailureKind | 'cancelled'; message: string } | undefined;
    const signal = req.signal === undefined ? cancelled : AbortSignal.any([req.signal, cancelled]);
    let spoken: string[] = [];
    let rootFrame: Frame | undefined;
    try {
      const out = await runWithBudget(signal, root.policy?.time_budget_ms, async (budget) => {
        const frame = (rootFrame = newFrame(root, undefined, rootSpanId, budget, { ...req.context }, root.policy?.time_budget_ms));
        frame.textOut = () => state.userText.segment(root.id);
        spoken = frame.spoken;
        return runAgentLoop(state, frame, await loadHistory(state, frame), input);
      });
      if (!out.done) {
        failure =
          out.reason === 'timeout'
            ? { kind: 'timeout', message: `The ${root.id} agent did not finish within its time budget.` }
            : { kind: 'cancelled', message: 'The turn was cancelled.' };
      }
    } catch (e) {
      if (!(e instanceof AgentFailure)) {
        finish('error');
        throw e; // ScriptExhaustedError (a script mistake) or an agentc bug
      }
      failure = { kind: e.kind, message: e.message };
    }
    if (failure !== undefined) {
      finish(failure.kind);
      throw new TurnError(failure.kind, root.id, failure.message, traceId, [...sink.events]);
    }
    const text = state.userText.text();
    // The record's narration is what the root said (its preambles and its answer); a store that cannot write loses history, not the answer.
    const record = await recordTurn(state, rootFrame!, req.message, spoken);
    sink.emit({ type: 'text', agent: root.id, text });
    finish('ok');
    const result: TurnResult = {
      text,
      events: [...sink.events],
      outcomes: sortedRecord(state.routing.outcomes),
      trace_id: traceId,
      usage: { ...state.usage },
      record,
    };
    if (state.costUsd !== null) result.cost_usd = state.costUsd;
    return result;
  }

  function checkRequest(req: TurnRequest): { root: BundleAgent; flags: string[] } {
    if (req === null || typeof req !== 'object') throw new RuntimeUsageError('turn() needs { agent, message, context }.');
    const root = Object.prototype.hasOwnProperty.call(bundle.agents, req.agent) ? bundle.agents[req.agent] : undefined;
    if (root === undefined) {
      const near = closest(String(req.agent), Object.keys(bundle.agents));
      throw new RuntimeUsageError(`Unknown agent "${String(req.agent)}".${near === undefined ? '' : ` Did you mean "${near}"?`}`);
    }
    if (typeof req.message !== 'string') throw new RuntimeUsageError('turn() needs a string message.');
    const ctx = req.context;
    if (ctx === null || typeof ctx !== 'object' || typeof ctx.principal !== 'string' || ctx.principal === '') {
      throw new RuntimeUsageError('turn() needs context.principal: the user the turn runs on behalf of.');
    }
    if (typeof ctx.episode !== 'string' || ctx.episode === '') throw new RuntimeUsageError('turn() needs context.episode.');
    if (Object.prototype.hasOwnProperty.call(ctx, 'flags') && !(bundle.dynamicContext?.fields ?? []).includes('flags')) {
      // It used to be ignored silently; flags select cohorts per request now.
      throw new RuntimeUsageError('context.flags is not a context field: pass feature flags on the request itself, as { flags: ["…"] }.');
    }
    return { root, flags: checkFlags(req.flags) };
  }

  /** A turn's flags must be flags the bundle knows (a typo would silently pick the default cohort). */
  function checkFlags(flags: unknown): string[] {
    if (flags === undefined) return defaultFlags;
    if (!Array.isArray(flags) || !flags.every((f) => typeof f === 'string')) throw new RuntimeUsageError('turn() flags must be a list of flag names.');
    const known = Array.isArray(bundle.flags) ? bundle.flags : [];
    for (const flag of flags) {
      if (known.includes(flag)) continue;
      const near = closest(flag, known);
      const list = known.length === 0 ? 'This bundle has no feature flags.' : `Known flags: ${known.join(', ')}.`;
      throw new RuntimeUsageError(`Unknown feature flag "${flag}".${near === undefined ? '' : ` Did you mean "${near}"?`} ${list}`);
    }
    return [...new Set(flags)].sort();
  }

  function emitRouting(state: TurnState): void {
    const r = state.routing;
    const limit = fanOutCap(state, state.rootAgent);
    const event: Omit<RoutingEvent, 'at_ms'> = {
      type: 'routing',
      agent: state.rootAgent.id,
      trace_id: state.traceId,
      span_id: state.rootSpanId,
      invoked: [...r.invoked],
      intent_count: r.intentCount,
      intent_retry: r.intentRetry,
      cap: { limit, requested: r.requested, dropped: [...r.dropped], behavior: r.requested < limit ? 'within' : r.requested === limit ? 'at' : 'over' },
      outcomes: sortedRecord(r.outcomes),
      tool_outcomes: sortedRecord(r.toolOutcomes),
      spans: state.spans.map((s) => ({ ...s })),
      ...(state.memory.reportGuards ? { guards: state.memory.guardNotes.map((g) => ({ ...g })) } : {}),
      started_ms: 0,
      ended_ms: state.now(),
    };
    state.sink.emit(event);
  }

  return {
    turn,
    stream,
    security: {
      get principalMismatches() {
        return security.principalMismatches;
      },
    },
  };
}

function sortedRecord<T>(r: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of Object.keys(r).sort()) Object.defineProperty(out, k, { value: r[k], enumerable: true, writable: true, configurable: true });
  return out;
}
