/**
 * `createRuntime`: executes turns against a bundle (SPEC §5).
 *
 * Invariants: a turn resolves with the root's answer, or rejects with a
 * TurnError (the root itself could not answer), a ScriptExhaustedError (the
 * script has no reply for the root) or a RuntimeUsageError (bad request) —
 * sub-agent failures never reject it; exactly one `routing` event is emitted per
 * turn, as the last event, also when the turn fails; the root's history gets
 * the user's message and the answer only when the turn succeeded; nothing is
 * emitted after `turn` settles.
 */
import type { BundleAgent } from '../bundle/types.js';
import { closest } from '../diagnostics/did-you-mean.js';
import { runAgentLoop } from './agent-loop.js';
import { runWithBudget } from './deadline.js';
import { EventSink } from './events.js';
import { AgentFailure, RuntimeUsageError, TurnError } from './failure.js';
import { createRandomIds } from './ids.js';
import { fanOutCap } from './plan.js';
import { createSchemaValidator } from './schema.js';
import { newFrame, type TurnState } from './state.js';
import { loadHistory } from './sub-agent.js';
import { createRuntimeMemory, recordTurn, startTurnMemory } from './turn-memory.js';
import type { FailureKind, Message, RoutingEvent, Runtime, RuntimeOptions, TurnRequest, TurnResult } from './types.js';

const INHERITED = ['principal', 'episode', 'locale', 'location'];

export function createRuntime(options: RuntimeOptions): Runtime {
  const { bundle } = options;
  if (bundle === null || typeof bundle !== 'object' || bundle.agents === null || typeof bundle.agents !== 'object') {
    throw new RuntimeUsageError('createRuntime needs a bundle with agents (generated/bundle.json or compile({ bundle: true })).');
  }
  const security = { principalMismatches: 0 };
  const validator = createSchemaValidator();
  const memory = createRuntimeMemory(options);
  const sessions = memory.store;
  const ids = options.ids ?? createRandomIds();
  const clock = options.clock ?? (() => performance.now());
  const limits = { maxRounds: options.limits?.maxRounds ?? 16, maxDepth: options.limits?.maxDepth ?? 8 };
  const flags = [...(options.flags ?? [])];

  async function turn(req: TurnRequest): Promise<TurnResult> {
    const root = checkRequest(req);
    const t0 = clock();
    const sink = new EventSink(options.onEvent, root.dispatch?.status_rendering ?? {});
    const inherited: Record<string, string | undefined> = {};
    for (const field of [...INHERITED, ...(bundle.dynamicContext?.fields ?? [])]) inherited[field] = req.context[field];
    const state: TurnState = {
      bundle, llm: options.llm, tools: options.tools ?? {}, sessions, validator, flags, ids, limits,
      now: () => Math.round(clock() - t0),
      traceId: ids.traceId(),
      rootSpanId: ids.spanId(),
      rootAgent: root,
      context: { ...req.context },
      inherited,
      sink,
      spans: [],
      usage: { inputTokens: 0, outputTokens: 0 },
      security,
      routing: { invoked: [], intentCount: null, intentRetry: false, requested: 0, dropped: [], outcomes: {}, toolOutcomes: {} },
      memory: await startTurnMemory(memory, root, req.context.episode, req.message, ''),
    };
    const input: Message = { role: 'user', content: req.message };
    let failure: { kind: FailureKind | 'cancelled'; message: string } | undefined;
    let text = '';
    let rootFrame: ReturnType<typeof newFrame> | undefined;
    try {
      const out = await runWithBudget(req.signal, root.policy?.time_budget_ms, async (signal) => {
        const frame = (rootFrame = newFrame(root, undefined, state.rootSpanId, signal, { ...req.context }));
        return runAgentLoop(state, frame, await loadHistory(state, root, frame.spanId, signal), input);
      });
      if (out.done) text = out.value;
      else failure = out.reason === 'timeout'
        ? { kind: 'timeout', message: `The ${root.id} agent did not finish within its time budget.` }
        : { kind: 'cancelled', message: 'The turn was cancelled.' };
    } catch (e) {
      if (!(e instanceof AgentFailure)) {
        emitRouting(state);
        sink.close();
        throw e; // ScriptExhaustedError (a script mistake) or an agentc bug
      }
      failure = { kind: e.kind, message: e.message };
    }
    if (failure !== undefined) {
      emitRouting(state);
      sink.close();
      throw new TurnError(failure.kind, root.id, failure.message, state.traceId, [...sink.events]);
    }
    // A store that cannot write loses history, not the answer (recordTurn never throws).
    const record = await recordTurn(state, rootFrame!, req.message, text);
    sink.emit({ type: 'text', agent: root.id, text });
    const routing = emitRouting(state);
    sink.close();
    return { text, events: [...sink.events], outcomes: { ...routing.outcomes }, trace_id: state.traceId, usage: { ...state.usage }, record };
  }

  function checkRequest(req: TurnRequest): BundleAgent {
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
    return root;
  }

  function emitRouting(state: TurnState): RoutingEvent {
    const r = state.routing;
    const limit = fanOutCap(state, state.rootAgent);
    const event: RoutingEvent = {
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
    return event;
  }

  return {
    turn,
    security: {
      get principalMismatches() {
        return security.principalMismatches;
      },
    },
  };
}

function sortedRecord<T>(r: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of Object.keys(r).sort()) out[k] = r[k];
  return out;
}
