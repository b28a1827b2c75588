/**
 * Pure helpers over the tool calls one model reply emitted: argument parsing,
 * de-duplication, the intent-count reading.
 *
 * Invariants: two calls are the same intent when they name the same tool with
 * the same arguments (compared canonically, `intent_count` ignored); after
 * `normalizeIds` every call in a reply has a distinct, non-empty id.
 */
import { canonicalJsonLine } from '../bundle/canonical-json.js';
import type { BundleDispatch } from '../bundle/types.js';
import type { ToolCall } from './types.js';

export type ParsedArgs = { ok: true; args: Record<string, unknown> } | { ok: false };

/** Arguments must be a JSON object; '' (some providers send it for no arguments) is {}. */
export function parseArgs(text: string): ParsedArgs {
  if (text.trim() === '') return { ok: true, args: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return { ok: true, args: value as Record<string, unknown> };
    }
  } catch {
    // falls through: not JSON
  }
  return { ok: false };
}

export function intentKey(call: ToolCall): string {
  const parsed = parseArgs(call.arguments);
  if (!parsed.ok) return `${call.name}\u0000raw:${call.arguments}`;
  const { intent_count: _ignored, ...rest } = parsed.args;
  return `${call.name}\u0000${canonicalJsonLine(rest)}`;
}

/** Gives every call a distinct id (providers' ids are kept when already distinct). */
export function normalizeIds(calls: readonly ToolCall[], taken: Set<string> = new Set()): ToolCall[] {
  let n = 0;
  return calls.map((c) => {
    let id = typeof c.id === 'string' ? c.id : '';
    if (id === '' || taken.has(id)) {
      do id = `call_rt_${++n}`;
      while (taken.has(id));
    }
    taken.add(id);
    return { id, name: c.name, arguments: c.arguments };
  });
}

/** `first` followed by the calls of `extra` that are new intents. */
export function mergeCalls(first: readonly ToolCall[], extra: readonly ToolCall[]): ToolCall[] {
  const seen = new Set(first.map(intentKey));
  const merged = [...first];
  for (const c of extra) {
    const key = intentKey(c);
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(c);
  }
  return normalizeIds(merged);
}

export function isSubAgentCall(call: ToolCall, dispatch: BundleDispatch | undefined): boolean {
  return dispatch?.table[call.name]?.kind === 'sub_agent';
}

/** The largest non-negative integer `intent_count` among sub-agent calls, or null. */
export function declaredIntentCount(calls: readonly ToolCall[], dispatch: BundleDispatch | undefined): number | null {
  let best: number | null = null;
  for (const c of calls) {
    if (!isSubAgentCall(c, dispatch)) continue;
    const parsed = parseArgs(c.arguments);
    if (!parsed.ok) continue;
    const n = parsed.args.intent_count;
    if (typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 1000) best = best === null ? n : Math.max(best, n);
  }
  return best;
}
