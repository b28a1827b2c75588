/**
 * Query guards (docs/sessions.md): code-level protection of the user's words in the
 * `query` handoff field, applied to the root's sub-agent calls before dispatch.
 * Every guard is a pure function `(calls, ctx) => calls`; `diffCalls` turns what
 * one guard changed into the notes of the `routing` event.
 *
 * Invariants: guards only touch sub-agent calls whose handoff declares `query`
 * (plain tool calls pass through untouched, in place); a guard never invents a
 * call id — a rerouted call keeps the id of the call it replaces; overlap never
 * drops every call; with no guard enabled the calls come back unchanged.
 */
import { parseArgs } from './calls.js';
import type { ToolCall } from './types.js';

export interface GuardContext {
  /** The user's message this turn, exactly as sent. */
  userMessage: string;
  /** The root's previous turn, when there is one. */
  previous?: { handledBy: readonly string[]; answer: string };
  /**
   * How many sub-agent calls the model itself emitted (before any guard): the
   * single-intent signal. Defaults to the count in the calls a guard is given.
   */
  modelSubAgentCalls?: number;
  /** The root's sub-agent tools: tool name → the sub-agent and whether its handoff has `query`. */
  subAgents: Readonly<Record<string, { agent: string; query: boolean }>>;
}

export type QueryGuard = (calls: ToolCall[], ctx: GuardContext) => ToolCall[];

export interface GuardNote {
  guard: string;
  /** The tool name the model called. */
  tool: string;
  action: 'query_replaced' | 'arguments_changed' | 'dropped' | 'rerouted' | 'added';
  /** For `rerouted`: the tool the call goes to instead. */
  to?: string;
}

const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its me my no not of on or our ' +
    'so than that the their them then there these they this to too up us was we were what when where which who why will with would ' +
    'you your yours am also just about any all some more most very please pls thanks thank hi hello hey ok okay yes yeah want need get ' +
    'like know tell show give let make much many one'
  ).split(' '),
);
const YES_NO = new Set(['yes', 'yeah', 'yep', 'no', 'nope', 'sure', 'ok', 'okay', 'correct', 'right']);

/** Lower-cased words of letters/digits that carry meaning (no stopwords, no single letters). */
export function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (STOPWORDS.has(w) || (w.length < 2 && !/\d/.test(w))) continue;
    out.add(w);
  }
  return out;
}

export function hasOverlap(a: string, b: string): boolean {
  const wa = contentWords(a);
  for (const w of contentWords(b)) if (wa.has(w)) return true;
  return false;
}

export function wordCount(text: string): number {
  const t = text.trim();
  return t === '' ? 0 : t.split(/\s+/).length;
}

function queryOf(call: ToolCall): string | undefined {
  const p = parseArgs(call.arguments);
  if (!p.ok) return undefined;
  return typeof p.args.query === 'string' ? p.args.query : '';
}

function withQuery(call: ToolCall, query: string): ToolCall {
  const p = parseArgs(call.arguments);
  if (!p.ok) return call;
  return { ...call, arguments: JSON.stringify({ ...p.args, query }) };
}

const guarded = (call: ToolCall, ctx: GuardContext) => ctx.subAgents[call.name]?.query === true && queryOf(call) !== undefined;

/**
 * verbatim — one sub-agent call (as the model emitted them: a mixed turn whose
 * other call another guard dropped keeps its split) gets the user's message as
 * its query; several calls on a message of four words or fewer all get it;
 * otherwise a call keeps its split query only if it shares a content word with
 * the message.
 */
export const verbatimGuard: QueryGuard = (calls, ctx) => {
  const mixed = (ctx.modelSubAgentCalls ?? calls.filter((c) => ctx.subAgents[c.name] !== undefined).length) > 1;
  const short = wordCount(ctx.userMessage) <= 4;
  return calls.map((c) => {
    if (!guarded(c, ctx)) return c;
    const q = queryOf(c)!;
    const keep = mixed && !short && hasOverlap(q, ctx.userMessage);
    return keep || q === ctx.userMessage ? c : withQuery(c, ctx.userMessage);
  });
};

/** overlap — with several sub-agent calls, one whose query shares no content word with the message is dropped. */
export const overlapGuard: QueryGuard = (calls, ctx) => {
  const subs = calls.filter((c) => ctx.subAgents[c.name] !== undefined);
  if (subs.length < 2) return calls;
  const unrelated = new Set(subs.filter((c) => guarded(c, ctx) && !hasOverlap(queryOf(c)!, ctx.userMessage)));
  if (unrelated.size === subs.length) return calls; // nothing relates: keep them, verbatim restores the words
  return calls.filter((c) => !unrelated.has(c));
};

