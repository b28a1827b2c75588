/**
 * Layered history, pure parts (docs/sessions.md): what a model reads of an agent's
 * stored turns, when to compact, how to fit a request into its input budget.
 *
 * Invariants: a model reads narration only — the summary (when there is one)
 * followed by the user message and answer of every turn it does not cover,
 * never tool calls or results; an orchestrator's answers carry a note of the
 * specialists that handled them (so it can write `prior_context` on a topic
 * switch); compaction never folds the last `keep_last_turns` turns; trimming
 * drops whole oldest turns of the history, never the current turn.
 */
import { spokenParts, type HistorySummary, type TurnRecord } from './sessions/types.js';
import type { TokenCounter } from './tokens.js';
import { MESSAGE_OVERHEAD } from './tokens.js';
import type { HistoryPolicy, Message } from './types.js';

export const SUMMARY_HEADER = '[Summary of the earlier conversation]';
export const DEFAULT_KEEP_LAST_TURNS = 4;

export function handledNote(agents: readonly string[]): string {
  return `[handled by: ${agents.join(', ')}]`;
}

export function narrationView(records: readonly TurnRecord[], summary: HistorySummary | undefined, noteHandlers: boolean): Message[] {
  const out: Message[] = [];
  const covers = summary === undefined ? 0 : Math.min(Math.max(0, summary.covers), records.length);
  if (summary !== undefined && summary.text !== '') out.push({ role: 'user', content: `${SUMMARY_HEADER}\n${summary.text}` });
  for (const r of records.slice(covers)) {
    out.push({ role: 'user', content: r.narration.user });
    const parts = spokenParts(r.narration);
    // The handled-by note goes on the turn's last assistant message (the answer).
    if (noteHandlers && r.handled_by.length > 0) {
      const note = handledNote(r.handled_by);
      if (parts.length === 0) parts.push(note);
      else parts[parts.length - 1] = `${parts[parts.length - 1]}\n${note}`;
    }
    for (const part of parts) out.push({ role: 'assistant', content: part });
  }
  return out;
}

export function messageTokens(m: Message, count: TokenCounter): number {
  let n = MESSAGE_OVERHEAD + count(m.content);
  if (m.role === 'assistant') for (const c of m.toolCalls ?? []) n += count(c.name) + count(c.arguments);
  if (m.role === 'tool') n += count(m.name);
  return n;
}

export function messagesTokens(ms: readonly Message[], count: TokenCounter): number {
  let n = 0;
  for (const m of ms) n += messageTokens(m, count);
  return n;
}

export interface CompactionPlan {
  /** The turns to fold into the summary, oldest first. */
  fold: TurnRecord[];
  /** The summary's `covers` once folded. */
  covers: number;
}

/** Compaction is due when the model's view passes `max_tokens` and some turn outside the kept ones is not yet summarized. */
export function planCompaction(
  records: readonly TurnRecord[],
  summary: HistorySummary | undefined,
  policy: HistoryPolicy,
  viewTokens: number,
): CompactionPlan | undefined {
  if (viewTokens <= policy.max_tokens) return undefined;
  const covers = Math.min(summary?.covers ?? 0, records.length);
  const keep = Math.max(0, policy.keep_last_turns ?? DEFAULT_KEEP_LAST_TURNS);
  const end = records.length - keep;
  if (end <= covers) return undefined;
  return { fold: records.slice(covers, end), covers: end };
}

/** The summarizer's instructions (its system prompt). */
export function summaryInstructions(maxWords: number): string {
  return [
    'You keep a rolling summary of a conversation between a user and an assistant.',
    'Rewrite the summary so that it also covers the new turns.',
    "Keep every name, identifier, amount, date, open question and the user's active goals, and which specialist handled what.",
    `Plain prose, at most ${maxWords} words. Reply with the summary only.`,
  ].join(' ');
}

/** The summarizer's one user message: the summary so far and the turns to fold. */
export function summaryPrompt(previous: string, fold: readonly TurnRecord[]): string {
  const lines = [`Summary so far:\n${previous === '' ? '(none)' : previous}`, '', 'New turns:'];
  for (const r of fold) {
    lines.push(`User: ${r.narration.user}`);
    const who = r.handled_by.length > 0 ? ` (handled by ${r.handled_by.join(', ')})` : '';
    lines.push(`Assistant${who}: ${r.narration.assistant}`);
  }
  return lines.join('\n');
}

/**
 * Drops the oldest history messages (the first `historyLength` of `messages`)
 * until the request fits `budget` tokens; a kept history starts at a user
 * message. `fixed` is what the system prompt costs.
 */
export function trimToBudget(
  messages: readonly Message[],
  historyLength: number,
  fixed: number,
  budget: number,
  count: TokenCounter,
): { messages: Message[]; dropped: number } {
  const costs = messages.map((m) => messageTokens(m, count));
  let total = fixed + costs.reduce((a, b) => a + b, 0);
  let start = 0;
  const limit = Math.min(historyLength, messages.length);
  while (total > budget && start < limit) {
    total -= costs[start];
    start++;
    while (start < limit && messages[start].role !== 'user') {
      total -= costs[start];
      start++;
    }
  }
  return { messages: messages.slice(start), dropped: start };
}
