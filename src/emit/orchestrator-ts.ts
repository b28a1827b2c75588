/**
 * generated/orchestrator.ts: the typed entry a service calls. It binds the
 * runtime library to this bundle: `tools` must be a complete `ToolHandlers`
 * (every tool contract the cards use, with its argument type), `agent` an
 * `AgentId`, `flags` a `FlagName[]`.
 *
 * The runtime's own option types are generic over any bundle; the generated
 * `bundle` is a deeply readonly `as const` literal and `ToolHandlers` is typed
 * per tool, so both are handed over through the runtime's declared option types
 * (the narrowing already happened at this module's public surface).
 */
import type { Bundle } from '../bundle/types.js';
import { GENERATED_HEADER } from './bundle-ts.js';
import { entryAgent } from './entry-agent.js';

/** `entry`: the bundle's entryAgent (the text depends on nothing else). */
export function renderOrchestratorTs(bundle: Bundle, entry: string | undefined = entryAgent(bundle)): string {
  const agentDoc = entry
    ? `  /** The agent that receives the message; default: ${JSON.stringify(entry)} (the entry orchestrator). */\n  agent?: AgentId;\n`
    : `  /** The agent that receives the message (this bundle has no single entry orchestrator). */\n  agent: AgentId;\n`;
  const defaultAgent = entry
    ? `/** Where a turn goes when the request names no agent. */\nexport const DEFAULT_AGENT: AgentId = ${JSON.stringify(entry)};\n\n`
    : '';
  const agentExpr = entry ? 'req.agent ?? DEFAULT_AGENT' : 'req.agent';

  return `${GENERATED_HEADER}/* eslint-disable */
import { createRuntime } from '@agentc/runtime';
import type { ErrorInfo, LlmClient, QueryGuard, RuntimeEvent, SessionStore, TurnContext, TurnResult, TurnStore, TurnStream } from '@agentc/runtime';
import { bundle } from './bundle.js';
import type { AgentId, FlagName, ToolHandlers } from './bundle.js';

export interface OrchestratorOptions {
  /** Model access (the OpenAI-compatible client, the scripted client, or your own). */
  llm: LlmClient;
  /** One handler per tool contract: a tool added to a card is a compile error here until implemented. */
  tools: ToolHandlers;
  /** Per-agent conversation histories (openSessionStore: memory, sqlite:PATH, redis://…); in memory by default. */
  sessions?: SessionStore | TurnStore;
  /** Your own query guards, run after the orchestrator's declared ones (see docs/sessions.md). */
  guards?: Record<string, QueryGuard>;
  /** Every event of every turn, synchronously, as it happens. */
  onEvent?: (event: RuntimeEvent) => void;
  /** Raw causes (provider errors, handler exceptions), for developers only. */
  onError?: (error: unknown, info: ErrorInfo) => void;
  /** Feature flags switched on by default (selects each agent's prompt cohort). */
  flags?: FlagName[];
}

export interface TurnRequest {
${agentDoc}  /** The user's message. */
  message: string;
  /** Per-request context: principal, episode, locale, location, date… */
  context: TurnContext;
  /** Cancels the turn. */
  signal?: AbortSignal;
  /** Feature flags for this turn (default: the orchestrator's \`flags\`). */
  flags?: FlagName[];
  /** W3C \`traceparent\` header: the turn continues the caller's trace. */
  traceparent?: string;
}

export interface Orchestrator {
  /** The bundle this orchestrator runs. */
  readonly bundle: typeof bundle;
  /** One user turn: route, run sub-agents concurrently, compose the answer. */
  turn(req: TurnRequest): Promise<TurnResult>;
  /** The same turn, as typed events while they happen (text deltas, statuses, spans), ending with \`turn_end\`. */
  stream(req: TurnRequest): TurnStream;
}

${defaultAgent}type RuntimeOptions = Parameters<typeof createRuntime>[0];

export function createOrchestrator(options: OrchestratorOptions): Orchestrator {
  const runtime = createRuntime({
    ...options,
    bundle: bundle as unknown as RuntimeOptions['bundle'],
    tools: options.tools as unknown as RuntimeOptions['tools'],
  });
  const request = (req: TurnRequest): Parameters<typeof runtime.turn>[0] => ({
    agent: ${agentExpr},
    message: req.message,
    context: req.context,
    ...(req.signal === undefined ? {} : { signal: req.signal }),
    ...(req.flags === undefined ? {} : { flags: req.flags }),
    ...(req.traceparent === undefined ? {} : { traceparent: req.traceparent }),
  });
  return {
    bundle,
    turn: (req) => runtime.turn(request(req)),
    stream: (req) => runtime.stream(request(req)),
  };
}
`;
}
