/**
 * Conversation memory inside a turn: loading an agent's history (compacting it
 * when its policy says so), writing the turn's layered record, fitting each
 * request into `policy.token_budget.input`, the root's query guards, and the
 * per-episode metadata handle tools get through `ToolContext.session`.
 *
 * Invariants: a store failure never fails a turn (history is lost, not the
 * answer; the cause goes to `onError` as kind 'session'); a summarizer failure
 * never fails a turn (the view falls back to the kept turns) — the summarizer
 * is one more model call of the agent (model-call.ts: model_start/model_end,
 * usage and cost charged to its frame, the cause to `onError`); models only
 * ever read `narrationView`; a service guard that throws changes nothing (the
 * cause goes to `onError` as kind 'hook').
 */
import type { BundleAgent } from '../bundle/types.js';
import { selectPrefix } from './cohort.js';
import { AgentFailure } from './failure.js';
import { callModel } from './model-call.js';
import { echoGuard, overlapGuard, runGuards, verbatimGuard, type GuardContext, type GuardNote, type QueryGuard } from './guards.js';
import { DEFAULT_KEEP_LAST_TURNS, messagesTokens, narrationView, planCompaction, summaryInstructions, summaryPrompt, trimToBudget } from './history.js';
import { createMemorySessionStore } from './sessions/memory.js';
import {
  emptyRecord,
  recordsFromMessages,
  SUMMARY_META_PREFIX,
  type HistorySummary,
  type JsonValue,
  type TurnRecord,
  type TurnStore,
} from './sessions/types.js';
import type { Frame, TurnState } from './state.js';
import { renderAgentSuffix } from './template.js';
import { createTokenCounters, type CountTokens, type TokenCounter, type TokenCounters } from './tokens.js';
import type { BundleModel, LlmRequest, Message, SessionStore, ToolCall, ToolContext } from './types.js';

/** What lasts for the runtime's lifetime. */
export interface RuntimeMemory {
  store: TurnStore;
  counters: TokenCounters;
  guards: [string, QueryGuard][];
}

/** What one turn knows about memory. */
export interface TurnMemory extends RuntimeMemory {
  userMessage: string;
  /** The root's previous turn (for the echo guard). */
  previous?: { handledBy: string[]; answer: string };
  guardNotes: GuardNote[];
  /** Whether the routing event reports guards (the root declares some, or the service added some). */
  reportGuards: boolean;
}

export function createRuntimeMemory(options: {
  sessions?: SessionStore | TurnStore;
  guards?: Record<string, QueryGuard>;
  countTokens?: CountTokens;
}): RuntimeMemory {
  return {
    store: asTurnStore(options.sessions),
    counters: createTokenCounters(options.countTokens),
    guards: Object.entries(options.guards ?? {}),
  };
}

/** A store with only the message API (get/append) is adapted: records keep narration only, metadata lives in memory. */
export function asTurnStore(store: SessionStore | TurnStore | undefined): TurnStore {
  if (store === undefined) return createMemorySessionStore();
  const s = store as Partial<TurnStore>;
  if (typeof s.appendTurn === 'function' && typeof s.turns === 'function' && typeof s.getMeta === 'function' && typeof s.setMeta === 'function') {
    return store as TurnStore;
  }
  const meta = createMemorySessionStore();
  const legacy = store as SessionStore;
  const get = async (episode: string, agent: string) => {
    const h = await legacy.get(episode, agent);
    return Array.isArray(h) ? h : [];
  };
  return {
    get,
    append: async (episode, agent, messages) => legacy.append(episode, agent, messages),
    appendTurn: async (episode, agent, r) => legacy.append(episode, agent, narrationView([r], undefined, false)),
    turns: async (episode, agent, from = 0) => recordsFromMessages(`${episode}.${agent}`, await get(episode, agent)).slice(Math.max(0, from)),
    getMeta: (episode, key) => meta.getMeta(episode, key),
    setMeta: (episode, key, value, o) => meta.setMeta(episode, key, value, o),
    close: async () => {},
  };
}

