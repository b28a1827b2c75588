/**
 * The facts the Program carries, each computed once in resolve: the config's
 * status, every agent's effective dispatch settings (and that the bundle and the
 * runtime agree with them), the cohort limit (one definition, one way of
 * counting, at the limit ±1) and the workspace layout.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_FAN_OUT_CAP, DEFAULT_STREAM_MODE, DEFAULT_TOOL_PREFIX } from '../../src/bundle/defaults.js';
import type { Bundle, BundleAgent } from '../../src/bundle/types.js';
import { compile, type CompileResult } from '../../src/compile.js';
import { WORKSPACE_LAYOUT } from '../../src/load/layout.js';
import { DEFAULT_CONFIG } from '../../src/parse/config.js';
import { MAX_COHORT_FLAGS } from '../../src/resolve/index.js';
import { fanOutCap } from '../../src/runtime/plan.js';
import type { TurnState } from '../../src/runtime/state.js';
import { FIXTURES } from '../check/fixture-workspace.js';

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((r) => rm(r, { recursive: true, force: true })));
});

/** The golden fixtures' base workspace with `files` written over it (`null` deletes). */
async function workspace(files: Record<string, string | null>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'agentc-program-facts-'));
  roots.push(root);
  await cp(join(FIXTURES, '_base'), root, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    if (text === null) await rm(join(root, path), { force: true });
    else {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
  }
  return root;
}

async function build(files: Record<string, string | null>): Promise<CompileResult> {
  return compile({ root: await workspace(files), bundle: true, persistentCache: false });
}

const BASE_CONFIG = `import { defineConfig } from 'agentc';

export default defineConfig({
  models: { 'main-model': { provider: 'openai', model: 'gpt-4.1-mini', contextWindow: 128_000, encoding: 'o200k_base', tools: true, parallelToolCalls: true } },
  platform: { owner: 'platform', requiredBlocks: ['persona-base'] },
  DISPATCH
  flags: FLAGS,
  dynamicContext: { fields: ['date', 'user_id'], template: '<context>\\nDate: {{date}}\\n</context>' },
});
`;

function config(opts: { dispatch?: string; flags?: string[] } = {}): string {
  return BASE_CONFIG.replace('DISPATCH', opts.dispatch ?? '').replace('FLAGS', JSON.stringify(opts.flags ?? ['beta']));
}

/** The concierge card of the base workspace with its `dispatch:` section replaced. */
function concierge(dispatch: string): string {
  return `id: concierge
description: The front door; routes each user turn to the billing and travel specialists.
role: orchestrator
owner: platform
model: main-model
tools: []
prompt_blocks: [instructions-routing]
sub_agents: [billing, travel]
tuning: { max_output_tokens: 800 }
policy:
  token_budget: { input: 4000, output: 1000 }
  max_recursion_depth: 1
${dispatch}`;
}

const RENDERING = `  status_rendering:
    fetching_invoices: "Looking up your invoices…"
    searching_trips: "Searching trips…"
`;

function rules(result: CompileResult): string[] {
  return result.diagnostics.map((d) => d.rule);
}

describe('Program.configStatus', () => {
  it('is loaded for a config that loads', async () => {
    const r = await build({});
    expect(r.program?.configStatus).toBe('loaded');
    expect(rules(r)).toEqual([]);
  });

  it('is absent without a config file (one config-load error; rules that read the config stand down)', async () => {
    const r = await build({ 'agentc.config.ts': null });
    expect(r.program?.configStatus).toBe('absent');
    expect(rules(r)).toEqual(['config-load']);
  });

  it('is failed for a config that throws', async () => {
    const r = await build({ 'agentc.config.ts': `throw new Error('boom');\n` });
    expect(r.program?.configStatus).toBe('failed');
    expect(rules(r)).toEqual(['config-load']);
  });

  it('is failed for a config whose value is not an object', async () => {
    const r = await build({ 'agentc.config.ts': `export default 42;\n` });
    expect(r.program?.configStatus).toBe('failed');
    expect(rules(r)).toEqual(['config-load']);
  });
});

