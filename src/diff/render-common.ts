/**
 * Pieces shared by the diff renderers. Invariant: every renderer states the same
 * summary line for the same diff (only its decoration differs).
 */
import { formatInt } from '../diagnostics/format-number.js';
import { cohortName, signedPercent, signedTokens } from './prompts.js';
import type { AgentDiff, AgentStatus, BundleDiff, Change, ChangeLevel, CohortDiff } from './types.js';

export interface RenderOptions {
  /** What the "before" side is, e.g. "merge base 1a2b3c4 of origin/main". */
  beforeLabel?: string;
  /** What the "after" side is, e.g. "working tree". */
  afterLabel?: string;
}

export function hasChanges(diff: BundleDiff): boolean {
  return diff.changes.length > 0;
}

/** "1 breaking, 3 dangerous, 2 safe changes across 2 agents · +134 tokens" */
export function summaryText(diff: BundleDiff): string {
  const s = diff.summary;
  const agents = `${formatInt(s.agents)} ${s.agents === 1 ? 'agent' : 'agents'}`;
  return `${formatInt(s.breaking)} breaking, ${formatInt(s.dangerous)} dangerous, ${formatInt(s.safe)} safe changes across ${agents} · ${signedTokens(s.tokenDelta)}`;
}

export function changesAt(diff: BundleDiff, level: ChangeLevel): Change[] {
  return diff.changes.filter((c) => c.level === level);
}

/** "1200 → 1334" (a missing side shows as —). */
export function tokenRange(a: AgentDiff): string {
  const before = a.status === 'added' ? '—' : formatInt(a.tokensBefore);
  const after = a.status === 'removed' ? '—' : formatInt(a.tokensAfter);
  return `${before} → ${after}`;
}

/** "+1.68% of 8,000" or "" without a budget. */
export function budgetText(a: AgentDiff): string {
  if (a.inputBudget === undefined || a.budgetShare === undefined) return '';
  return `${signedPercent(a.budgetShare)} of ${formatInt(a.inputBudget)}`;
}

/** Cohorts whose prompt-cache prefix changes: "default, receipts_v2" or "". */
export function cacheLost(a: AgentDiff): string {
  return a.cohorts
    .filter((c) => c.cacheInvalidated)
    .map((c) => cohortName(c.key))
    .join(', ');
}

export function sidesText(options: RenderOptions): string | undefined {
  if (options.beforeLabel === undefined && options.afterLabel === undefined) return undefined;
  return `${options.beforeLabel ?? 'before'} → ${options.afterLabel ?? 'after'}`;
}

/** The lines a diff removes and adds, without context or line numbers: equal for "the same edit". */
export function diffShape(unified: string): string {
  let lines = unified.split('\n');
  if (lines[0]?.startsWith('--- ') && lines[1]?.startsWith('+++ ')) lines = lines.slice(2);
  return lines.filter((l) => l.startsWith('-') || l.startsWith('+')).join('\n');
}

export interface PromptDiffEntry {
  agent: string;
  agentStatus: AgentStatus;
  cohort: CohortDiff;
}

/** One edit and every prompt it appears in (a platform block edit shows up in every agent). */
export interface PromptDiffGroup {
  first: PromptDiffEntry;
  /** Other prompts with exactly the same removed and added lines. */
  same: PromptDiffEntry[];
}

/**
 * The prompt diffs worth showing, grouped by edit, in agent then cohort order.
 * Removed agents are left out (their removal is the whole story).
 */
export function promptDiffGroups(diff: BundleDiff): PromptDiffGroup[] {
  const groups: PromptDiffGroup[] = [];
  const byShape = new Map<string, PromptDiffGroup>();
  for (const [agent, a] of Object.entries(diff.agents)) {
    if (a.status === 'removed') continue;
    for (const cohort of a.cohorts) {
      if (cohort.unifiedDiff === '') continue;
      const entry = { agent, agentStatus: a.status, cohort };
      const shape = diffShape(cohort.unifiedDiff);
      const group = byShape.get(shape);
      if (group !== undefined) {
        group.same.push(entry);
        continue;
      }
      const created = { first: entry, same: [] };
      byShape.set(shape, created);
      groups.push(created);
    }
  }
  return groups;
}

/** "rewards · receipts_v2 cohort" */
export function entryLabel(e: PromptDiffEntry): string {
  return `${e.agent} · ${cohortName(e.cohort.key)} cohort`;
}

/** "changed", "new agent", "new cohort (vs default)", "cohort removed (now default)" */
export function entryStatus(e: PromptDiffEntry): string {
  const c = e.cohort;
  if (c.status === 'added')
    return e.agentStatus === 'added' ? (c.comparedWith === undefined ? 'new agent' : 'new agent, vs its default cohort') : 'new cohort, vs default';
  if (c.status === 'removed') return 'cohort removed, now default';
  return 'changed';
}
