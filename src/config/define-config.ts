import type { ModelEntry, RuleSetting } from '../parse/types.js';

/** What an author writes in agentc.config.ts (every section but `models` optional). */
export interface AgentcConfig {
  models: Record<string, ModelEntry>;
  platform?: { owner?: string; requiredBlocks?: string[] };
  budgets?: {
    promptWarnRatio?: number;
    promptErrorRatio?: number;
    descriptionMaxTokens?: number;
    maxSubAgents?: number;
  };
  dispatch?: { toolPrefix?: string; fanOutCap?: number };
  flags?: string[];
  dynamicContext?: { fields: string[]; template: string };
  rules?: Record<string, RuleSetting>;
}

/** Identity function that gives the config author types. */
export function defineConfig<const T extends AgentcConfig>(config: T): T {
  return config;
}
