/**
 * Bundle → A2A AgentCard for one orchestrator. Invariants: pure and
 * deterministic (keys sorted, no timestamps); one skill per sub-agent, in the
 * orchestrator's sub_agents order, with the sub-agent's id, description and its
 * owner as a tag; `version` changes exactly when the bundle does (it is derived
 * from the bundle hash).
 */
import type { AgentCard, AgentSkill } from '@a2a-js/sdk';
import type { Bundle, BundleAgent } from '../bundle/types.js';

/** The A2A protocol version the vendored schema describes. */
export const A2A_PROTOCOL_VERSION = '0.3.0';

export interface A2AOptions {
  url: string;
}

export function orchestratorIds(bundle: Bundle): string[] {
  return Object.values(bundle.agents)
    .filter((a) => a.role === 'orchestrator' || a.sub_agents.length > 0)
    .map((a) => a.id)
    .sort();
}

export function toA2ACard(bundle: Bundle, agent: BundleAgent, opts: A2AOptions): AgentCard {
  const skills: AgentSkill[] = agent.sub_agents.map((id) => {
    const sub = bundle.agents[id];
    return {
      id,
      name: humanize(id),
      description: sub?.description ?? id,
      tags: sub ? [sub.owner] : [],
      inputModes: ['text/plain'],
      outputModes: ['text/plain'],
    };
  });
  return {
    protocolVersion: A2A_PROTOCOL_VERSION,
    name: humanize(agent.id),
    description: agent.description,
    url: opts.url,
    preferredTransport: 'JSONRPC',
    version: `0.0.0+bundle.${bundle.hash.slice(0, 16)}`,
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills,
  };
}

/** "rewards_admin" → "Rewards admin". */
function humanize(id: string): string {
  const words = id.split('_').filter((w) => w !== '');
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
