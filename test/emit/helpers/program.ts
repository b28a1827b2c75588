/**
 * A Program built by hand, so the emit tests do not depend on load/parse/resolve:
 * blocks are plain text (no templates), cohorts are assembled the way resolve
 * does it (each block trimmed, followed by a blank line; flagged blocks only in
 * cohorts with their flag; default cohort first, then by size, then by name).
 */
import { resolveSuffix } from '../../../src/resolve/suffix.js';
import { WORKSPACE_LAYOUT } from '../../../src/load/layout.js';
import { SourceFile } from '../../../src/load/source.js';
import { effectiveDispatch } from '../../../src/resolve/dispatch.js';
import type { Block, BlockCategory, Card, CardData, ConfigFile, JsonSchema, ResolvedConfig, Tool, ToolData } from '../../../src/parse/types.js';
import type { Agent, AgentTool, Cohort, Program, RenderedBlock } from '../../../src/resolve/types.js';
import { countTokens, type Encoding } from '../../../src/tokenize/index.js';

const RANGE = { start: { line: 1, column: 1 }, end: { line: 1, column: 1 } };
const locate = () => RANGE;
const find = () => RANGE;

export interface BlockSpec {
  id: string;
  category?: BlockCategory;
  owner?: string;
  text: string;
  flag?: string;
  dir?: string;
}

export type CardSpec = Partial<CardData> & { id: string };

export interface ProgramSpec {
  config?: Partial<ResolvedConfig>;
  cards: CardSpec[];
  blocks: BlockSpec[];
  tools?: (Partial<ToolData> & { name: string })[];
}

export const DEFAULT_CONFIG: ResolvedConfig = {
  models: {
    'main-model': { provider: 'openai', model: 'gpt-4.1-mini', contextWindow: 128_000, encoding: 'o200k_base', tools: true, parallelToolCalls: true },
    'claude-model': { provider: 'anthropic', model: 'claude-haiku-4-5', contextWindow: 200_000, tools: true, parallelToolCalls: true },
    'unused-model': { provider: 'openai', model: 'gpt-4-turbo', contextWindow: 128_000, encoding: 'cl100k_base' },
  },
  platform: { owner: 'platform', requiredBlocks: ['persona-base'] },
  budgets: { promptWarnRatio: 0.25, promptErrorRatio: 0.5, descriptionMaxTokens: 400, maxSubAgents: 7 },
  dispatch: { toolPrefix: 'ask_', fanOutCap: 3 },
  flags: ['beta', 'gamma'],
  dynamicContext: { fields: ['date', 'user_id'], template: '<context>\nDate: {{date}}\n</context>' },
  rules: {},
};

export function makeProgram(spec: ProgramSpec): Program {
  const config: ResolvedConfig = { ...DEFAULT_CONFIG, ...spec.config };
  const configFile: ConfigFile = { kind: 'config', file: undefined, data: config, find, locate };
  const files = new Map<string, SourceFile>();

  const blocks = new Map<string, Block>();
  for (const b of spec.blocks) {
    const path = `blocks/${b.dir ?? b.owner ?? 'platform'}/${b.id}.md`;
    const file = new SourceFile(path, `---\n---\n${b.text}`);
    files.set(path, file);
    blocks.set(b.id, {
      kind: 'block',
      file,
      data: { id: b.id, category: b.category ?? 'instructions', owner: b.owner ?? 'platform', reusable: false, ...(b.flag ? { feature_flag: b.flag } : {}) },
      body: b.text,
      bodyOffset: 8,
      template: undefined,
      find,
      locate,
    });
  }

  const tools = new Map<string, Tool>();
  for (const t of spec.tools ?? []) {
    const path = `schemas/tools/${t.name}.yaml`;
    const file = new SourceFile(path, '');
    files.set(path, file);
    tools.set(t.name, {
      kind: 'tool',
      file,
      stem: t.name,
      data: { description: `Tool ${t.name}.`, parameters: { type: 'object', properties: {} }, envelope: false, status_events: [], ...t },
      find,
      locate,
    });
  }

  const cards = new Map<string, Card>();
  for (const c of spec.cards) {
    const path = `cards/${c.id}.yaml`;
    const file = new SourceFile(path, '');
    files.set(path, file);
    const data: CardData = {
      description: `Agent ${c.id} handles ${c.id} questions for the signed-in user.`,
      role: (c.sub_agents?.length ?? 0) > 0 ? 'orchestrator' : 'native',
      owner: 'platform',
      model: 'main-model',
      tools: [],
      prompt_blocks: [],
      sub_agents: [],
      tuning: {},
      input: {
        query: { type: 'string', description: "The user's exact words." },
        prior_context: { type: 'string', description: 'Summary of earlier turns.' },
      },
      input_required: ['query'],
      status_events: [],
      policy: {},
      ...c,
    };
    cards.set(c.id, { kind: 'card', file, stem: c.id, data, explicitInput: c.input !== undefined, find, locate });
  }

  const program: Program = {
    root: '/ws',
    config: configFile,
    configStatus: 'loaded',
    layout: WORKSPACE_LAYOUT,
    cards,
    blocks,
    tools,
    duplicates: [],
    files,
    agents: new Map(),
    parents: new Map(),
    suffix: resolveSuffix(configFile),
  };
  for (const card of [...cards.values()].sort((a, b) => (a.data.id < b.data.id ? -1 : 1))) {
    for (const sub of card.data.sub_agents) program.parents.set(sub, [...(program.parents.get(sub) ?? []), card.data.id]);
  }
  for (const id of [...cards.keys()].sort()) program.agents.set(id, makeAgent(program, cards.get(id)!));
  return program;
}

