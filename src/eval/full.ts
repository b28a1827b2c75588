/**
 * `agentc eval --full`: a case runs as one whole turn of the runtime (its real
 * `turn()`: routing, intent-count failsafe, query guards, fan-out cap,
 * specialists), and the handoff checks read what each sub-agent's model was
 * actually sent — after the runtime rewrote and filtered the arguments — not
 * what the orchestrator asked for.
 *
 * Invariants: built only from the runtime's public API (createRuntime, a memory
 * session store, the LlmClient contract); each run has its own runtime, store
 * and episode, so runs never share history; the case's `history` is the
 * orchestrator's earlier turns in that store; tools are not executed (no
 * handlers: a tool call gets the runtime's typed failure); a failed turn is an
 * observation with `error`, never a throw.
 */
import type { Bundle } from '../bundle/types.js';
import { createMemorySessionStore, createRuntime, type LlmClient, type LlmRequest, type Message, type RoutingEvent } from '../runtime/index.js';
import type { HandoffCall, RouteObservation } from './route.js';
import { EVAL_CONTEXT } from './route.js';
import type { EvalCase } from './suite.js';

export interface FullRunOptions {
  bundle: Bundle;
  llm: LlmClient;
  agent: string;
  case: EvalCase;
  flags: string[];
  /** Distinguishes the run's episode (suite, case, repeat). */
  episode: string;
  seed?: number;
}

export async function runFullTurn(o: FullRunOptions): Promise<RouteObservation> {
  const direct = new Set(Object.values(o.bundle.agents[o.agent]?.dispatch.table ?? {}).flatMap((e) => (e.kind === 'sub_agent' ? [e.agent] : [])));
  const received: HandoffCall[] = [];
  const llm: LlmClient = {
    complete(req) {
      const sent = o.seed === undefined ? req : { ...req, seed: o.seed };
      noteHandoff(sent, direct, received);
      return o.llm.complete(sent);
    },
  };
  const sessions = createMemorySessionStore();
  const history = (o.case.history ?? []).map((t) => ({ role: t.role, content: t.content }) as Message);
  if (history.length > 0) await sessions.append(o.episode, o.agent, history);
  const errors: string[] = [];
  const runtime = createRuntime({
    bundle: o.bundle,
    llm,
    tools: {},
    sessions,
    flags: o.flags,
    onError: (e, info) => errors.push(`${info.agent} (${info.kind}): ${e instanceof Error ? e.message : String(e)}`),
  });
  try {
    const result = await runtime.turn({
      agent: o.agent,
      message: o.case.message,
      context: { ...EVAL_CONTEXT, principal: EVAL_CONTEXT.principal!, episode: o.episode },
      flags: o.flags,
    });
    const routing = result.events.find((e): e is RoutingEvent => e.type === 'routing');
    const obs: RouteObservation = {
      agents: [...new Set(routing?.invoked ?? [])].sort(),
      handoffs: received,
      tools: Object.keys(routing?.tool_outcomes ?? {}).sort(),
      intent_count: routing?.intent_count ?? null,
      usage: result.usage,
      cost_usd: result.cost_usd,
    };
    // A turn whose orchestrator's own model call failed routed nothing: that is the run's failure, with the cause.
    const rootFailed = errors.find((e) => e.startsWith(`${o.agent} (model)`));
    if (rootFailed !== undefined && obs.agents.length === 0) obs.error = rootFailed;
    return obs;
  } catch (e) {
    return {
      agents: [],
      handoffs: received,
      intent_count: null,
      usage: { inputTokens: 0, outputTokens: 0 },
      cost_usd: undefined,
      error: errors[0] ?? (e instanceof Error ? e.message : String(e)),
    };
  } finally {
    await sessions.close();
  }
}

/**
 * A direct sub-agent's first model call of an invocation ends with the handoff
 * message the runtime built (its declared fields as JSON): that is what it received.
 */
function noteHandoff(req: LlmRequest, direct: Set<string>, into: HandoffCall[]): void {
  if (!direct.has(req.agent)) return;
  const last = req.messages[req.messages.length - 1];
  if (last?.role !== 'user') return;
  let args: Record<string, unknown> | undefined;
  try {
    const v: unknown = JSON.parse(last.content);
    args = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    args = undefined;
  }
  into.push({ agent: req.agent, args });
}
