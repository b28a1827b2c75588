/**
 * Which prompt cohort a set of switched-on flags selects, defined once for the
 * compiler (`agentc prompt`) and the runtime (`selectPrefix`).
 *
 * Invariant: only the flags the agent's blocks use count; the key is those flags
 * in the agent's (sorted) order joined with '+', '' for the default cohort, the
 * same key resolve gives each cohort (`Cohort.key`, `BundlePrefix.key`).
 */
import type { BundleAgent, BundlePrefix } from './types.js';

/** The key of the cohort `flagsOn` selects among `agentFlags` (sorted). */
export function cohortKey(agentFlags: readonly string[], flagsOn: Iterable<string>): string {
  const on = new Set(flagsOn);
  return agentFlags
    .filter((f) => on.has(f))
    .sort()
    .join('+');
}

/** The agent's prefix for the cohort `flagsOn` selects, if the bundle has it. */
export function findPrefix(agent: BundleAgent, flagsOn: Iterable<string>): BundlePrefix | undefined {
  const key = cohortKey(agent.flags, flagsOn);
  return agent.prefixes.find((p) => p.key === key);
}
