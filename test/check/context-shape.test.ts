import { describe, expect, it } from 'vitest';
import { buildContextShape, buildRenderContext, type Shape } from '../../src/resolve/context.js';
import type { CardData, ResolvedConfig } from '../../src/parse/types.js';

/** Paths where `value` does not have exactly the keys `shape` names (records and any accept anything). */
function mismatches(shape: Shape, value: unknown, path = '$'): string[] {
  switch (shape.kind) {
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${path}: not an object`];
      const keys = Object.keys(value).sort();
      const want = Object.keys(shape.fields).sort();
      const out: string[] = [];
      for (const k of want) if (!keys.includes(k)) out.push(`${path}.${k}: missing`);
      for (const k of keys) if (!want.includes(k)) out.push(`${path}.${k}: not in the shape`);
      for (const k of want) if (keys.includes(k)) out.push(...mismatches(shape.fields[k]!, (value as Record<string, unknown>)[k], `${path}.${k}`));
      return out;
    }
    case 'array':
      if (!Array.isArray(value)) return [`${path}: not a list`];
      return value.flatMap((v, i) => mismatches(shape.element, v, `${path}[${i}]`));
    case 'record':
      if (typeof value !== 'object' || value === null) return [`${path}: not an object`];
      return Object.entries(value).flatMap(([k, v]) => mismatches(shape.value, v, `${path}.${k}`));
    case 'any':
      return [];
    default:
      return value === undefined || typeof value === shape.kind ? [] : [`${path}: not a ${shape.kind}`];
  }
}

const config: ResolvedConfig = {
  models: { m: { provider: 'openai', model: 'gpt', contextWindow: 1000, encoding: 'o200k_base', tools: true } },
  platform: { owner: 'platform', requiredBlocks: [] },
  budgets: { promptWarnRatio: 0.25, promptErrorRatio: 0.5, descriptionMaxTokens: 400, maxSubAgents: 7 },
  dispatch: { toolPrefix: 'ask_', fanOutCap: 3 },
  flags: ['a', 'b'],
  dynamicContext: { fields: ['date'], template: '' },
  rules: {},
};

const card = (id: string, extra: Partial<CardData> = {}): CardData => ({
  id,
  description: `The ${id} agent.`,
  role: 'native',
  owner: 'team',
  model: 'm',
  tools: [],
  prompt_blocks: [],
  sub_agents: [],
  tuning: {},
  input: { query: { type: 'string' } },
  input_required: ['query'],
  status_events: [],
  policy: {},
  ...extra,
});

describe('compile-time context', () => {
  it('buildRenderContext builds exactly the shape the checker resolves against', () => {
    const shape = buildContextShape(config);
    const minimal = buildRenderContext({
      card: card('x'),
      subAgents: [],
      tools: [],
      config,
      modelId: undefined,
      model: undefined,
      encoding: 'o200k_base',
      flagsOn: [],
    });
    expect(mismatches(shape, minimal)).toEqual([]);
    const full = buildRenderContext({
      card: card('boss', {
        role: 'orchestrator',
        fallback_model: 'm',
        tools: ['t'],
        sub_agents: ['x'],
        tuning: { max_output_tokens: 10, reasoning_effort: 'low', text_verbosity: 'low' },
        output: { type: 'object' },
        status_events: ['e'],
        policy: { token_budget: { input: 1, output: 2 }, time_budget_ms: 3, tool_whitelist: ['t'], max_tool_calls: 4, max_recursion_depth: 1 },
        dispatch: { fan_out_cap: 2, intent_count_failsafe: true, status_rendering: { e: 'E' } },
      }),
      subAgents: [card('x')],
      tools: [{ name: 't', description: 'T', parameters: { type: 'object' }, envelope: true, status_events: [] }],
      config,
      modelId: 'm',
      model: config.models.m,
      encoding: 'o200k_base',
      flagsOn: ['b'],
    });
    expect(mismatches(shape, full)).toEqual([]);
    expect(full.flags).toEqual({ a: false, b: true });
    expect(full.sub_agents).toEqual([{ id: 'x', tool_name: 'ask_x', description: 'The x agent.' }]);
  });
});