export function startTurnMemory(rt: RuntimeMemory, root: BundleAgent, userMessage: string): TurnMemory {
  return {
    ...rt,
    userMessage,
    guardNotes: [],
    reportGuards: rt.guards.length > 0 || Object.values(root.dispatch?.guards ?? {}).some((v) => v === true),
  };
}

/** For the echo guard: the root's previous turn of this episode (read only when the root declares `echo`). */
export async function notePreviousTurn(turn: TurnState): Promise<void> {
  const root = turn.rootAgent;
  if (root.dispatch?.guards?.echo !== true) return;
  try {
    const last = (await turn.memory.store.turns(turn.context.episode, root.id)).at(-1);
    if (last !== undefined) turn.memory.previous = { handledBy: [...last.handled_by], answer: last.narration.assistant };
  } catch (e) {
    report(turn, e, root.id, turn.rootSpanId);
  }
}

function report(turn: TurnState, error: unknown, agent: string, spanId: string): void {
  turn.reportError(error, { agent, span_id: spanId, kind: 'session' });
}

const summaryKey = (agent: string) => `${SUMMARY_META_PREFIX}${agent}`;
const windowKey = (agent: string) => `agentc.window.${agent}`;

function readSummary(v: JsonValue | undefined): HistorySummary | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  return typeof v.text === 'string' && typeof v.covers === 'number' ? { text: v.text, covers: v.covers } : undefined;
}

function modelEntry(turn: TurnState, id: string): (BundleModel & { id: string }) | undefined {
  const m = Object.prototype.hasOwnProperty.call(turn.bundle.models, id) ? turn.bundle.models[id] : undefined;
  return m === undefined ? undefined : { ...m, id };
}

/**
 * The history `agent` reads this turn. With a `history` policy, a view over
 * `max_tokens` first folds its older turns into the rolling summary (written
 * by `summary_model`, stored in the episode metadata).
 */
export async function loadAgentHistory(turn: TurnState, frame: Frame): Promise<Message[]> {
  const agent = frame.agent;
  const spanId = frame.spanId;
  const mem = turn.memory;
  const episode = turn.context.episode;
  const orchestrator = agent.sub_agents.length > 0;
  // Only the turns the stored summary does not cover are read; `covers` below is relative to them.
  let records: TurnRecord[];
  let from = 0;
  let summary: HistorySummary | undefined;
  try {
    const stored = agent.history === undefined ? undefined : readSummary(await mem.store.getMeta(episode, summaryKey(agent.id)));
    const window = agent.history === undefined ? await mem.store.getMeta(episode, windowKey(agent.id)) : undefined;
    from = stored?.covers ?? (typeof window === 'number' && window > 0 ? window : 0);
    records = await mem.store.turns(episode, agent.id, from);
    if (stored !== undefined) summary = { text: stored.text, covers: 0 };
  } catch (e) {
    report(turn, e, agent.id, spanId);
    return [];
  }
  const policy = agent.history;
  let view = narrationView(records, summary, orchestrator);
  if (records.length === 0) return view;
  const model = modelEntry(turn, agent.model);
  if (model === undefined) return view;
  const count = await mem.counters.forModel(model);
  if (policy === undefined) return budgetWindow(turn, agent, records, from, count, orchestrator, spanId);
  const plan = planCompaction(records, summary, policy, messagesTokens(view, count));
  if (plan === undefined) return view;
  const text = await summarize(turn, frame, summary?.text ?? '', plan.fold);
  if (text === undefined) {
    // No summary this time: the model reads the kept turns only.
    const keep = Math.max(0, policy.keep_last_turns ?? DEFAULT_KEEP_LAST_TURNS);
    return narrationView(records.slice(Math.max(0, records.length - keep)), summary, orchestrator);
  }
  try {
    await mem.store.setMeta(episode, summaryKey(agent.id), { text, covers: from + plan.covers });
  } catch (e) {
    report(turn, e, agent.id, spanId);
  }
  view = narrationView(records, { text, covers: plan.covers }, orchestrator);
  return view;
}

/**
 * Without a history policy: the newest turns whose narration fits what the
 * prompt leaves of `token_budget.input`. The window's start only moves
 * forward (turns are only added), so it is stored (`agentc.window.<agent>`)
 * and later turns read from there: a long episode costs its window, not its length.
 */
