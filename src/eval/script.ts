/**
 * A scripted routing model for `agentc eval --script FILE`: replies keyed by
 * the user message, so a suite runs offline and in any order.
 *
 *   routes:
 *     - message: "How many points do I have?"
 *       tool_calls: [ { name: ask_rewards, arguments: { query: "points balance", intent_count: 1 } } ]
 *     - message: "thanks!"
 *       text: "You're welcome!"
 *
 * With `agentc eval --full` the same script also plays the rest of the turn:
 * a specialist (any agent that is not a suite's orchestrator) answers with its
 * `specialists:` entry (default: a fixed sentence naming it), and the
 * orchestrator, once it has its tools' results, composes with the route's
 * `answer` (default: "Done.").
 *
 *   specialists:
 *     rewards: "You have 1,200 points."
 *
 * Invariants: the reply depends only on the requesting agent and the last user
 * message; a routing message with no route fails that call (the case fails with
 * the reason), never the run.
 */
import type { LlmClient, ToolCall } from '../runtime/index.js';

export interface RouteScriptEntry {
  message: string;
  text?: string;
  /** --full: the orchestrator's final answer after its sub-agents replied. */
  answer?: string;
  tool_calls?: { name: string; arguments?: unknown }[];
}

export interface RouteScript {
  routes: RouteScriptEntry[];
  /** --full: each specialist's answer, by agent id. */
  specialists: Record<string, string>;
}

/** Reads a parsed YAML value; returns problems in plain words when it is not a route script. */
export function parseRouteScript(value: unknown): ({ ok: true } & RouteScript) | { ok: false; problem: string } {
  const routes = (value as { routes?: unknown } | null)?.routes;
  const specialists = (value as { specialists?: unknown } | null)?.specialists ?? {};
  if (specialists === null || typeof specialists !== 'object' || Array.isArray(specialists) || Object.values(specialists).some((v) => typeof v !== 'string')) {
    return { ok: false, problem: '`specialists` maps agent ids to answer strings' };
  }
  if (!Array.isArray(routes)) return { ok: false, problem: 'a route script is an object with a `routes` list' };
  for (const [i, r] of routes.entries()) {
    const e = r as Partial<RouteScriptEntry> | null;
    if (e === null || typeof e !== 'object' || typeof e.message !== 'string') return { ok: false, problem: `routes[${i}] needs a \`message\` string` };
    if (e.tool_calls !== undefined && (!Array.isArray(e.tool_calls) || e.tool_calls.some((c) => typeof c?.name !== 'string'))) {
      return { ok: false, problem: `routes[${i}].tool_calls must be a list of { name, arguments }` };
    }
  }
  return { ok: true, routes: routes as RouteScriptEntry[], specialists: specialists as Record<string, string> };
}

/** `roots`: the suites' orchestrators; any other agent is a specialist (--full). Without it every call is a routing call. */
export function createRouteScriptClient(routes: RouteScriptEntry[], specialists: Record<string, string> = {}, roots?: ReadonlySet<string>): LlmClient {
  const byMessage = new Map<string, RouteScriptEntry>();
  for (const r of routes) if (!byMessage.has(r.message)) byMessage.set(r.message, r);
  const usage = { inputTokens: 0, outputTokens: 0 };
  return {
    async complete(req) {
      if (roots !== undefined && !roots.has(req.agent)) {
        const text = Object.prototype.hasOwnProperty.call(specialists, req.agent) ? specialists[req.agent]! : `${req.agent} has handled the request.`;
        return { text, toolCalls: [], usage };
      }
      const last = [...req.messages].reverse().find((m) => m.role === 'user');
      if (roots !== undefined && req.messages[req.messages.length - 1]?.role === 'tool') {
        // The orchestrator has its sub-agents' results: it composes.
        const entry = last?.role === 'user' ? byMessage.get(last.content) : undefined;
        return { text: entry?.answer ?? 'Done.', toolCalls: [], usage };
      }
      const entry = last?.role === 'user' ? byMessage.get(last.content) : undefined;
      if (entry === undefined) throw new Error(`the script has no route for message ${JSON.stringify(last?.role === 'user' ? last.content : '')}`);
      const toolCalls: ToolCall[] = (entry.tool_calls ?? []).map((c, i) => ({
        id: `call_${i + 1}`,
        name: c.name,
        arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
      }));
      return { text: entry.text ?? '', toolCalls, usage: { inputTokens: 0, outputTokens: 0 } };
    },
  };
}
