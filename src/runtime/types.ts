/**
 * The public types of `agentc/runtime`. The generated `orchestrator.ts` is written
 * against exactly these names; fields may be added, never renamed or removed.
 *
 * Invariants the types encode:
 * - Nothing a model reads, and no event, ever carries raw error text: failures
 *   travel as a `FailureKind` plus a fixed plain-words message.
 * - Every model call gets an AbortSignal; every tool handler gets one too.
 */
import type { Bundle, BundleModel, NeutralTool } from '../bundle/types.js';

export type { Bundle, BundleModel, NeutralTool };

/** What can go wrong with one tool call or one sub-agent (SPEC §5 step 5). */
export type FailureKind =
  | 'timeout'
  | 'error'
  | 'budget_exceeded'
  | 'depth_exceeded'
  | 'tool_denied'
  | 'schema_violation'
  | 'data_unavailable';

export type Outcome = 'ok' | FailureKind;

export interface ToolCall {
  id: string;
  name: string;
  /** JSON text, exactly as the model produced it (it may not parse). */
  arguments: string;
}

export type Message =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from the provider's prompt cache, when it reports them. */
  cachedInputTokens?: number;
}

export interface LlmRequest {
  /** The agent whose model this is (scripted clients key replies by it). */
  agent: string;
  /** The registry entry plus its key in `bundle.models`. */
  model: BundleModel & { id: string };
  /** `prefix` is byte-stable per cohort (cacheable); `suffix` is rendered per request. */
  system: { prefix: string; suffix: string };
  messages: Message[];
  tools: NeutralTool[];
  parallelToolCalls: boolean;
  maxOutputTokens?: number;
  reasoningEffort?: string;
  signal: AbortSignal;
}

export interface LlmResponse {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  /** Typed status events the agent reports with this reply (scripted clients only). */
  statusEvents?: string[];
}

export interface LlmClient {
  complete(req: LlmRequest): Promise<LlmResponse>;
}

export interface ToolContext {
  /** The turn's principal: an envelope must carry exactly this one. */
  principal: string;
  episode: string;
  /** The agent whose model called the tool. */
  agent: string;
  /** Aborted when the calling agent's time budget runs out or the turn is cancelled. */
  signal: AbortSignal;
  locale?: string;
  location?: string;
  trace_id: string;
  span_id: string;
}

export type ToolHandler = (args: any, ctx: ToolContext) => Promise<unknown> | unknown;

/** Per-request context. Dynamic fields (date, locale, …) render the suffix template. */
export interface TurnContext {
  principal: string;
  episode: string;
  locale?: string;
  location?: string;
  date?: string;
  [field: string]: string | undefined;
}

export interface StatusEvent {
  type: 'status';
  /** The agent that reported the event. */
  agent: string;
  /** The typed event id (e.g. `looking_up_points`). */
  event: string;
  /** The orchestrator's rendering of it. */
  text: string;
}

export interface TextEvent {
  type: 'text';
  agent: string;
  text: string;
}

/** A principal mismatch (SPEC §5.5): alert-worthy, carries no payload. */
export interface SecurityEvent {
  type: 'security';
  kind: 'principal_mismatch';
  agent: string;
  tool: string;
  trace_id: string;
  span_id: string;
}

export interface SpanRecord {
  agent: string;
  span_id: string;
  parent_span_id: string;
  /** The tool name the parent's model called (`ask_<agent>`). */
  tool: string;
  /** Milliseconds since the turn started (RuntimeOptions.clock). */
  started_ms: number;
  ended_ms: number;
  outcome: Outcome;
  /** The model key the span ended on (the fallback's when it was used). */
  model?: string;
  fallback: boolean;
}

export interface RoutingEvent {
  type: 'routing';
  /** The turn's root agent. */
  agent: string;
  trace_id: string;
  /** The turn's span; every direct sub-agent span has it as parent. */
  span_id: string;
  /** Sub-agents executed, in call order (an id repeats if it was asked twice). */
  invoked: string[];
  /** The largest `intent_count` the model declared; null when none was declared. */
  intent_count: number | null;
  /** Whether the runtime asked the model once more for missing calls. */
  intent_retry: boolean;
  cap: {
    limit: number;
    /** Sub-agent calls the model asked for (after the intent-count merge). */
    requested: number;
    /** Tool names of the calls not executed because of the cap. */
    dropped: string[];
    behavior: 'within' | 'at' | 'over';
  };
  /** Sub-agent id → outcome (the worst one when it was asked twice). */
  outcomes: Record<string, Outcome>;
  /** The root's own tools → outcome (the worst one when called twice). */
  tool_outcomes: Record<string, Outcome>;
  /** Every sub-agent span of the turn, nested ones included, in start order. */
  spans: SpanRecord[];
  started_ms: number;
  ended_ms: number;
}

export type RuntimeEvent = StatusEvent | TextEvent | SecurityEvent | RoutingEvent;

/** Per (episode, agent) history. Only an agent's own earlier turns are stored under its id. */
export interface SessionStore {
  get(episode: string, agent: string): Promise<Message[]> | Message[];
  append(episode: string, agent: string, messages: Message[]): Promise<void> | void;
}

export interface IdGenerator {
  /** 32 lowercase hex digits (OpenTelemetry trace id). */
  traceId(): string;
  /** 16 lowercase hex digits (OpenTelemetry span id). */
  spanId(): string;
}

export interface RuntimeLimits {
  /** Model rounds per agent invocation before it counts as budget_exceeded (default 16). */
  maxRounds?: number;
  /** Absolute nesting limit, whatever the policies say (default 8). */
  maxDepth?: number;
}

export interface RuntimeOptions {
  bundle: Bundle;
  llm: LlmClient;
  /** By tool contract name. A missing handler makes calls to that tool fail with `error`. */
  tools: Record<string, ToolHandler>;
  sessions?: SessionStore;
  /** Called synchronously for every event; exceptions it throws are ignored. */
  onEvent?: (e: RuntimeEvent) => void;
  /** Feature flags switched on; they select each agent's prefix cohort. */
  flags?: string[];
  /** Milliseconds, monotonic (default: performance.now). Only used for timestamps. */
  clock?: () => number;
  ids?: IdGenerator;
  limits?: RuntimeLimits;
}

export interface TurnRequest {
  /** The root agent of the turn (usually the orchestrator). */
  agent: string;
  message: string;
  context: TurnContext;
  signal?: AbortSignal;
}

export interface TurnResult {
  text: string;
  events: RuntimeEvent[];
  /** The root's direct sub-agents → outcome (same as the routing event's). */
  outcomes: Record<string, Outcome>;
  trace_id: string;
  /** Summed over every model call of the turn. */
  usage: Usage;
}

export interface Runtime {
  turn(req: TurnRequest): Promise<TurnResult>;
  readonly security: { readonly principalMismatches: number };
}