async function budgetWindow(
  turn: TurnState,
  agent: BundleAgent,
  records: TurnRecord[],
  from: number,
  count: TokenCounter,
  orchestrator: boolean,
  spanId: string,
): Promise<Message[]> {
  const budget = agent.policy?.token_budget?.input;
  if (budget === undefined) return narrationView(records, undefined, orchestrator);
  const prefix = selectPrefix(agent, turn.flags);
  let room = budget - (prefix?.tokens ?? 0);
  let cut = records.length;
  while (cut > 0) {
    const cost = messagesTokens(narrationView([records[cut - 1]], undefined, orchestrator), count);
    if (cost > room) break;
    room -= cost;
    cut--;
  }
  if (cut > 0) {
    try {
      await turn.memory.store.setMeta(turn.context.episode, windowKey(agent.id), from + cut);
    } catch (e) {
      report(turn, e, agent.id, spanId);
    }
  }
  return narrationView(records.slice(cut), undefined, orchestrator);
}

/**
 * One call of the summary model, through the agent's own model-call path (its
 * events, usage and cost); undefined when it failed. A script without
 * `<agent>:summary` replies rejects the turn at the root (like any script
 * mistake there) and fails a sub-agent's summary only.
 */
async function summarize(turn: TurnState, frame: Frame, previous: string, fold: TurnRecord[]): Promise<string | undefined> {
  const agent = frame.agent;
  const policy = agent.history!;
  const modelId = policy.summary_model ?? agent.model;
  const model = modelEntry(turn, modelId);
  if (model === undefined) return undefined;
  const maxOut = Math.max(64, Math.floor(policy.max_tokens / 4));
  const request = (): LlmRequest => {
    const req: LlmRequest = {
      agent: `${agent.id}:summary`,
      model,
      system: { prefix: summaryInstructions(Math.max(40, Math.floor(maxOut * 0.6))), suffix: '' },
      messages: [{ role: 'user', content: summaryPrompt(previous, fold) }],
      tools: [],
      toolShapes: { openai: [], anthropic: [] },
      parallelToolCalls: false,
      maxOutputTokens: maxOut,
      signal: frame.signal,
    };
    if (frame.deadline !== undefined) req.deadline = frame.deadline;
    return req;
  };
  try {
    const reply = await callModel(turn, frame, [], { request, model: modelId });
    const text = reply.text.trim();
    return text === '' ? undefined : text;
  } catch (e) {
    // The cause already went to onError; out of time is the turn's problem, not the summary's.
    if (!(e instanceof AgentFailure) || frame.signal.aborted) throw e;
    return undefined;
  }
}

/**
 * The messages of one request, fitted into `policy.token_budget.input`: the
 * oldest history turns go first; the current turn is never cut.
 */
export async function fitRequest(turn: TurnState, frame: Frame, messages: readonly Message[]): Promise<readonly Message[]> {
  const budget = frame.agent.policy?.token_budget?.input;
  const historyLength = frame.historyLength ?? 0;
  if (budget === undefined || historyLength === 0) return messages;
  const model = modelEntry(turn, frame.model.current);
  if (model === undefined) return messages;
  const count = await turn.memory.counters.forModel(model);
  const prefix = selectPrefix(frame.agent, turn.flags);
  // The prefix was counted at compile time (bundle), with this agent's model's encoding.
  const fixed =
    (prefix?.tokens ?? count(prefix?.text ?? '')) + count(renderAgentSuffix(frame.agent, frame.suffixContext, turn.bundle.dynamicContext?.fields ?? []));
  const { messages: fitted, dropped } = trimToBudget(messages, historyLength, fixed, budget, count);
  if (dropped > 0) {
    frame.historyLength = historyLength - dropped;
    if (frame.transcript !== undefined) frame.transcript.splice(0, dropped);
  }
  return fitted;
}

