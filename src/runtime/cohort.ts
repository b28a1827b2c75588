/**
 * Prefix selection. The cohort is the enabled flags that this agent's blocks use,
 * sorted; the bundle holds exactly one prefix per cohort, the default ([]) first.
 *
 * Invariant: the same agent and flag set always selects the same prefix object,
 * so its text (and the provider's prompt cache) is shared by the whole cohort.
 */
import type { BundleAgent, BundlePrefix } from '../bundle/types.js';

export function selectPrefix(agent: BundleAgent, enabledFlags: readonly string[]): BundlePrefix | undefined {
  const enabled = new Set(enabledFlags);
  const cohort = agent.flags.filter((f) => enabled.has(f)).sort();
  const key = cohort.join('+');
  return agent.prefixes.find((p) => p.cohort.join('+') === key) ?? agent.prefixes[0];
}
