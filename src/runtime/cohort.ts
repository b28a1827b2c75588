/**
 * Prefix selection. The cohort is the enabled flags that this agent's blocks use,
 * sorted; the bundle holds exactly one prefix per cohort, the default ([]) first.
 *
 * Invariant: the same agent and flag set always selects the same prefix object,
 * so its text (and the provider's prompt cache) is shared by the whole cohort.
 */
import { findPrefix } from '../bundle/cohort.js';
import type { BundleAgent, BundlePrefix } from '../bundle/types.js';

/** The cohort's prefix (src/bundle/cohort.ts), else the default one. */
export function selectPrefix(agent: BundleAgent, enabledFlags: readonly string[]): BundlePrefix | undefined {
  return findPrefix(agent, enabledFlags) ?? agent.prefixes[0];
}