/** The root's sub-agent calls after its declared guards and the service's own (noted for the routing event). */
export function guardCalls(turn: TurnState, frame: Frame, calls: ToolCall[]): { calls: ToolCall[]; dropped: ToolCall[] } {
  const mem = turn.memory;
  const spec = frame.agent.dispatch?.guards ?? {};
  const guards: [string, QueryGuard][] = [];
  if (spec.echo === true) guards.push(['echo', echoGuard]);
  if (spec.overlap === true) guards.push(['overlap', overlapGuard]);
  if (spec.verbatim === true) guards.push(['verbatim', verbatimGuard]);
  for (const [name, g] of mem.guards) {
    guards.push([
      name,
      (cs, ctx) => {
        try {
          const out = g(cs, ctx);
          return Array.isArray(out) ? out.filter((c) => c !== null && typeof c === 'object' && typeof c.name === 'string') : cs;
        } catch (e) {
          turn.reportError(e, { agent: frame.agent.id, span_id: frame.spanId, kind: 'hook' });
          return cs;
        }
      },
    ]);
  }
  if (guards.length === 0) return { calls, dropped: [] };
  const ctx = guardContext(turn, frame);
  ctx.modelSubAgentCalls = calls.filter((c) => ctx.subAgents[c.name] !== undefined).length;
  const run = runGuards(calls, ctx, guards);
  mem.guardNotes.push(...run.notes);
  return { calls: run.calls, dropped: run.dropped };
}

function guardContext(turn: TurnState, frame: Frame): GuardContext {
  const subAgents: GuardContext['subAgents'] = {};
  const table = frame.agent.dispatch?.table ?? {};
  for (const [tool, entry] of Object.entries(table)) {
    if (entry.kind !== 'sub_agent') continue;
    const target = turn.bundle.agents[entry.agent];
    const props = (target?.input?.properties ?? {}) as Record<string, unknown>;
    (subAgents as Record<string, { agent: string; query: boolean }>)[tool] = {
      agent: entry.agent,
      query: Object.prototype.hasOwnProperty.call(props, 'query'),
    };
  }
  const ctx: GuardContext = { userMessage: turn.memory.userMessage, subAgents };
  if (turn.memory.previous !== undefined) ctx.previous = turn.memory.previous;
  return ctx;
}

/** The tool result a guard-dropped call gets (the model reads it; nothing ran). */
export function guardDroppedContent(): string {
  return JSON.stringify({ ok: false, skipped: 'query_guard', message: 'Not run: this request did not match what the user asked.' });
}

/**
 * Builds and appends the layered record of one agent's turn; never throws.
 * `answer`: what the agent said — the root's segments as the user saw them
 * (preambles, then the answer), a sub-agent's answer.
 */
export async function recordTurn(turn: TurnState, frame: Frame, user: string, answer: string | readonly string[]): Promise<TurnRecord> {
  const transcript = frame.transcript ?? [];
  const own = transcript.slice((frame.historyLength ?? 0) + 1);
  const record = emptyRecord(frame.isRoot ? turn.traceId : `${turn.traceId}.${frame.spanId}`, user, answer);
  for (const m of own) {
    if (m.role === 'assistant') record.tool_calls.push(...(m.toolCalls ?? []).map((c) => ({ ...c })));
    else if (m.role === 'tool') record.tool_results.push({ tool_call_id: m.toolCallId, name: m.name, content: m.content });
  }
  for (const s of turn.spans) {
    if (s.parent_span_id === frame.spanId) record.sub_agents.push({ agent: s.agent, tool: s.tool, outcome: s.outcome });
  }
  record.handled_by = [...new Set(record.sub_agents.map((s) => s.agent))];
  // The frame's usage includes its nested sub-agents' (state.ts chargeModel).
  record.usage = { ...frame.usage };
  try {
    await turn.memory.store.appendTurn(turn.context.episode, frame.agent.id, record);
  } catch (e) {
    report(turn, e, frame.agent.id, frame.spanId);
  }
  return record;
}

/** The per-episode metadata handle a tool handler gets as `ctx.session`. */
export function sessionHandle(turn: TurnState): NonNullable<ToolContext['session']> {
  const { store } = turn.memory;
  const episode = turn.context.episode;
  return {
    get: (key) => store.getMeta(episode, key),
    set: (key, value, options) => store.setMeta(episode, key, value, options),
  };
}
