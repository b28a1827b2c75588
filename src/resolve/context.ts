/**
 * The compile-time context a block template is rendered against (docs/formats/prompt-block.md),
 * written down as data. The check phase resolves every template read against
 * this shape; the resolve phase renders with a value built by `buildRenderContext`,
 * which produces exactly this shape (every key present, so strict-mode lookups of
 * optional fields render as empty instead of throwing).
 *
 * Invariant: `buildContextShape(config)` and `buildRenderContext(...)` describe the
 * same object; test/check/context-shape.test.ts keeps them in sync. It lives in the resolve phase (which renders with it); the check phase reads the shape.
 */
import type { CardData, ModelEntry, ResolvedConfig, ToolData } from '../parse/types.js';
import { effectiveDispatch } from './dispatch.js';
import type { EffectiveDispatch } from './types.js';

export type Shape =
  | { readonly kind: 'string' }
  | { readonly kind: 'number' }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'any' }
  /** Values of differing shapes (e.g. an object's fields visited by `#each`): no field is known. */
  | { readonly kind: 'mixed' }
  /** A fixed set of fields. */
  | { readonly kind: 'object'; readonly fields: Readonly<Record<string, Shape>> }
  /** `{*}`: any key; every value has shape `value`. */
  | { readonly kind: 'record'; readonly value: Shape }
  | { readonly kind: 'array'; readonly element: Shape };

const str: Shape = { kind: 'string' };
const num: Shape = { kind: 'number' };
const bool: Shape = { kind: 'boolean' };
const any: Shape = { kind: 'any' };
const obj = (fields: Record<string, Shape>): Shape => ({ kind: 'object', fields });
const rec = (value: Shape): Shape => ({ kind: 'record', value });
const arr = (element: Shape): Shape => ({ kind: 'array', element });

/** `agent.dispatch`: the card's own dispatch section (fields absent in the card are empty). */
const GUARDS = obj({ verbatim: bool, overlap: bool, echo: bool });
const CARD_DISPATCH = obj({ fan_out_cap: num, intent_count_failsafe: bool, stream: str, status_rendering: rec(str), guards: GUARDS });
const HISTORY = obj({ max_tokens: num, keep_last_turns: num, summary_model: str });

/** `agent`: the card as written (normalized). */
const AGENT = obj({
  id: str,
  description: str,
  role: str,
  owner: str,
  model: str,
  fallback_model: str,
  tools: arr(str),
  prompt_blocks: arr(str),
  sub_agents: arr(str),
  tuning: obj({ max_output_tokens: num, reasoning_effort: str, text_verbosity: str }),
  input: rec(any),
  input_required: arr(str),
  output: rec(any),
  status_events: arr(str),
  policy: obj({
    token_budget: obj({ input: num, output: num }),
    time_budget_ms: num,
    tool_whitelist: arr(str),
    max_tool_calls: num,
    max_recursion_depth: num,
  }),
  dispatch: CARD_DISPATCH,
  history: HISTORY,
});

const SUB_AGENT = obj({ id: str, tool_name: str, description: str });
const TOOL = obj({ name: str, description: str, envelope: bool });
/** `dispatch`: effective values (config defaults applied). */
const DISPATCH = obj({ fan_out_cap: num, intent_count_failsafe: bool, stream: str, tool_prefix: str, status_rendering: rec(str) });
const MODEL = obj({ id: str, provider: str, model: str, contextWindow: num, encoding: str });

/**
 * The root shape; `flags` has one boolean per flag in config.flags. With
 * `flags: undefined` (the config failed to load, so the flags are not known)
 * any flag name is accepted.
 */
export function buildContextShape(config: { flags: readonly string[] | undefined }): Shape {
  const flags: Record<string, Shape> = {};
  for (const f of config.flags ?? []) flags[f] = bool;
  return obj({
    agent: AGENT,
    sub_agents: arr(SUB_AGENT),
    tools: arr(TOOL),
    dispatch: DISPATCH,
    flags: config.flags === undefined ? rec(bool) : obj(flags),
    model: MODEL,
  });
}

