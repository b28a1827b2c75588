/**
 * The session store contract (docs/sessions.md): per episode, each agent's
 * turns as layered records, plus per-episode metadata with a TTL.
 *
 * Invariants every store keeps (one contract suite checks all of them):
 * - `appendTurn` never loses a record, also when several processes append to
 *   the same (episode, agent) at once; `turns` returns them in append order;
 * - an agent's key only ever holds that agent's own turns;
 * - values come back as copies (JSON round-trip): a caller cannot mutate stored data;
 * - an episode not written for `ttlMs` reads as empty; a metadata key set with
 *   its own `ttlMs` reads as undefined once that has passed.
 */
import { randomUUID } from 'node:crypto';
import type { Message, Outcome, ToolCall, Usage } from '../types.js';

/**
 * What models read of one turn. `assistant` is everything the agent said, in
 * order; when it spoke in more than one segment (an orchestrator's preamble,
 * then its answer) `parts` holds the segments — models read them as separate
 * messages, as they were written — and `assistant` is them joined by a blank line.
 */
export interface Narration {
  user: string;
  assistant: string;
  parts?: string[];
}

/** One tool call's result as the calling model read it (audit layer). */
export interface TurnToolResult {
  tool_call_id: string;
  name: string;
  content: string;
}

/** One sub-agent invocation of the turn (audit layer). */
export interface TurnSubAgent {
  agent: string;
  tool: string;
  outcome: Outcome;
}

/**
 * One turn of one agent. `narration` is what models read on later turns: the
 * user message (for a sub-agent: its handoff) and the user-visible answer.
 * Everything else is kept for audit and replay and never reaches a model.
 */
export interface TurnRecord {
  /** Unique per turn (the trace id for runtime-written turns). */
  id: string;
  narration: Narration;
  /** The specialists (sub-agent ids) that handled the turn, in call order. */
  handled_by: string[];
  tool_calls: ToolCall[];
  tool_results: TurnToolResult[];
  sub_agents: TurnSubAgent[];
  usage: Usage;
}

/** A rolling summary of an agent's oldest turns (stored in the episode metadata). */
export interface HistorySummary {
  text: string;
  /** How many of the agent's turns (from the first) the summary covers. */
  covers: number;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface MetaOptions {
  /** This key expires after this many milliseconds (else it lives as long as the episode). */
  ttlMs?: number;
}

/**
 * A durable session store. `get`/`append` are the message API the runtime used
 * before records existed: `append` stores a narration-only record, `get`
 * returns every record's narration as messages.
 */
export interface TurnStore {
  get(episode: string, agent: string): Promise<Message[]>;
  append(episode: string, agent: string, messages: Message[]): Promise<void>;
  appendTurn(episode: string, agent: string, record: TurnRecord): Promise<void>;
  /** The agent's records in append order, from the `from`-th (0-based; default 0). */
  turns(episode: string, agent: string, from?: number): Promise<TurnRecord[]>;
  getMeta(episode: string, key: string): Promise<JsonValue | undefined>;
  setMeta(episode: string, key: string, value: JsonValue | undefined, options?: MetaOptions): Promise<void>;
  /** Releases connections / file handles. Idempotent. */
  close(): Promise<void>;
}

/** What every store accepts. */
export interface StoreOptions {
  /** An episode not written for this long reads as empty (default: never expires). */
  ttlMs?: number;
  /** Epoch milliseconds; tests inject a clock (default Date.now). */
  now?: () => number;
}

export const SUMMARY_META_PREFIX = 'agentc.summary.';

/**
 * Narration-only records for the legacy `append(messages)` call: each user
 * message and the assistant messages after it (several: the parts of one answer).
 */
export function recordsFromMessages(id: string, messages: Message[]): TurnRecord[] {
  const out: TurnRecord[] = [];
  let user: string | undefined;
  let said: string[] = [];
  const flush = () => {
    if (user === undefined && said.length === 0) return;
    out.push(emptyRecord(`${id}.${out.length}`, user ?? '', said));
    user = undefined;
    said = [];
  };
  for (const m of messages) {
    if (m.role === 'user') {
      flush();
      user = m.content;
    } else if (m.role === 'assistant' && m.content !== '') said.push(m.content);
  }
  flush();
  return out;
}

/** `answer`: the agent's words, whole or as the segments it said them in (empty ones are dropped). */
export function emptyRecord(id: string, user: string, answer: string | readonly string[]): TurnRecord {
  return {
    id,
    narration: narration(user, answer),
    handled_by: [],
    tool_calls: [],
    tool_results: [],
    sub_agents: [],
    usage: { inputTokens: 0, outputTokens: 0 },
  };
}

export function narration(user: string, answer: string | readonly string[]): Narration {
  if (typeof answer === 'string') return { user, assistant: answer };
  const parts = answer.filter((p) => p !== '');
  return parts.length > 1 ? { user, assistant: parts.join('\n\n'), parts: [...parts] } : { user, assistant: parts[0] ?? '' };
}

/** The assistant messages a model reads for one turn's narration (none when it said nothing). */
export function spokenParts(n: Narration): string[] {
  if (Array.isArray(n.parts) && n.parts.length > 0) return n.parts.filter((p) => typeof p === 'string' && p !== '');
  return n.assistant === '' ? [] : [n.assistant];
}

/** The narration messages of records, oldest first. */
export function narrationOf(records: readonly TurnRecord[]): Message[] {
  const out: Message[] = [];
  for (const r of records) {
    out.push({ role: 'user', content: r.narration.user });
    for (const part of spokenParts(r.narration)) out.push({ role: 'assistant', content: part });
  }
  return out;
}

export function copyJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * The message-level API (`get` / `append`) of a store, built on its turn records:
 * `get` is the narration models read, `append` stores messages as records. Every
 * store shares this one definition; `self` returns the store (defined after it).
 */
export function messageApi(self: () => Pick<TurnStore, 'turns' | 'appendTurn'>): Pick<TurnStore, 'get' | 'append'> {
  return {
    async get(episode: string, agent: string): Promise<Message[]> {
      return narrationOf(await self().turns(episode, agent));
    },
    async append(episode: string, agent: string, messages: Message[]): Promise<void> {
      for (const r of recordsFromMessages(randomUUID(), messages)) await self().appendTurn(episode, agent, r);
    },
  };
}