describe('Agent.dispatch (effective dispatch settings)', () => {
  it("takes the config's fan-out cap when the card sets none, the card's own otherwise", async () => {
    const r = await build({
      'agentc.config.ts': config({ dispatch: `dispatch: { toolPrefix: 'to_', fanOutCap: 2 },` }),
      'cards/concierge.yaml': concierge(`dispatch:\n${RENDERING}`),
    });
    expect(rules(r)).toEqual([]);
    const agent = r.program!.agents.get('concierge')!;
    expect(agent.dispatch).toEqual({
      fanOutCap: 2,
      fanOutCapExplicit: false,
      intentCountFailsafe: false,
      stream: 'compose',
      statusRendering: { fetching_invoices: 'Looking up your invoices…', searching_trips: 'Searching trips…' },
      guards: undefined,
      toolPrefix: 'to_',
    });
    expect(agent.tools.filter((t) => t.kind === 'sub_agent').map((t) => t.name)).toEqual(['to_billing', 'to_travel']);
    const own = await build({
      'cards/concierge.yaml': concierge(`dispatch:\n  fan_out_cap: 1\n  stream: relay\n  intent_count_failsafe: true\n  guards: { echo: true }\n${RENDERING}`),
    });
    expect(rules(own)).toEqual([]);
    const d = own.program!.agents.get('concierge')!.dispatch;
    expect(d).toMatchObject({ fanOutCap: 1, fanOutCapExplicit: true, intentCountFailsafe: true, stream: 'relay', guards: { echo: true }, toolPrefix: 'ask_' });
    // The failsafe adds intent_count to each sub-agent's tool.
    const ask = own.program!.agents.get('concierge')!.tools.find((t) => t.name === 'ask_billing')!;
    expect((ask.parameters.required as string[]).includes('intent_count')).toBe(true);
  });

  it('the bundle carries exactly the effective values', async () => {
    const r = await build({ 'cards/concierge.yaml': concierge(`dispatch:\n  stream: relay\n${RENDERING}`) });
    expect(rules(r)).toEqual([]);
    for (const [id, agent] of r.program!.agents) {
      const emitted = r.bundle!.agents[id]!.dispatch;
      expect(emitted.fan_out_cap).toBe(agent.dispatch.fanOutCap);
      expect(emitted.intent_count_failsafe).toBe(agent.dispatch.intentCountFailsafe);
      expect(emitted.stream).toBe(agent.dispatch.stream);
      expect(emitted.guards).toEqual(agent.dispatch.guards);
    }
    expect(r.bundle!.agents.concierge!.dispatch).toMatchObject({ fan_out_cap: 2, stream: 'relay', intent_count_failsafe: false });
  });

  it('a block reading {{dispatch.*}} renders the effective values', async () => {
    const r = await build({
      'agentc.config.ts': config({ dispatch: `dispatch: { toolPrefix: 'to_', fanOutCap: 2 },` }),
      'cards/concierge.yaml': concierge(`dispatch:\n${RENDERING}`),
      'blocks/concierge/instructions-routing.md': `---\ncategory: instructions\nowner: platform\n---\nCall at most {{dispatch.fan_out_cap}} specialists ({{dispatch.tool_prefix}}*), mode {{dispatch.stream}}.\n`,
    });
    expect(rules(r)).toEqual([]);
    expect(r.program!.agents.get('concierge')!.cohorts[0]!.text).toContain('Call at most 2 specialists (to_*), mode compose.');
  });
});

describe('dispatch defaults: one source of truth', () => {
  it('the config parser, the bundle and the runtime share the defaults of src/bundle/defaults.ts', () => {
    expect(DEFAULT_CONFIG.dispatch).toEqual({ toolPrefix: DEFAULT_TOOL_PREFIX, fanOutCap: DEFAULT_FAN_OUT_CAP });
    expect(DEFAULT_FAN_OUT_CAP).toBe(3);
    expect(DEFAULT_STREAM_MODE).toBe('compose');
  });

  it('with no dispatch in config or card, the compiler emits the default cap, and the runtime reads the same from a bundle without the field', async () => {
    const r = await build({ 'agentc.config.ts': config(), 'cards/concierge.yaml': concierge(`dispatch:\n${RENDERING}`) });
    // Check reads the same cap: the default 3 is more than the concierge's 2 sub-agents (a warning, so the bundle is built).
    expect(r.diagnostics.map((d) => [d.rule, d.severity])).toEqual([['fan-out-cap', 'warning']]);
    expect(r.diagnostics[0]!.message).toContain(String(DEFAULT_FAN_OUT_CAP));
    const bundle = r.bundle!;
    const agent = bundle.agents.concierge!;
    expect(agent.dispatch.fan_out_cap).toBe(DEFAULT_FAN_OUT_CAP);
    expect(bundle.dispatchDefaults.fanOutCap).toBe(DEFAULT_FAN_OUT_CAP);
    const turnOf = (b: Bundle) => ({ bundle: b }) as unknown as TurnState;
    expect(fanOutCap(turnOf(bundle), agent)).toBe(DEFAULT_FAN_OUT_CAP);
    // An old bundle: no per-agent cap and no dispatchDefaults. The fallback is the config's default, not 1.
    const { fan_out_cap: _cap, ...oldDispatch } = agent.dispatch;
    const oldAgent = { ...agent, dispatch: oldDispatch } as unknown as BundleAgent;
    const { dispatchDefaults: _defaults, ...oldBundle } = bundle;
    expect(fanOutCap(turnOf(oldBundle as unknown as Bundle), oldAgent)).toBe(DEFAULT_FAN_OUT_CAP);
    expect(fanOutCap(turnOf(oldBundle as unknown as Bundle), oldAgent)).toBe(DEFAULT_CONFIG.dispatch.fanOutCap);
  });
});

