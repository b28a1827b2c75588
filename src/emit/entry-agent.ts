import type { Bundle } from '../bundle/types.js';
import { compareCodeUnits } from '../bundle/canonical-json.js';

/**
 * The agent a turn goes to when the caller names none: the one root (an agent no
 * other agent lists as a sub-agent) that orchestrates (role `orchestrator` or has
 * sub-agents); failing that, the only root. `undefined` when that is ambiguous —
 * then callers must always name the agent.
 */
export function entryAgent(bundle: Bundle): string | undefined {
  const ids = Object.keys(bundle.agents).sort(compareCodeUnits);
  const children = new Set(ids.flatMap((id) => bundle.agents[id]!.sub_agents));
  const roots = ids.filter((id) => !children.has(id));
  const orchestrators = roots.filter((id) => {
    const a = bundle.agents[id]!;
    return a.role === 'orchestrator' || a.sub_agents.length > 0;
  });
  if (orchestrators.length === 1) return orchestrators[0];
  if (orchestrators.length === 0 && roots.length === 1) return roots[0];
  return undefined;
}
