/**
 * Hand-made bundles for diff tests: an agent is described by its blocks and
 * tools; prefixes (one per cohort of the flags its blocks use), token counts
 * (words, good enough here) and hashes are derived the way emit derives them.
 */
import { createHash } from 'node:crypto';
import type { Bundle, BundleAgent, BundlePrefix, DispatchEntry, NeutralTool } from '../../src/bundle/types.js';

export interface TestBlock {
  id: string;
  text: string;
  flag?: string;
  owner?: string;
}

export interface TestAgent {
  model?: string;
  fallback_model?: string;
  role?: BundleAgent['role'];
  blocks?: TestBlock[];
  tools?: NeutralTool[];
  sub_agents?: string[];
  budget?: number;
  fan_out_cap?: number;
  intent_count_failsafe?: boolean;
  stream?: 'relay' | 'compose';
  status_rendering?: Record<string, string | null>;
  status_events?: string[];
  envelope?: Record<string, boolean>;
  max_output_tokens?: number;
}

const tokens = (text: string) => text.split(/\s+/).filter(Boolean).length;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function prefixes(blocks: TestBlock[]): BundlePrefix[] {
  const flags = [...new Set(blocks.flatMap((b) => (b.flag ? [b.flag] : [])))].sort();
  const cohorts: string[][] = [[]];
  for (const flag of flags) for (const c of [...cohorts]) cohorts.push([...c, flag].sort());
  cohorts.sort((a, b) => a.length - b.length || a.join('+').localeCompare(b.join('+')));
  return cohorts.map((cohort) => {
    let text = '';
    const out: BundlePrefix['blocks'] = [];
    for (const b of blocks) {
      if (b.flag && !cohort.includes(b.flag)) continue;
      const body = b.text.endsWith('\n') ? b.text : `${b.text}\n`;
      out.push({
        id: b.id,
        owner: b.owner ?? 'team',
        category: 'instructions',
        file: `blocks/${b.id}.md`,
        required: false,
        tokens: tokens(body),
        start: text.length,
        length: body.length,
      });
      text += body;
    }
    return { cohort, key: cohort.join('+'), text, tokens: tokens(text), sha256: sha(text), blocks: out };
  });
}

export function tool(name: string, parameters: Record<string, unknown>, description = `The ${name} tool.`): NeutralTool {
  return { name, description, parameters: { type: 'object', additionalProperties: false, ...parameters } };
}

export function agent(id: string, spec: TestAgent, all: Record<string, TestAgent> = {}): BundleAgent {
  const subs = spec.sub_agents ?? [];
  const failsafe = spec.intent_count_failsafe ?? subs.length > 0;
  const subTools = subs.map((sub) =>
    tool(
      `ask_${sub}`,
      {
        properties: { query: { type: 'string', description: 'The user words.' }, ...(failsafe ? { intent_count: { type: 'integer' } } : {}) },
        required: failsafe ? ['query', 'intent_count'] : ['query'],
      },
      `Routes to ${sub}.`,
    ),
  );
  void all;
  const own = spec.tools ?? [];
  const table: Record<string, DispatchEntry> = {};
  for (const t of own) table[t.name] = { kind: 'tool', tool: t.name, envelope: spec.envelope?.[t.name] ?? false };
  for (const sub of subs) table[`ask_${sub}`] = { kind: 'sub_agent', agent: sub, policy: {} };
  const neutral = [...own, ...subTools];
  return {
    id,
    description: `The ${id} agent.`,
    role: spec.role ?? (subs.length > 0 ? 'orchestrator' : 'native'),
    owner: 'team',
    model: spec.model ?? 'small',
    ...(spec.fallback_model ? { fallback_model: spec.fallback_model } : {}),
    tuning: spec.max_output_tokens ? { max_output_tokens: spec.max_output_tokens } : {},
    policy: spec.budget ? { token_budget: { input: spec.budget } } : {},
    input: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false },
    status_events: spec.status_events ?? [],
    sub_agents: subs,
    tools: {
      neutral,
      openai: neutral.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters, strict: true } })),
      anthropic: neutral.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })),
    },
    flags: [...new Set((spec.blocks ?? []).flatMap((b) => (b.flag ? [b.flag] : [])))].sort(),
    prefixes: prefixes(spec.blocks ?? [{ id: `persona-${id}`, text: `You are ${id}.` }]),
    suffix_template: '<context>{{date}}</context>',
    suffix_ast: [],
    dispatch: {
      fan_out_cap: spec.fan_out_cap ?? 3,
      intent_count_failsafe: failsafe,
      stream: spec.stream ?? 'compose',
      status_rendering: spec.status_rendering ?? {},
      table,
    },
  };
}

export function bundle(agents: Record<string, TestAgent>): Bundle {
  const out: Bundle = {
    formatVersion: '2',
    agentcVersion: '0.0.0-test',
    hash: '',
    models: {
      small: {
        provider: 'openai',
        model: 'gpt-small',
        contextWindow: 100_000,
        encoding: 'o200k_base',
        tools: true,
        parallelToolCalls: true,
        approximateTokens: false,
      } as Bundle['models'][string],
      big: {
        provider: 'openai',
        model: 'gpt-big',
        contextWindow: 200_000,
        encoding: 'o200k_base',
        tools: true,
        parallelToolCalls: true,
        approximateTokens: false,
      } as Bundle['models'][string],
    },
    flags: ['v2'],
    dynamicContext: { fields: ['date'], template: '<context>{{date}}</context>' },
    dynamicContextAst: [],
    dispatchDefaults: { toolPrefix: 'ask_', fanOutCap: 3 },
    tools: {},
    agents: {},
  };
  for (const [id, spec] of Object.entries(agents)) out.agents[id] = agent(id, spec, agents);
  out.hash = sha(JSON.stringify(out));
  return out;
}

/** Deep copy to mutate one side of a comparison. */
export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
