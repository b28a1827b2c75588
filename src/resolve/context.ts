/**
 * The compile-time context a block renders against (SPEC §1.2). Every field the
 * context shape (src/check/context-shape.ts) declares is present — absent
 * optional values are `null` — so strict rendering fails only on reads the
 * shape does not allow.
 */
import type { Card, ModelEntry, ResolvedConfig } from '../parse/types.js';

export interface TemplateContext {
  agent: Record<string, unknown>;
  sub_agents: { id: string; tool_name: string; description: string }[];
  tools: { name: string; description: string; envelope: boolean }[];
  dispatch: { fan_out_cap: number; intent_count_failsafe: boolean; tool_prefix: string; status_rendering: Record<string, string> };
  flags: Record<string, boolean>;
  model: { id: string; provider: string; model: string; contextWindow: number; encoding: string };
}

export interface ContextInputs {
  card: Card;
  subAgents: Card[];
  tools: { name: string; description: string; envelope: boolean }[];
  config: ResolvedConfig;
  modelId: string | undefined;
  model: ModelEntry | undefined;
  flagsOn: readonly string[];
}

export function buildContext(i: ContextInputs): TemplateContext {
  const d = i.card.data;
  const prefix = i.config.dispatch.toolPrefix;
  const policy = d.policy;
  return {
    agent: {
      id: d.id,
      description: d.description,
      role: d.role,
      owner: d.owner,
      model: d.model ?? null,
      fallback_model: d.fallback_model ?? null,
      tools: d.tools,
      prompt_blocks: d.prompt_blocks,
      sub_agents: d.sub_agents,
      tuning: {
        max_output_tokens: d.tuning.max_output_tokens ?? null,
        reasoning_effort: d.tuning.reasoning_effort ?? null,
        text_verbosity: d.tuning.text_verbosity ?? null,
      },
      input: d.input,
      input_required: d.input_required,
      output: d.output ?? null,
      status_events: d.status_events,
      policy: {
        token_budget: { input: policy.token_budget?.input ?? null, output: policy.token_budget?.output ?? null },
        time_budget_ms: policy.time_budget_ms ?? null,
        tool_whitelist: policy.tool_whitelist ?? null,
        max_tool_calls: policy.max_tool_calls ?? null,
        max_recursion_depth: policy.max_recursion_depth ?? null,
      },
      dispatch: d.dispatch ?? null,
    },
    sub_agents: i.subAgents.map((s) => ({ id: s.data.id, tool_name: `${prefix}${s.data.id}`, description: s.data.description })),
    tools: i.tools,
    dispatch: {
      fan_out_cap: d.dispatch?.fan_out_cap ?? i.config.dispatch.fanOutCap,
      intent_count_failsafe: d.dispatch?.intent_count_failsafe ?? false,
      tool_prefix: prefix,
      status_rendering: d.dispatch?.status_rendering ?? {},
    },
    flags: Object.fromEntries(i.config.flags.map((f) => [f, i.flagsOn.includes(f)])),
    model: {
      id: i.modelId ?? '',
      provider: i.model?.provider ?? '',
      model: i.model?.model ?? '',
      contextWindow: i.model?.contextWindow ?? 0,
      encoding: i.model?.encoding ?? 'o200k_base',
    },
  };
}

/** Root names of the context; a block's render depends only on the roots it reads. */
export const CONTEXT_ROOTS = ['agent', 'sub_agents', 'tools', 'dispatch', 'flags', 'model'] as const;
