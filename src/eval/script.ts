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
 * Invariants: the reply depends only on the last user message; a message with
 * no route fails that call (the case fails with the reason), never the run.
 */
import type { LlmClient, ToolCall } from '../runtime/index.js';

export interface RouteScriptEntry {
  message: string;
  text?: string;
  tool_calls?: { name: string; arguments?: unknown }[];
}

/** Reads a parsed YAML value; returns problems in plain words when it is not a route script. */
export function parseRouteScript(value: unknown): { ok: true; routes: RouteScriptEntry[] } | { ok: false; problem: string } {
  const routes = (value as { routes?: unknown } | null)?.routes;
  if (!Array.isArray(routes)) return { ok: false, problem: 'a route script is an object with a `routes` list' };
  for (const [i, r] of routes.entries()) {
    const e = r as Partial<RouteScriptEntry> | null;
    if (e === null || typeof e !== 'object' || typeof e.message !== 'string') return { ok: false, problem: `routes[${i}] needs a \`message\` string` };
    if (e.tool_calls !== undefined && (!Array.isArray(e.tool_calls) || e.tool_calls.some((c) => typeof c?.name !== 'string'))) {
      return { ok: false, problem: `routes[${i}].tool_calls must be a list of { name, arguments }` };
    }
  }
  return { ok: true, routes: routes as RouteScriptEntry[] };
}

export function createRouteScriptClient(routes: RouteScriptEntry[]): LlmClient {
  const byMessage = new Map<string, RouteScriptEntry>();
  for (const r of routes) if (!byMessage.has(r.message)) byMessage.set(r.message, r);
  return {
    async complete(req) {
      const last = [...req.messages].reverse().find((m) => m.role === 'user');
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