function makeAgent(program: Program, card: Card): Agent {
  const config = program.config.data;
  const model = card.data.model ? config.models[card.data.model] : undefined;
  const encoding: Encoding = model?.encoding ?? 'o200k_base';
  const refs = [...config.platform.requiredBlocks.map((id) => ({ id, required: true })), ...card.data.prompt_blocks.map((id) => ({ id, required: false }))]
    .filter((r) => program.blocks.has(r.id))
    .map((r) => ({ block: program.blocks.get(r.id)!, required: r.required }));
  const flags = [...new Set(refs.map((r) => r.block.data.feature_flag).filter((f): f is string => f !== undefined))].sort();
  const cohorts = subsets(flags).map((on) => assemble(on, refs, encoding));

  const dispatch = effectiveDispatch(card.data, config);
  const failsafe = dispatch.intentCountFailsafe;
  const tools: AgentTool[] = [];
  for (const name of card.data.tools) {
    const tool = program.tools.get(name);
    if (tool) tools.push({ name, kind: 'tool', description: tool.data.description, parameters: tool.data.parameters, tool, declaredAt: RANGE });
  }
  const subAgents: Card[] = [];
  for (const id of card.data.sub_agents) {
    const sub = program.cards.get(id);
    if (!sub) continue;
    subAgents.push(sub);
    tools.push({
      name: `${config.dispatch.toolPrefix}${id}`,
      kind: 'sub_agent',
      description: sub.data.description,
      parameters: handoff(sub, failsafe),
      agent: sub,
      declaredAt: RANGE,
    });
  }
  return {
    card,
    model,
    modelId: model ? card.data.model : undefined,
    encoding,
    blocks: refs,
    flags,
    cohorts,
    cohortLimitExceeded: false,
    dispatch,
    tools,
    subAgents,
    handoffTokens: 0,
    descriptionTokens: 0,
    renderErrors: [],
  };
}

function handoff(sub: Card, failsafe: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = { ...sub.data.input };
  const required = [...sub.data.input_required];
  if (failsafe) {
    properties.intent_count = { type: 'integer', minimum: 1, description: 'How many separate requests the user made in this turn.' };
    required.push('intent_count');
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

function subsets(flags: string[]): string[][] {
  const out: string[][] = [];
  for (let mask = 0; mask < 1 << flags.length; mask++) out.push(flags.filter((_, i) => mask & (1 << i)));
  return out.sort((a, b) => a.length - b.length || (a.join('+') < b.join('+') ? -1 : a.join('+') > b.join('+') ? 1 : 0));
}

function assemble(on: string[], refs: { block: Block; required: boolean }[], encoding: Encoding): Cohort {
  let text = '';
  const blocks: RenderedBlock[] = [];
  for (const ref of refs) {
    const flag = ref.block.data.feature_flag;
    if (flag !== undefined && !on.includes(flag)) continue;
    const t = ref.block.body.trim();
    blocks.push({ block: ref.block, required: ref.required, text: t, tokens: countTokens(t, encoding), start: text.length });
    text += `${t}\n\n`;
  }
  return { flags: on, key: on.join('+'), blocks, text, tokens: countTokens(text, encoding) };
}

/** The example used across emit tests: an orchestrator over two specialists, one flagged block. */
export function sampleProgram(): Program {
  return makeProgram({
    blocks: [
      { id: 'persona-base', category: 'persona', text: 'You are the assistant of Example Pay.\n' },
      { id: 'routing', owner: 'platform', text: 'Route each request to one specialist.' },
      { id: 'billing-instructions', owner: 'billing', text: 'Answer invoice questions with get_invoices.' },
      { id: 'travel-instructions', owner: 'travel', text: 'Search trips with search_trips.' },
      { id: 'travel-beta', owner: 'travel', category: 'capabilities', text: 'Beta: suggest flexible dates.', flag: 'beta' },
    ],
    tools: [
      {
        name: 'get_invoices',
        description: "The user's invoices.",
        parameters: { type: 'object', properties: { status: { type: 'string', enum: ['open', 'paid'] } }, additionalProperties: false },
        envelope: true,
        status_events: ['fetching_invoices'],
      },
      {
        name: 'search_trips',
        description: 'Trips to a destination.',
        parameters: { type: 'object', properties: { destination: { type: 'string' } }, required: ['destination'] },
        status_events: ['searching_trips'],
      },
    ],
    cards: [
      {
        id: 'travel',
        owner: 'travel',
        model: 'claude-model',
        tools: ['search_trips'],
        prompt_blocks: ['travel-instructions', 'travel-beta'],
        policy: { token_budget: { input: 5000 }, time_budget_ms: 3000 },
      },
      {
        id: 'concierge',
        role: 'orchestrator',
        sub_agents: ['travel', 'billing'],
        prompt_blocks: ['routing'],
        input: { query: { type: 'string' } },
        dispatch: {
          fan_out_cap: 2,
          intent_count_failsafe: true,
          status_rendering: { searching_trips: 'Searching trips…', fetching_invoices: 'suppress' },
        },
      },
      {
        id: 'billing',
        owner: 'billing',
        fallback_model: 'claude-model',
        tools: ['get_invoices'],
        prompt_blocks: ['billing-instructions'],
        status_events: ['paying_invoice', 'fetching_invoices'],
        policy: { max_tool_calls: 4 },
      },
    ],
  });
}
