/**
 * Soundness of the static template check against Handlebars itself: whenever
 * every read of a template is classified `ok`, rendering it in strict mode with
 * a context built by buildRenderContext must not throw. (The converse does not
 * hold: `{*}` records accept any key statically.)
 */
import fc from 'fast-check';
import Handlebars from 'handlebars';
import { describe, expect, it } from 'vitest';
import { buildContextShape, buildRenderContext } from '../../src/resolve/context.js';
import { classifyRef } from '../../src/check/template-scope.js';
import { tryInterpret } from '../../src/bundle/template/interpret.js';
import { compileStrict, createStrictHandlebars } from '../template/strict-handlebars.js';
import { analyzeTemplate, standalonePlacer } from '../../src/parse/template.js';
import type { CardData, ResolvedConfig } from '../../src/parse/types.js';

const config: ResolvedConfig = {
  models: { m: { provider: 'openai', model: 'gpt', contextWindow: 1000, encoding: 'o200k_base' } },
  platform: { owner: 'platform', requiredBlocks: [] },
  budgets: { promptWarnRatio: 0.25, promptErrorRatio: 0.5, descriptionMaxTokens: 400, maxSubAgents: 7 },
  dispatch: { toolPrefix: 'ask_', fanOutCap: 3 },
  flags: ['beta'],
  dynamicContext: { fields: ['date'], template: '' },
  rules: {},
};
const card = (id: string): CardData => ({
  id,
  description: `The ${id} agent.`,
  role: 'orchestrator',
  owner: 'team',
  model: 'm',
  tools: ['t'],
  prompt_blocks: [],
  sub_agents: ['a', 'b'],
  tuning: {},
  input: { query: { type: 'string' } },
  input_required: ['query'],
  status_events: [],
  policy: { tool_whitelist: ['t'] },
  dispatch: { status_rendering: { e: 'E' } },
});
const context = buildRenderContext({
  card: card('boss'),
  subAgents: [card('a'), card('b')],
  tools: [{ name: 't', description: 'T', parameters: {}, envelope: false, status_events: [] }],
  config,
  modelId: 'm',
  model: config.models.m,
  encoding: 'o200k_base',
  flagsOn: [],
});
const shape = buildContextShape(config);
const hbs = Handlebars.create();
const strictHbs = createStrictHandlebars();

const PATHS = [
  'agent.id',
  'agent.descrption',
  'agent.id.length',
  'id',
  'tool_name',
  'name',
  'description',
  'envelope',
  '../agent.id',
  '../../agent.id',
  '../id',
  '@root.agent.id',
  '@root.nope',
  '@index',
  '@key',
  '@first',
  '@last',
  'this',
  'this.id',
  '.',
  'flags.beta',
  'flags.nope',
  'dispatch.fan_out_cap',
  'dispatch.tool_prefix',
  'sub_agents.length',
  'sub_agents.0.id',
  'sub_agents.id',
  'tools.0.name',
  'agent.input.query',
  'agent.tuning.max_output_tokens',
  'agent.policy.tool_whitelist',
  'agent.policy.token_budget.input',
  'agent.dispatch.fan_out_cap',
  'model.id',
  'model.contextWindow',
  'x.y',
  'item',
  'item.id',
  'i',
  's.id',
  'date',
];
const SOURCES = ['sub_agents', 'tools', 'agent.tools', 'agent.sub_agents', '../sub_agents', '@root.tools', 'dispatch.status_rendering', 'nope', 'agent'];
const WITH = ['dispatch', 'agent', 'agent.tuning', 'model', 'sub_agents.0', 'agent.policy'];

const template: fc.Memo<string> = fc.memo((n) => {
  const leaf = fc.constantFrom(...PATHS).map((p) => `{{${p}}}`);
  if (n <= 1) return leaf;
  const body = fc.array(template(n - 1), { minLength: 1, maxLength: 3 }).map((xs) => xs.join(' '));
  return fc.oneof(
    leaf,
    fc.tuple(fc.constantFrom(...SOURCES), fc.boolean(), body).map(([s, params, b]) => `{{#each ${s}${params ? ' as |item i|' : ''}}}${b}{{/each}}`),
    fc.tuple(fc.constantFrom(...WITH), body).map(([s, b]) => `{{#with ${s}}}${b}{{/with}}`),
    fc.tuple(fc.constantFrom(...PATHS), body).map(([p, b]) => `{{#if ${p}}}${b}{{/if}}`),
  );
});

describe('static template check is sound', () => {
  it('all reads ok ⇒ strict render succeeds', () => {
    fc.assert(
      fc.property(template(4), (body) => {
        const parsed = analyzeTemplate(standalonePlacer(body), body);
        if (!parsed.ok) return;
        const ok = parsed.analysis.refs.every((r) => classifyRef(r, shape, new Set(['date']), 'b').kind === 'ok');
        if (!ok) return;
        expect(() => hbs.compile(body, { strict: true, noEscape: true })(context)).not.toThrow();
        // The language's own interpreter agrees with the strict reference (when the body is inside the language).
        if (parsed.analysis.nodes) {
          let strictOk = true;
          try {
            compileStrict(strictHbs, body)(context);
          } catch {
            strictOk = false;
          }
          expect(tryInterpret(parsed.analysis.nodes, context).ok).toBe(strictOk);
        }
      }),
      { numRuns: Number(process.env.RUNS ?? 3000), ...(process.env.RUNS ? {} : { seed: 20261121 }) },
    );
  });
});
