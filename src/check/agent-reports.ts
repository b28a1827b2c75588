/**
 * One agent's share of a rule's reports, replayed across compiles while the
 * resolved agent is the same object (kept in `CompileCache.objects`; without a
 * cache, for one run). CompileCache.agents hands out the same Agent only while
 * its card, blocks, tools, sub-agents' and parents' cards and the config's value
 * are unchanged (src/resolve/agent-memo.ts), so a body may read exactly those —
 * never the config's text (configRelated's ranges), other agents or the
 * program's tables.
 */
import type { RuleId } from '../diagnostics/catalog.js';
import type { ReportInput } from '../diagnostics/diagnostic.js';
import { memoSlot, type MemoSlot } from '../resolve/run-memo.js';
import type { Agent, Program } from '../resolve/types.js';
import type { Report } from './rule.js';

export type AgentReportsSlot<R extends RuleId> = MemoSlot<WeakMap<Agent, readonly ReportInput<R>[]>>;

/** A slot per rule, declared next to the rule. */
export function agentReportsSlot<R extends RuleId>(rule: R): AgentReportsSlot<R> {
  return memoSlot(`${rule} reports by agent`);
}

/** Runs `body` for `agent` (reporting through `report`), or replays what it reported for this same agent before. */
export function agentReports<R extends RuleId>(
  program: Program,
  slot: AgentReportsSlot<R>,
  agent: Agent,
  report: Report<R>,
  body: (report: Report<R>) => void,
): void {
  const byAgent = program.memo.byObject(slot);
  let made = byAgent.get(agent);
  if (made === undefined) {
    const found: ReportInput<R>[] = [];
    body((d) => found.push(d));
    byAgent.set(agent, (made = found));
  }
  for (const d of made) report(d);
}