/** Field names of an object shape (sorted), for did-you-mean and messages. */
export function fieldNames(shape: Shape): string[] {
  return shape.kind === 'object' ? Object.keys(shape.fields).sort() : [];
}

export interface RenderContextInput {
  card: CardData;
  /** Resolved sub-agents, in `sub_agents` order. */
  subAgents: readonly CardData[];
  /** The card's own resolved tool contracts, in `tools` order. */
  tools: readonly ToolData[];
  config: ResolvedConfig;
  modelId: string | undefined;
  model: ModelEntry | undefined;
  /** The encoding tokens are counted with. */
  encoding: string;
  /** Flags on in the cohort being rendered. */
  flagsOn: readonly string[];
  /** The agent's effective dispatch (Agent.dispatch); computed from card and config when not given. */
  dispatch?: EffectiveDispatch;
}

/**
 * The value a block is rendered with: exactly `buildContextShape(config)`. Optional
 * card fields are present with value `undefined` so that `{{agent.fallback_model}}`
 * renders empty instead of failing a strict lookup.
 */
export function buildRenderContext(input: RenderContextInput): Record<string, unknown> {
  const { card, config } = input;
  const policy = card.policy;
  const dispatch = card.dispatch;
  const effective = input.dispatch ?? effectiveDispatch(card, config);
  const flags: Record<string, boolean> = {};
  for (const f of config.flags) flags[f] = input.flagsOn.includes(f);
  return {
    agent: {
      id: card.id,
      description: card.description,
      role: card.role,
      owner: card.owner,
      model: card.model,
      fallback_model: card.fallback_model,
      tools: [...card.tools],
      prompt_blocks: [...card.prompt_blocks],
      sub_agents: [...card.sub_agents],
      tuning: {
        max_output_tokens: card.tuning.max_output_tokens,
        reasoning_effort: card.tuning.reasoning_effort,
        text_verbosity: card.tuning.text_verbosity,
      },
      input: { ...card.input },
      input_required: [...card.input_required],
      output: card.output === undefined ? {} : { ...card.output },
      status_events: [...card.status_events],
      policy: {
        token_budget: { input: policy.token_budget?.input, output: policy.token_budget?.output },
        time_budget_ms: policy.time_budget_ms,
        tool_whitelist: policy.tool_whitelist === undefined ? [] : [...policy.tool_whitelist],
        max_tool_calls: policy.max_tool_calls,
        max_recursion_depth: policy.max_recursion_depth,
      },
      dispatch: {
        fan_out_cap: dispatch?.fan_out_cap,
        intent_count_failsafe: dispatch?.intent_count_failsafe,
        stream: dispatch?.stream,
        status_rendering: { ...(dispatch?.status_rendering ?? {}) },
        guards: { verbatim: dispatch?.guards?.verbatim, overlap: dispatch?.guards?.overlap, echo: dispatch?.guards?.echo },
      },
      history: {
        max_tokens: card.history?.max_tokens,
        keep_last_turns: card.history?.keep_last_turns,
        summary_model: card.history?.summary_model,
      },
    },
    sub_agents: input.subAgents.map((s) => ({
      id: s.id,
      tool_name: `${effective.toolPrefix}${s.id}`,
      description: s.description,
    })),
    tools: input.tools.map((t) => ({ name: t.name, description: t.description, envelope: t.envelope })),
    dispatch: {
      fan_out_cap: effective.fanOutCap,
      intent_count_failsafe: effective.intentCountFailsafe,
      stream: effective.stream,
      tool_prefix: effective.toolPrefix,
      status_rendering: { ...effective.statusRendering },
    },
    flags,
    model: {
      id: input.modelId,
      provider: input.model?.provider,
      model: input.model?.model,
      contextWindow: input.model?.contextWindow,
      encoding: input.encoding,
    },
  };
}

/** Root names of the context; a block's render depends only on the roots it reads. */
export const CONTEXT_ROOTS = ['agent', 'sub_agents', 'tools', 'dispatch', 'flags', 'model'] as const;
