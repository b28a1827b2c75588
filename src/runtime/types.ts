/**
 * The public types of `@agentc/runtime`. The generated `orchestrator.ts` is written
 * against exactly these names; fields may be added, never renamed or removed.
 *
 * Invariants the types encode:
 * - Nothing a model reads, and no event, ever carries raw error text: failures
 *   travel as a `FailureKind` plus a fixed plain-words message.
 * - Every model call gets an AbortSignal; every tool handler gets one too.
 */
import type {
  AnthropicTool,
  Bundle,
  BundleModel,
  BundlePrefix,
  BundlePrefixBlock,
  GuardSpec,
  HistoryPolicy,
  NeutralTool,
  OpenAITool,
  StoredBundle,
} from '../bundle/types.js';
import type { TemplateNode } from '../bundle/template/ast.js';

export type {
  AnthropicTool,
  Bundle,
  BundleModel,
  BundlePrefix,
  BundlePrefixBlock,
  GuardSpec,
  HistoryPolicy,
  NeutralTool,
  OpenAITool,
  StoredBundle,
  TemplateNode,
};
export type { GuardContext, GuardNote, QueryGuard } from './guards.js';
export type { HistorySummary, JsonValue, MetaOptions, StoreOptions, TurnRecord, TurnStore, TurnSubAgent, TurnToolResult } from './sessions/types.js';
export type { CountTokens } from './tokens.js';
import type { GuardNote, QueryGuard } from './guards.js';
import type { JsonValue, TurnRecord, TurnStore } from './sessions/types.js';
import type { CountTokens } from './tokens.js';

/** What can go wrong with one tool call or one sub-agent (docs/runtime.md step 5). */
export type FailureKind = 'timeout' | 'error' | 'budget_exceeded' | 'depth_exceeded' | 'tool_denied' | 'schema_violation' | 'data_unavailable';

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
  /**
   * `prefix` is byte-stable per cohort (cacheable); `suffix` is rendered per request.
   * `prefixSha256` is the cohort prefix's hash from the bundle (cache keys derive from it).
   */
  system: { prefix: string; suffix: string; prefixSha256?: string };
  messages: Message[];
  tools: NeutralTool[];
  /** The same tools (same names, same order) in the bundle's provider shapes. */
  toolShapes?: { openai: OpenAITool[]; anthropic: AnthropicTool[] };
  /** Epoch milliseconds (Date.now()) when the agent's time budget ends: never retry past it. */
  deadline?: number;
  parallelToolCalls: boolean;
  maxOutputTokens?: number;
  reasoningEffort?: string;
  /**
   * Sampling seed, sent where the wire API has one (Chat Completions `seed`);
   * the Responses and Anthropic Messages APIs ignore it. Set by `agentc eval --seed`.
   */
  seed?: number;
  signal: AbortSignal;
}

export interface LlmResponse {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  /** Typed status events the agent reports with this reply (scripted clients only). */
  statusEvents?: string[];
}

/**
 * One piece of a streamed reply, in the order the model produced it. A
 * `tool_call` is emitted once its arguments are complete; `usage` at most once,
 * at the end; `status` only from scripted clients.
 */
export type LlmChunk =
  { type: 'text_delta'; delta: string } | { type: 'tool_call'; call: ToolCall } | { type: 'usage'; usage: Usage } | { type: 'status'; event: string };

/**
 * A model client. `complete` is always there; `stream` is optional and, when
 * present, is what the runtime uses. Both honour `req.signal`.
 */
export interface LlmClient {
  complete(req: LlmRequest): Promise<LlmResponse>;
  stream?(req: LlmRequest): AsyncIterable<LlmChunk>;
}

