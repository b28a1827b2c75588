/**
 * The state of one turn and of one agent invocation (a frame) inside it.
 *
 * Invariants: a TurnState is created per `turn` call and never shared between
 * turns (the security counter is the runtime's, shared on purpose); a Frame is
 * created per agent invocation, its `ancestors` end with its own agent, and
 * `ancestors[i]` ran at depth i.
 */
import type { Bundle, BundleAgent } from '../bundle/types.js';
import type { EventSink } from './events.js';
import type { SchemaValidator } from './schema.js';
import type { TurnMemory } from './turn-memory.js';
import type {
  IdGenerator,
  LlmClient,
  Message,
  Outcome,
  SessionStore,
  SpanRecord,
  ToolHandler,
  TurnContext,
  Usage,
} from './types.js';

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
  spans: SpanRecord[];
  usage: Usage;
  security: { principalMismatches: number };
  routing: RoutingLog;
  /** History, records, budgets and query guards of this turn (turn-memory.ts). */
  memory: TurnMemory;
}

export interface Frame {
  agent: BundleAgent;
  depth: number;
  ancestors: BundleAgent[];
  spanId: string;
  /** Aborted when this invocation's budget runs out (or an ancestor's does, or the turn is cancelled). */
  signal: AbortSignal;
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
  /** The loop's messages (history, input, then this invocation's calls and results); set by the loop. */
  transcript?: Message[];
  /** How many of `transcript`'s first messages are history. */
  historyLength?: number;
  /** This invocation's own model usage. */
  usage?: Usage;
}

export function newFrame(agent: BundleAgent, parent: Frame | undefined, spanId: string, signal: AbortSignal, suffixContext: Record<string, string | undefined>): Frame {
  return {
    agent,
    depth: parent === undefined ? 0 : parent.depth + 1,
    ancestors: parent === undefined ? [agent] : [...parent.ancestors, agent],
    spanId,
    signal,
    isRoot: parent === undefined,
    suffixContext,
    model: { current: agent.model, fallbackUsed: false },
    subAgentsRun: 0,
    toolCallsUsed: 0,
    degraded: false,
    partial: false,
  };
}

/** Keeps the first failure: one failed call of a sub-agent makes its outcome a failure. */
export function recordOutcome(map: Record<string, Outcome>, key: string, outcome: Outcome): void {
  const prev = map[key];
  if (prev === undefined || prev === 'ok') map[key] = outcome;
}

export function addUsage(total: Usage, u: Usage): void {
  total.inputTokens += u.inputTokens;
  total.outputTokens += u.outputTokens;
  if (u.cachedInputTokens !== undefined) total.cachedInputTokens = (total.cachedInputTokens ?? 0) + u.cachedInputTokens;
}