describe('cohort limit: one definition, counted over known flags', () => {
  /** The travel agent's blocks gated by `n` known flags (plus `unknown` flags the config does not list). */
  async function withFlags(n: number, unknown = 0): Promise<CompileResult> {
    const known = Array.from({ length: n }, (_, i) => `f${i + 1}`);
    const files: Record<string, string | null> = {
      'agentc.config.ts': config({ flags: known }),
      // The base's beta block goes; one block per flag instead.
      'blocks/travel/travel-beta.md': null,
      'cards/travel.yaml': `id: travel
description: Trips the user can book with points, searched by destination and travel dates.
role: native
owner: travel
model: main-model
tools: [search_trips]
prompt_blocks: [instructions-travel, ${[...known, ...Array.from({ length: unknown }, (_, i) => `u${i + 1}`)].map((f) => `flag-${f}`).join(', ')}]
sub_agents: []
tuning: { max_output_tokens: 600 }
policy:
  token_budget: { input: 4000, output: 1000 }
  tool_whitelist: [search_trips]
  max_recursion_depth: 0
`,
    };
    for (const f of [...known, ...Array.from({ length: unknown }, (_, i) => `u${i + 1}`)]) {
      files[`blocks/travel/flag-${f}.md`] = `---\ncategory: capabilities\nowner: travel\nfeature_flag: ${f}\n---\nExperiment ${f} is on.\n`;
    }
    return build(files);
  }

  it('at the limit − 1 and at the limit: every cohort, no cohort-explosion', async () => {
    for (const n of [MAX_COHORT_FLAGS - 1, MAX_COHORT_FLAGS]) {
      const r = await withFlags(n);
      const travel = r.program!.agents.get('travel')!;
      expect(travel.cohortLimitExceeded).toBe(false);
      expect(travel.cohorts).toHaveLength(2 ** n);
      expect(rules(r)).toEqual([]);
      expect(r.bundle!.agents.travel!.prefixes).toHaveLength(2 ** n);
    }
  }, 60_000);

  it('at the limit + 1: no cohorts, and check reports cohort-explosion (the same count)', async () => {
    const r = await withFlags(MAX_COHORT_FLAGS + 1);
    const travel = r.program!.agents.get('travel')!;
    expect(travel.cohortLimitExceeded).toBe(true);
    expect(travel.cohorts).toEqual([]);
    expect(rules(r)).toEqual(['cohort-explosion']);
    expect(r.diagnostics[0]!.message).toContain(`${MAX_COHORT_FLAGS + 1} feature flags`);
  });

  it('unknown flags do not count toward the limit (they are unknown-flag errors, never switched on)', async () => {
    const r = await withFlags(MAX_COHORT_FLAGS, 1);
    const travel = r.program!.agents.get('travel')!;
    expect(travel.cohortLimitExceeded).toBe(false);
    expect(travel.cohorts).toHaveLength(2 ** MAX_COHORT_FLAGS);
    expect(rules(r)).toEqual(['unknown-flag']);
  });
});

describe('Program.layout', () => {
  it('is the one workspace layout', async () => {
    const r = await build({});
    expect(r.program!.layout).toBe(WORKSPACE_LAYOUT);
    expect([...r.files.keys()].filter((p) => p.startsWith(`${WORKSPACE_LAYOUT.cards.dir}/`))).toEqual([
      'cards/billing.yaml',
      'cards/concierge.yaml',
      'cards/travel.yaml',
    ]);
  });
});