/** What `RuntimeOptions.onError` is told about where a raw error happened. */
export interface ErrorInfo {
  agent: string;
  span_id: string;
  kind: 'model' | 'tool' | 'session' | 'hook';
  /** The tool, when kind is 'tool'. */
  tool?: string;
  /** The model key (in `bundle.models`), when kind is 'model' and it is known. */
  model?: string;
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
  /**
   * Reports progress while the handler works: `id` must be one of the status
   * events this tool's contract declares (others are dropped). The user sees the
   * orchestrator's rendering of it, at most once per turn per id.
   */
  emitStatus(id: string): void;
  /**
   * The episode's metadata (e.g. a vendor's conversation id), shared by every
   * turn and runtime on the same session store. Set by the runtime.
   */
  session?: {
    get(key: string): Promise<JsonValue | undefined>;
    /** `undefined` deletes; `ttlMs` expires this key (e.g. a 55-minute vendor window). */
    set(key: string, value: JsonValue | undefined, options?: { ttlMs?: number }): Promise<void>;
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-redundant-type-constituents -- `any` lets a handler declare its own args type; the union says a handler may be sync or async
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
  at_ms: number;
  /** The agent that reported the event. */
  agent: string;
  /** The span of the agent that reported it (the turn's span for the root). */
  span_id: string;
  /** The typed event id (e.g. `looking_up_points`). */
  event: string;
  /** The orchestrator's rendering of it. */
  text: string;
}

/** The complete user-visible text of the turn (every `text_delta`, in order). */
export interface TextEvent {
  type: 'text';
  at_ms: number;
  agent: string;
  text: string;
}

/** A principal mismatch (docs/runtime.md#envelopes-and-principals): alert-worthy, carries no payload. */
export interface SecurityEvent {
  type: 'security';
  at_ms: number;
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
  at_ms: number;
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
  /**
   * Every change a query guard made to the root's sub-agent calls, in order.
   * Present when the root declares `dispatch.guards` or the service added guards.
   */
  guards?: GuardNote[];
  started_ms: number;
  ended_ms: number;
}

/** The turn began. `span_id` is the turn's (root agent's) span. */
export interface TurnStartEvent {
  type: 'turn_start';
  at_ms: number;
  agent: string;
  trace_id: string;
  span_id: string;
  /** The caller's span, from `TurnRequest.traceparent` (telemetry makes it the turn span's parent). */
  parent_span_id?: string;
}

/** Text the user sees, as it arrives. `agent` is whose words these are (a sub-agent's in relay mode). */
export interface TextDeltaEvent {
  type: 'text_delta';
  at_ms: number;
  agent: string;
  delta: string;
}

/** A sub-agent invocation began (`tool` is the `ask_*` name the parent's model called). */
export interface AgentStartEvent {
  type: 'agent_start';
  at_ms: number;
  agent: string;
  span_id: string;
  parent_span_id: string;
  tool: string;
  tool_call_id: string;
}

/** A sub-agent invocation ended; `usage` covers its own model calls and its nested sub-agents'. */
export interface AgentEndEvent {
  type: 'agent_end';
  at_ms: number;
  agent: string;
  span_id: string;
  outcome: Outcome;
  usage: Usage;
  /** Present when every model it used declares pricing. */
  cost_usd?: number;
}

/** One call to a model began (`span_id` is the calling agent's span; `call_id` is unique in the turn). */
export interface ModelStartEvent {
  type: 'model_start';
  at_ms: number;
  agent: string;
  span_id: string;
  call_id: string;
  /** The model key in `bundle.models`. */
  model: string;
}

export interface ModelEndEvent {
  type: 'model_end';
  at_ms: number;
  agent: string;
  span_id: string;
  call_id: string;
  model: string;
  outcome: Outcome;
  usage: Usage;
  cost_usd?: number;
}

/** A (non-agent) tool call began, on behalf of `agent`. */
export interface ToolStartEvent {
  type: 'tool_start';
  at_ms: number;
  agent: string;
  tool: string;
  tool_call_id: string;
  span_id: string;
}

export interface ToolEndEvent {
  type: 'tool_end';
  at_ms: number;
  agent: string;
  tool: string;
  tool_call_id: string;
  span_id: string;
  outcome: Outcome;
}

/** Always the last event of a turn, whatever happened. */
export interface TurnEndEvent {
  type: 'turn_end';
  at_ms: number;
  agent: string;
  trace_id: string;
  /** 'ok', or why the root could not answer ('error', 'timeout', … or 'cancelled'). */
  outcome: Outcome | 'cancelled';
  usage: Usage;
  cost_usd?: number;
}

export type RuntimeEvent =
  | TurnStartEvent
  | TextDeltaEvent
  | AgentStartEvent
  | AgentEndEvent
  | ModelStartEvent
  | ModelEndEvent
  | ToolStartEvent
  | ToolEndEvent
  | StatusEvent
  | TextEvent
  | SecurityEvent
  | RoutingEvent
  | TurnEndEvent;

/**
 * Per (episode, agent) history, message API only. Only an agent's own earlier
 * turns are stored under its id. A store that also implements `TurnStore`
 * (every store agentc ships) keeps layered records and episode metadata.
 */
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
  sessions?: SessionStore | TurnStore;
  /**
   * The service's own query guards, run after the root's declared ones (by
   * name, in insertion order); each change is noted in the routing event.
   */
  guards?: Record<string, QueryGuard>;
  /** Counts tokens for compaction and request budgets (default: the model's encoding via gpt-tokenizer when installed). */
  countTokens?: CountTokens;
  /** Called synchronously for every event; exceptions it throws are reported to `onError` (kind 'hook') and ignored. */
  onEvent?: (e: RuntimeEvent) => void;
  /**
   * Raw causes, for the developer only (HTTP status and provider message, network
   * errno, a handler's exception). Models never see these; exceptions it throws are ignored.
   */
  onError?: (error: unknown, info: ErrorInfo) => void;
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
  /**
   * Feature flags for this turn (they select each agent's prefix cohort); default:
   * `RuntimeOptions.flags`. Every flag must be one the bundle knows.
   */
  flags?: string[];
  /**
   * A W3C trace context header (`00-<trace-id>-<parent-id>-<flags>`): the turn
   * continues that trace (its trace id, `turn_start.parent_span_id`). A malformed
   * value is ignored, as W3C Trace Context requires: the turn starts a new trace.
   */
  traceparent?: string;
}

/**
 * What `Runtime.stream` returns: the turn's events as they happen (always ending
 * with `turn_end`), plus the turn's result. `result` settles like `turn()` does
 * (rejects with TurnError / ScriptExhaustedError); it never causes an unhandled
 * rejection when nobody awaits it. Leaving the iteration early (`break`,
 * `return()`) cancels the turn.
 */
export interface TurnStream extends AsyncIterable<RuntimeEvent> {
  readonly result: Promise<TurnResult>;
  /** Cancels the turn; the stream then ends with `turn_end` (outcome 'cancelled'). */
  cancel(): void;
}

export interface TurnResult {
  text: string;
  events: RuntimeEvent[];
  /** The root's direct sub-agents → outcome (same as the routing event's). */
  outcomes: Record<string, Outcome>;
  trace_id: string;
  /** Summed over every model call of the turn. */
  usage: Usage;
  /** The turn's cost, when every model it used declares pricing. */
  cost_usd?: number;
  /** The root's layered record of this turn, as stored (audit/replay). */
  record?: TurnRecord;
}

export interface Runtime {
  /** One turn, collected: built on `stream`. */
  turn(req: TurnRequest): Promise<TurnResult>;
  /** One turn, as its events happen. A bad request throws RuntimeUsageError at once. */
  stream(req: TurnRequest): TurnStream;
  readonly security: { readonly principalMismatches: number };
}
