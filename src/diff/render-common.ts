/**
 * Pieces shared by the diff renderers. Invariant: every renderer states the same
 * summary line for the same diff (only its decoration differs).
 */
import { cohortName, signed, signedPercent } from './prompts.js';
import type { AgentDiff, BundleDiff, Change, ChangeLevel } from './types.js';

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
  const agents = `${s.agents} ${s.agents === 1 ? 'agent' : 'agents'}`;
  return `${s.breaking} breaking, ${s.dangerous} dangerous, ${s.safe} safe changes across ${agents} · ${signed(s.tokenDelta)} tokens`;
}

export function changesAt(diff: BundleDiff, level: ChangeLevel): Change[] {
  return diff.changes.filter((c) => c.level === level);
}

/** "1200 → 1334" (a missing side shows as —). */
export function tokenRange(a: AgentDiff): string {
  const before = a.status === 'added' ? '—' : String(a.tokensBefore);
  const after = a.status === 'removed' ? '—' : String(a.tokensAfter);
  return `${before} → ${after}`;
}

/** "+1.68% of 8000" or "" without a budget. */
export function budgetText(a: AgentDiff): string {
  if (a.inputBudget === undefined || a.budgetShare === undefined) return '';
  return `${signedPercent(a.budgetShare)} of ${a.inputBudget}`;
}

/** Cohorts whose prompt-cache prefix changes: "default, receipts_v2" or "". */
export function cacheLost(a: AgentDiff): string {
  return a.cohorts.filter((c) => c.cacheInvalidated).map((c) => cohortName(c.key)).join(', ');
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