/** The last question of a text (the sentence ending in its last '?'), or undefined. */
export function lastQuestion(text: string): string | undefined {
  const end = text.lastIndexOf('?');
  if (end < 0) return undefined;
  const before = text.slice(0, end);
  const start = Math.max(before.lastIndexOf('.'), before.lastIndexOf('!'), before.lastIndexOf('?'), before.lastIndexOf('\n')) + 1;
  return text.slice(start, end + 1).trim();
}

/**
 * echo — a short reply (four words or fewer) that answers the question the one
 * specialist of the previous turn asked (it echoes a content word of the
 * question, or is a plain yes/no) goes to that specialist: the other
 * specialists' calls are rerouted to it (the first) or dropped (the rest).
 */
export const echoGuard: QueryGuard = (calls, ctx) => {
  const prev = ctx.previous;
  if (prev === undefined || prev.handledBy.length !== 1 || wordCount(ctx.userMessage) > 4) return calls;
  const question = lastQuestion(prev.answer);
  if (question === undefined) return calls;
  const yesNo = (ctx.userMessage.toLowerCase().match(/\p{L}+/gu) ?? []).some((w) => YES_NO.has(w));
  if (!yesNo && !hasOverlap(question, ctx.userMessage)) return calls;
  const target = prev.handledBy[0];
  const tool = Object.keys(ctx.subAgents).find((t) => ctx.subAgents[t].agent === target);
  if (tool === undefined || !ctx.subAgents[tool].query) return calls;
  const subs = calls.filter((c) => ctx.subAgents[c.name] !== undefined);
  if (subs.length === 0) return calls;
  const already = subs.find((c) => c.name === tool);
  let rerouted = already !== undefined;
  const out: ToolCall[] = [];
  for (const c of calls) {
    if (ctx.subAgents[c.name] === undefined || c === already) out.push(c);
    else if (!rerouted) {
      rerouted = true;
      const p = parseArgs(c.arguments);
      const args: Record<string, unknown> = { query: ctx.userMessage };
      if (p.ok && p.args.intent_count !== undefined) args.intent_count = p.args.intent_count;
      out.push({ id: c.id, name: tool, arguments: JSON.stringify(args) });
    }
  }
  return out;
};

/** What `guard` changed between `before` and `after` (calls matched by id). */
export function diffCalls(guard: string, before: readonly ToolCall[], after: readonly ToolCall[]): GuardNote[] {
  const notes: GuardNote[] = [];
  const byId = new Map(after.map((c) => [c.id, c]));
  const seen = new Set(before.map((c) => c.id));
  for (const b of before) {
    const a = byId.get(b.id);
    if (a === undefined) notes.push({ guard, tool: b.name, action: 'dropped' });
    else if (a.name !== b.name) notes.push({ guard, tool: b.name, action: 'rerouted', to: a.name });
    else if (a.arguments !== b.arguments) {
      const pa = parseArgs(a.arguments);
      const pb = parseArgs(b.arguments);
      const onlyQuery = pa.ok && pb.ok && JSON.stringify({ ...pa.args, query: null }) === JSON.stringify({ ...pb.args, query: null });
      notes.push({ guard, tool: b.name, action: onlyQuery ? 'query_replaced' : 'arguments_changed' });
    }
  }
  for (const a of after) if (!seen.has(a.id)) notes.push({ guard, tool: a.name, action: 'added' });
  return notes;
}

export interface GuardRun {
  calls: ToolCall[];
  /** The model's calls that no longer run, each to be answered with a "not run" tool result. */
  dropped: ToolCall[];
  notes: GuardNote[];
}

/** Runs the guards in order (echo, overlap, verbatim, then the service's own), noting every change. */
export function runGuards(calls: readonly ToolCall[], ctx: GuardContext, guards: readonly [string, QueryGuard][]): GuardRun {
  let current = [...calls];
  const notes: GuardNote[] = [];
  for (const [name, guard] of guards) {
    const next = guard([...current], ctx);
    notes.push(...diffCalls(name, current, next));
    current = next;
  }
  const kept = new Set(current.map((c) => c.id));
  return { calls: current, dropped: calls.filter((c) => !kept.has(c.id)), notes };
}
