/**
 * `diffBundles`: what changes between two bundles, per agent (docs/cli.md#agentc-diff).
 *
 * Pure and deterministic: reads only its arguments, never mutates them, and the
 * same pair of bundles always gives a deep-equal result (agents in sorted order,
 * changes sorted by agent, path, type, message).
 */
import { compareAgentSettings } from './agent.js';
import { makeChange } from './changes.js';
import { compareDispatch } from './dispatch.js';
import { comparePrompts, defaultPrefix } from './prompts.js';
import { compareTools } from './tools.js';
import type { Bundle, BundleAgent } from '../bundle/types.js';
import type { AgentDiff, BundleDiff, Change, CohortDiff } from './types.js';

export interface DiffOptions {
  /**
   * Agents known to be equal on both sides (same-agents.ts `unchangedAgents`):
   * not read at all. Comparing them would find nothing, so the result is the same.
   */
  unchanged?: ReadonlySet<string>;
}

export function diffBundles(before: Bundle, after: Bundle, options: DiffOptions = {}): BundleDiff {
  const ids = [...new Set([...Object.keys(before.agents), ...Object.keys(after.agents)])].sort();
  const unchanged = options.unchanged ?? new Set<string>();
  const changes: Change[] = [];
  const agents: Record<string, AgentDiff> = {};

  for (const id of ids) {
    if (unchanged.has(id)) continue;
    const b = before.agents[id];
    const a = after.agents[id];
    const { cohorts, changes: promptChanges } = comparePrompts(id, b, a);
    const own: Change[] = [];
    if (b === undefined && a !== undefined) {
      own.push(makeChange('agent-added', id, id, { tokens: defaultPrefix(a)?.tokens ?? 0 }));
    } else if (b !== undefined && a === undefined) {
      own.push(makeChange('agent-removed', id, id));
    } else if (b !== undefined && a !== undefined) {
      own.push(...compareAgentSettings(id, { before, after }, b, a));
      own.push(...promptChanges);
      own.push(...compareTools(id, b, a));
      own.push(...compareDispatch(id, b, a));
    }
    if (own.length === 0) continue;
    changes.push(...own);
    agents[id] = agentDiff(b, a, cohorts, own);
  }

  changes.sort(compareChanges);
  const list = Object.values(agents);
  return {
    summary: {
      breaking: count(changes, 'breaking'),
      dangerous: count(changes, 'dangerous'),
      safe: count(changes, 'safe'),
      agents: list.length,
      tokenDelta: list.reduce((sum, d) => sum + d.tokenDelta, 0),
      cacheInvalidated: list.reduce((sum, d) => sum + d.cohorts.filter((c) => c.cacheInvalidated).length, 0),
      beforeHash: before.hash,
      afterHash: after.hash,
    },
    changes,
    agents,
  };
}

function agentDiff(b: BundleAgent | undefined, a: BundleAgent | undefined, cohorts: CohortDiff[], changes: Change[]): AgentDiff {
  const tokensBefore = b === undefined ? 0 : (defaultPrefix(b)?.tokens ?? 0);
  const tokensAfter = a === undefined ? 0 : (defaultPrefix(a)?.tokens ?? 0);
  const diff: AgentDiff = {
    status: b === undefined ? 'added' : a === undefined ? 'removed' : 'changed',
    tokensBefore,
    tokensAfter,
    tokenDelta: tokensAfter - tokensBefore,
    cohorts,
    breaking: count(changes, 'breaking'),
    dangerous: count(changes, 'dangerous'),
    safe: count(changes, 'safe'),
  };
  const budget = a?.policy.token_budget?.input ?? b?.policy.token_budget?.input;
  if (budget !== undefined && budget > 0) {
    diff.inputBudget = budget;
    diff.budgetShare = Math.round((diff.tokenDelta / budget) * 10000) / 10000;
  }
  return diff;
}

function count(changes: Change[], level: Change['level']): number {
  return changes.filter((c) => c.level === level).length;
}

function compareChanges(x: Change, y: Change): number {
  return cmp(x.agent, y.agent) || cmp(x.path, y.path) || cmp(x.type, y.type) || cmp(x.message, y.message);
}

function cmp(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}
