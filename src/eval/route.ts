/**
 * The routing step: one call of the orchestrator's model with exactly the
 * system prompt (cohort prefix + rendered suffix), history and tools the
 * runtime would send, and the sub-agents its tool calls ask for.
 *
 * Invariants: built only from the runtime's public pieces (selectPrefix,
 * renderAgentSuffix, costUsd, the LlmClient contract); nothing is executed — tool
 * calls are read, not run; a failed call is an observation with `error`, never
 * a throw.
 */
import type { Bundle } from '../bundle/types.js';
import { costUsd, renderAgentSuffix, selectPrefix, type LlmClient, type LlmRequest, type Message, type Usage } from '../runtime/index.js';
import type { EvalCase } from './suite.js';

export interface HandoffCall {
  agent: string;
  /** The parsed arguments, or undefined when they were not a JSON object. */
  args: Record<string, unknown> | undefined;
}

export interface RouteObservation {
  /** Sub-agents asked, sorted, without duplicates. */
  agents: string[];
  handoffs: HandoffCall[];
  /** The orchestrator's own tools it called (not sub-agents), sorted, without duplicates. */
  tools?: string[];
  /** The first `intent_count` argument among the calls, or null. */
  intent_count: number | null;
  usage: Usage;
  cost_usd: number | undefined;
  /** Set when the model call failed (the case run fails). */
  error?: string;
}

/** The fixed turn context every eval case renders its suffix with (deterministic prompts). */
export const EVAL_CONTEXT: Record<string, string> = { principal: 'eval-user', episode: 'eval', locale: 'en-US', location: 'Chicago', date: '2026-01-15' };

export function buildRoutingRequest(bundle: Bundle, agentId: string, c: EvalCase, flags: readonly string[], signal: AbortSignal): LlmRequest {
  const agent = bundle.agents[agentId];
  if (agent === undefined) throw new Error(`buildRoutingRequest: unknown agent ${agentId} (checked before)`);
  const model = bundle.models[agent.model];
  const prefix = selectPrefix(agent, flags);
  if (model === undefined || prefix === undefined) throw new Error(`buildRoutingRequest: agent ${agentId} has no model or prefix in the bundle`);
  const messages: Message[] = [...(c.history ?? []).map((t) => ({ role: t.role, content: t.content }) as Message), { role: 'user', content: c.message }];
  const tools = agent.tools?.neutral ?? [];
  const req: LlmRequest = {
    agent: agentId,
    model: { ...model, id: agent.model },
    system: { prefix: prefix.text, suffix: renderAgentSuffix(agent, EVAL_CONTEXT, bundle.dynamicContext?.fields ?? []), prefixSha256: prefix.sha256 },
    messages,
    tools,
    toolShapes: { openai: agent.tools?.openai ?? [], anthropic: agent.tools?.anthropic ?? [] },
    parallelToolCalls: tools.length > 0 && model.parallelToolCalls === true,
    signal,
  };
  const maxOut = agent.tuning?.max_output_tokens ?? agent.policy?.token_budget?.output;
  if (maxOut !== undefined) req.maxOutputTokens = maxOut;
  const effort = agent.tuning?.reasoning_effort ?? model.reasoningEffort;
  if (effort !== undefined) req.reasoningEffort = effort;
  return req;
}

export async function routeOnce(bundle: Bundle, llm: LlmClient, req: LlmRequest): Promise<RouteObservation> {
  const empty: Usage = { inputTokens: 0, outputTokens: 0 };
  let reply;
  try {
    reply = await llm.complete(req);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { agents: [], handoffs: [], intent_count: null, usage: empty, cost_usd: undefined, error: message };
  }
  const table = bundle.agents[req.agent]?.dispatch.table ?? {};
  const handoffs: HandoffCall[] = [];
  const tools = new Set<string>();
  let intentCount: number | null = null;
  for (const call of reply.toolCalls ?? []) {
    const entry = Object.prototype.hasOwnProperty.call(table, call.name) ? table[call.name] : undefined;
    if (entry?.kind === 'tool') tools.add(call.name);
    if (entry?.kind !== 'sub_agent') continue;
    const args = parseArgs(call.arguments);
    handoffs.push({ agent: entry.agent, args });
    const n = args?.intent_count;
    if (intentCount === null && typeof n === 'number' && Number.isInteger(n)) intentCount = n;
  }
  const usage: Usage = { inputTokens: reply.usage?.inputTokens ?? 0, outputTokens: reply.usage?.outputTokens ?? 0 };
  if (reply.usage?.cachedInputTokens !== undefined) usage.cachedInputTokens = reply.usage.cachedInputTokens;
  return {
    agents: [...new Set(handoffs.map((h) => h.agent))].sort(),
    handoffs,
    tools: [...tools].sort(),
    intent_count: intentCount,
    usage,
    cost_usd: costUsd(req.model, usage),
  };
}

function parseArgs(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
