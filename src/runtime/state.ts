/**
 * The state of one turn and of one agent invocation (a frame) inside it.
 *
 * Invariants: a TurnState is created per turn and never shared between turns
 * (the security counter is the runtime's, shared on purpose); a Frame is
 * created per agent invocation, its `ancestors` end with its own agent, and
 * `ancestors[i]` ran at depth i; a frame's usage and cost include every model
 * call of its own and of its nested sub-agents (`chargeModel` walks the parent
 * chain); a cost is `null` (unknown) as soon as one model used has no pricing.
 */
import type { Bundle, BundleAgent } from '../bundle/types.js';
import type { EventSink } from './events.js';
import type { SchemaValidator } from './schema.js';
import type { TextWriter, UserText } from './user-text.js';
import type { TurnMemory } from './turn-memory.js';
import type { ErrorInfo, IdGenerator, LlmClient, Message, Outcome, SessionStore, SpanRecord, ToolHandler, TurnContext, Usage } from './types.js';

export interface RoutingLog {
  invoked: string[];
  intentCount: number | null;
  intentRetry: boolean;
  requested: number;
  dropped: string[];
  outcomes: Record<string, Outcome>;
  toolOutcomes: Record<string, Outcome>;
}

export interface TurnState {
  bundle: Bundle;
  llm: LlmClient;
  tools: Record<string, ToolHandler>;
  sessions: SessionStore;
  validator: SchemaValidator;
  /** This turn's flags (the request's, else the runtime's). */
  flags: readonly string[];
  ids: IdGenerator;
  limits: { maxRounds: number; maxDepth: number };
  /** Milliseconds since the turn started. */
  now: () => number;
  traceId: string;
  rootSpanId: string;
  rootAgent: BundleAgent;
  context: TurnContext;
  /** What crosses into a sub-agent: principal, episode, locale, location and the dynamic-context fields. */
  inherited: Record<string, string | undefined>;
  sink: EventSink;
  /** Everything the user is shown. */
  userText: UserText;
  /** Hands a raw cause to `RuntimeOptions.onError` (never throws). */
  reportError: (error: unknown, info: ErrorInfo) => void;
  spans: SpanRecord[];
  usage: Usage;
  /** Null once a model without pricing was used. */
  costUsd: number | null;
  /** Model calls started so far (model_start's call_id). */
  modelCalls: number;
  security: { principalMismatches: number };
  routing: RoutingLog;
  /** History, records, budgets and query guards of this turn (turn-memory.ts). */
  memory: TurnMemory;
}

export interface Frame {
  agent: BundleAgent;
  parent: Frame | undefined;
  depth: number;
  ancestors: BundleAgent[];
  spanId: string;
  /** Aborted when this invocation's budget runs out (or an ancestor's does, or the turn is cancelled). */
  signal: AbortSignal;
  /** Epoch ms when this invocation's (or an ancestor's) time budget ends; undefined when unbounded. */
  deadline: number | undefined;
  isRoot: boolean;
  /** Renders this agent's suffix. */
  suffixContext: Record<string, string | undefined>;
  /** The model in use; switches once, to the fallback, on failure. */
  model: { current: string; fallbackUsed: boolean };
  /** Sub-agent calls executed so far (the fan-out cap counts these). */
  subAgentsRun: number;
  /** Tool and sub-agent calls executed so far (max_tool_calls counts these). */
  toolCallsUsed: number;
  /** An envelope tool came back unusable (error, malformed, principal mismatch). */
  degraded: boolean;
  /** An envelope tool came back partial. */
  partial: boolean;
  /** When this agent's words are user-visible: a writer per model reply. */
  textOut: (() => TextWriter) | undefined;
  /** The non-empty text of each of its model replies, in order (preambles, answer). */
  spoken: string[];
  usage: Usage;
  costUsd: number | null;
  /** The loop's messages (history, input, then this invocation's calls and results); set by the loop. */
  transcript?: Message[];
  /** How many of `transcript`'s first messages are history. */
  historyLength?: number;
}

export function newFrame(
  agent: BundleAgent,
  parent: Frame | undefined,
  spanId: string,
  signal: AbortSignal,
  suffixContext: Record<string, string | undefined>,
  budgetMs?: number,
): Frame {
  const own = budgetMs !== undefined && Number.isFinite(budgetMs) && budgetMs >= 0 ? Date.now() + budgetMs : undefined;
  const inherited = parent?.deadline;
  return {
    agent,
    parent,
    depth: parent === undefined ? 0 : parent.depth + 1,
    ancestors: parent === undefined ? [agent] : [...parent.ancestors, agent],
    spanId,
    signal,
    deadline: own === undefined ? inherited : inherited === undefined ? own : Math.min(own, inherited),
    isRoot: parent === undefined,
    suffixContext,
    model: { current: agent.model, fallbackUsed: false },
    subAgentsRun: 0,
    toolCallsUsed: 0,
    degraded: false,
    partial: false,
    textOut: undefined,
    spoken: [],
    usage: { inputTokens: 0, outputTokens: 0 },
    costUsd: 0,
  };
}

/** Keeps the first failure: one failed call of a sub-agent makes its outcome a failure. */
export function recordOutcome(map: Record<string, Outcome>, key: string, outcome: Outcome): void {
  // Own keys only: an agent or tool named "constructor" must not read Object.prototype's.
  const prev = Object.hasOwn(map, key) ? map[key] : undefined;
  if (prev === undefined || prev === 'ok') Object.defineProperty(map, key, { value: outcome, enumerable: true, writable: true, configurable: true });
}

export function addUsage(total: Usage, u: Usage): void {
  total.inputTokens += u.inputTokens;
  total.outputTokens += u.outputTokens;
  if (u.cachedInputTokens !== undefined) total.cachedInputTokens = (total.cachedInputTokens ?? 0) + u.cachedInputTokens;
}

export function addCost(total: number | null, cost: number | undefined): number | null {
  return total === null || cost === undefined ? null : total + cost;
}

/** Charges one model call to the turn, the frame and every ancestor frame. */
export function chargeModel(turn: TurnState, frame: Frame, usage: Usage, cost: number | undefined): void {
  addUsage(turn.usage, usage);
  turn.costUsd = addCost(turn.costUsd, cost);
  for (let f: Frame | undefined = frame; f !== undefined; f = f.parent) {
    addUsage(f.usage, usage);
    f.costUsd = addCost(f.costUsd, cost);
  }
}
