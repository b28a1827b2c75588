/**
 * The check phase never throws, whatever the workspace: random small
 * workspaces (dangling references, cycles, self-references, odd caps, bad
 * templates) run through parse → resolve → runChecks in memory. Every
 * diagnostic names a file and a range inside it, and its message is complete.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runChecks } from '../../src/check/index.js';
import { DiagnosticBag } from '../../src/diagnostics/diagnostic.js';
import { SourceFile } from '../../src/load/source.js';
import { parseWorkspace } from '../../src/parse/index.js';
import { loadValidators } from '../../src/parse/validate.js';
import { resolveProgram } from '../../src/resolve/index.js';

const IDS = ['a', 'b', 'c', 'd'];
const TOOLS = ['x', 'y', 'ask_b'];
const BLOCKS = ['p1', 'p2', 'req'];
const EVENTS = ['e1', 'e2', 'e3'];
const SNIPPETS = [
  'Plain text.',
  '{{agent.id}}',
  '{{agent.nope}}',
  '{{#each sub_agents}}{{tool_name}} {{agent.id}}{{/each}}',
  '{{#each tools as |t i|}}{{t.name}}{{i}}{{/each}}',
  '{{date}}',
  '{{@root.user_id}}',
  '{{../x}}',
  '{{@index}}',
  '{{#with dispatch}}{{fan_out_cap}}{{/with}}',
  '{{#if flags.f1}}on{{/if}}',
  '{{eq 1 2}}',
  '{{> p}}',
  '2026-11-21',
  '{{#each agent}}{{this}}{{/each}}',
  '{{agent.dispatch.fan_out_cap}}',
  '{{model.contextWindow}}',
];

const subset = <T>(xs: readonly T[]) => fc.subarray([...xs]);
const card = (id: string) =>
  fc.record(
    {
      id: fc.constant(id),
      description: fc.constantFrom('Short.', `The ${id} agent answers questions about ${id} and nothing else at all.`),
      role: fc.constantFrom('orchestrator', 'native', 'external-wrapper', 'internal-helper'),
      owner: fc.constantFrom('platform', 't1', 't2'),
      model: fc.constantFrom('m1', 'm2', 'nope'),
      fallback_model: fc.constantFrom('m1', 'm2', 'gone'),
      tools: subset([...TOOLS, 'missing_tool']),
      prompt_blocks: subset([...BLOCKS, 'missing-block']),
      sub_agents: subset([...IDS, 'ghost']),
      status_events: subset(EVENTS),
      tuning: fc.record({ max_output_tokens: fc.integer({ min: 1, max: 3000 }) }),
      policy: fc.record(
        {
          token_budget: fc.record({ input: fc.integer({ min: 1, max: 3000 }), output: fc.integer({ min: 1, max: 3000 }) }),
          tool_whitelist: subset(TOOLS),
          max_recursion_depth: fc.integer({ min: 0, max: 2 }),
        },
        { requiredKeys: [] },
      ),
      dispatch: fc.record(
        {
          fan_out_cap: fc.integer({ min: -1, max: 4 }),
          intent_count_failsafe: fc.boolean(),
          status_rendering: fc.dictionary(fc.constantFrom(...EVENTS, 'e9'), fc.constantFrom('Working…', 'suppress')),
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: ['id', 'description', 'role', 'owner', 'model'] },
  );

const block = (id: string) =>
  fc
    .record(
      {
        category: fc.constantFrom('persona', 'instructions'),
        owner: fc.constantFrom('platform', 't1', 't2'),
        reusable: fc.boolean(),
        feature_flag: fc.constantFrom('f1', 'f2', 'nope'),
        max_tokens: fc.integer({ min: 1, max: 60 }),
      },
      { requiredKeys: ['category', 'owner'] },
    )
    .chain((fm) => fc.array(fc.constantFrom(...SNIPPETS), { maxLength: 4 }).map((body) => `---\n${stringify(fm)}---\n${body.join('\n')}\n`))
    .map((text) => new SourceFile(`blocks/${id}.md`, text));

const tool = (name: string) =>
  subset(EVENTS).map(
    (events) =>
      new SourceFile(`schemas/tools/${name}.yaml`, stringify({ name, description: `Tool ${name}.`, parameters: { type: 'object' }, status_events: events })),
  );

const workspace = fc.record({
  cards: fc.subarray(IDS, { minLength: 1 }).chain((ids) => fc.tuple(...ids.map(card))),
  blocks: fc.subarray(BLOCKS).chain((ids) => fc.tuple(...ids.map(block))),
  tools: fc.subarray(TOOLS).chain((names) => fc.tuple(...names.map(tool))),
  config: fc.record({
    models: fc.record({
      m1: fc.record({
        provider: fc.constant('openai'),
        model: fc.constant('g'),
        contextWindow: fc.integer({ min: 50, max: 100_000 }),
        tools: fc.boolean(),
        parallelToolCalls: fc.boolean(),
      }),
      m2: fc.constant({ provider: 'anthropic', model: 'c', contextWindow: 200_000, encoding: 'cl100k_base' }),
    }),
    platform: fc.record({ owner: fc.constant('platform'), requiredBlocks: subset(['req', 'p1', 'missing']) }),
    budgets: fc.record({ maxSubAgents: fc.integer({ min: 1, max: 3 }), descriptionMaxTokens: fc.integer({ min: 5, max: 30 }) }),
    dispatch: fc.record({ toolPrefix: fc.constantFrom('ask_', 'call_a_very_long_prefix_for_the_', ''), fanOutCap: fc.integer({ min: 1, max: 4 }) }),
    flags: fc.constant(['f1', 'f2']),
    dynamicContext: fc.constant({ fields: ['date', 'user_id'], template: '{{date}}' }),
  }),
});

beforeAll(async () => {
  await loadValidators();
});

describe('check phase robustness', () => {
  it('never throws and always points into a file', () => {
    fc.assert(
      fc.property(workspace, (ws) => {
        const cards = ws.cards.map((c) => new SourceFile(`cards/${c.id}.yaml`, stringify(c)));
        const configFile = new SourceFile(
          'agentc.config.ts',
          `import { defineConfig } from 'agentc';\n\nexport default defineConfig(${JSON.stringify(ws.config, null, 2)});\n`,
        );
        const files = new Map<string, SourceFile>();
        for (const f of [...cards, ...ws.blocks, ...ws.tools, configFile]) files.set(f.path, f);
        const bag = new DiagnosticBag();
        const parsed = parseWorkspace(
          { root: '/ws', cards, blocks: ws.blocks, tools: ws.tools, configPath: 'agentc.config.ts' },
          { file: configFile, value: ws.config, error: undefined },
          bag,
        );
        const program = resolveProgram('/ws', parsed, files);
        const ds = runChecks(program);
        for (const d of ds) {
          expect(d.file, d.message).toBeDefined();
          const file = files.get(d.file!);
          expect(file, d.file).toBeDefined();
          expect(d.range, d.message).toBeDefined();
          expect(d.range!.start.line).toBeGreaterThanOrEqual(1);
          expect(d.range!.start.line).toBeLessThanOrEqual(file!.lineCount);
          expect(d.message).not.toMatch(/\{\w+\}|undefined/);
          for (const r of d.related ?? []) expect(files.has(r.file), r.file).toBe(true);
        }
      }),
      { numRuns: Number(process.env.RUNS ?? 150), ...(process.env.RUNS ? {} : { seed: 424242 }) },
    );
  });
});
