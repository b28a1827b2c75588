/**
 * The result of comparing two bundles (`agentc diff`). Plain JSON data: the json
 * renderer prints it as is, the other renderers only format it.
 *
 * Invariants: `changes` is sorted (agent, path, type, message) and every change's
 * `message` is built from its catalog template (src/diff/changes.ts); `agents`
 * holds exactly the agents that were added, removed or have at least one change,
 * keyed in sorted order. Nothing here depends on time or the machine.
 */

/** buf-style severity: breaking > dangerous > safe. */
export type ChangeLevel = 'breaking' | 'dangerous' | 'safe';

export const CHANGE_LEVELS: readonly ChangeLevel[] = ['breaking', 'dangerous', 'safe'];

/** Higher is more severe. */
export function levelRank(level: ChangeLevel): number {
  return level === 'breaking' ? 2 : level === 'dangerous' ? 1 : 0;
}

export type ChangeType =
  // agents
  | 'agent-added'
  | 'agent-removed'
  | 'role-changed'
  | 'model-changed'
  | 'model-settings-changed'
  | 'fallback-model-changed'
  | 'tuning-changed'
  | 'policy-changed'
  | 'output-schema-changed'
  | 'status-event-added'
  | 'status-event-removed'
  | 'suffix-changed'
  // prompts
  | 'prompt-changed'
  | 'cohort-added'
  | 'cohort-removed'
  | 'block-added'
  | 'block-removed'
  | 'blocks-reordered'
  // tools
  | 'tool-added'
  | 'tool-removed'
  | 'tools-reordered'
  | 'tool-description-changed'
  | 'tool-envelope-changed'
  | 'parameter-added-optional'
  | 'parameter-added-required'
  | 'parameter-removed'
  | 'parameter-description-changed'
  | 'parameter-made-required'
  | 'parameter-made-optional'
  | 'type-changed'
  | 'enum-value-added'
  | 'enum-value-removed'
  | 'default-changed'
  | 'constraint-tightened'
  | 'constraint-loosened'
  | 'constraint-changed'
  | 'schema-changed'
  // dispatch
  | 'sub-agent-added'
  | 'sub-agent-removed'
  | 'fan-out-cap-changed'
  | 'intent-count-failsafe-changed'
  | 'dispatch-stream-changed'
  | 'status-rendering-added'
  | 'status-rendering-removed'
  | 'status-rendering-changed';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface Change {
  level: ChangeLevel;
  type: ChangeType;
  /** The agent whose bundle entry changed. */
  agent: string;
  /** Where, dotted: `ask_rewards.parameters.query.type`, `prompt`, `dispatch.fan_out_cap`; `[]` is an array's items. */
  path: string;
  message: string;
  before?: JsonValue;
  after?: JsonValue;
}

export type AgentStatus = 'added' | 'removed' | 'changed';

/** One cohort's prefix on both sides; absent side = cohort added/removed. */
export interface CohortDiff {
  /** '' is the default cohort. */
  key: string;
  status: 'added' | 'removed' | 'changed' | 'unchanged';
  tokensBefore?: number;
  tokensAfter?: number;
  /**
   * after − before. When the cohort exists on one side only, the other side is
   * the `comparedWith` cohort (else it counts 0, e.g. a whole agent added).
   */
  tokenDelta: number;
  /**
   * Set for a cohort added or removed while the agent exists on both sides (or
   * a flagged cohort of a new agent): the cohort key ('' = default) its text and
   * tokens are compared with — the prompt those users get on the other side.
   */
  comparedWith?: string;
  sha256Before?: string;
  sha256After?: string;
  /** True when the prompt-cache prefix of this cohort changes (hash differs or cohort gone/new). */
  cacheInvalidated: boolean;
  /** Ids of blocks whose text changed, then blocks added, then blocks removed (compared as tokenDelta is). */
  changedBlocks: string[];
  /** Unified diff of the prefix text (3 lines of context); '' when unchanged. */
  unifiedDiff: string;
}

export interface AgentDiff {
  status: AgentStatus;
  /** Default-cohort prefix tokens ([] cohort); a missing side counts 0. */
  tokensBefore: number;
  tokensAfter: number;
  tokenDelta: number;
  /** policy.token_budget.input of the after side (else before side), when set. */
  inputBudget?: number;
  /** tokenDelta / inputBudget, rounded to 4 decimals, when a budget is set. */
  budgetShare?: number;
  /** Every cohort on either side, sorted by key ('' first). */
  cohorts: CohortDiff[];
  breaking: number;
  dangerous: number;
  safe: number;
}

export interface DiffSummary {
  breaking: number;
  dangerous: number;
  safe: number;
  /** Number of entries of `agents`. */
  agents: number;
  /** Sum of the agents' default-cohort token deltas. */
  tokenDelta: number;
  /** Cohorts (over all agents) whose prompt-cache prefix changes. */
  cacheInvalidated: number;
  beforeHash: string;
  afterHash: string;
}

export interface BundleDiff {
  summary: DiffSummary;
  changes: Change[];
  agents: Record<string, AgentDiff>;
}
