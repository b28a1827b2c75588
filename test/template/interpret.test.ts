/**
 * Handlebars stays the reference: on generated templates, the language's one
 * interpreter (src/bundle/template/interpret.ts, over the AST src/parse/template.ts
 * builds) renders exactly what Handlebars 4 renders ({ strict: true, noEscape:
 * true } plus agentc's strict helpers, ./strict-handlebars.ts), or both fail.
 */
import fc from 'fast-check';
import Handlebars from 'handlebars';
import { expect, test } from 'vitest';
import { tryInterpret } from '../../src/bundle/template/interpret.js';
import { analyzeTemplate, standalonePlacer } from '../../src/parse/template.js';
import { compileStrict, createStrictHandlebars } from './strict-handlebars.js';

const strictHbs = createStrictHandlebars();
const context = {
  agent: {
    id: 'rewards',
    description: 'Points & rewards',
    owner: 'rewards',
    fallback_model: undefined,
    tools: ['a', 'b'],
    policy: { max_tool_calls: 0, tool_whitelist: [] },
    dispatch: { fan_out_cap: undefined, status_rendering: {} },
    input: { query: { type: 'string' } },
  },
  sub_agents: [
    { id: 'shop', tool_name: 'ask_shop', description: 'Shopping <b>&</b> "deals"' },
    { id: 'play', tool_name: 'ask_play', description: 'Games' },
  ],
  tools: [],
  dispatch: { fan_out_cap: 3, intent_count_failsafe: false, tool_prefix: 'ask_', status_rendering: { a: 'A…', b: 'suppress' } },
  flags: { receipts_v2: true, offer_stacking: false },
  model: { id: 'm', provider: 'openai', model: 'gpt', contextWindow: 272000, encoding: 'o200k_base' },
};

const names = [
  'agent',
  'sub_agents',
  'tools',
  'dispatch',
  'flags',
  'model',
  'id',
  'tool_name',
  'description',
  'fan_out_cap',
  'receipts_v2',
  'offer_stacking',
  'tool_whitelist',
  'policy',
  'max_tool_calls',
  'fallback_model',
  'input',
  'query',
  'length',
  'status_rendering',
  'nope',
  'a',
  'b',
];
const pathArb = fc.oneof(
  fc.array(fc.constantFrom(...names), { minLength: 1, maxLength: 3 }).map((p) => p.join('.')),
  fc.constantFrom(
    'this',
    '.',
    'this.id',
    '../agent.id',
    '../../dispatch',
    '@index',
    '@key',
    '@first',
    '@last',
    '@root.agent.id',
    '@root.flags.receipts_v2',
    'item',
    'item.id',
    'i',
    '../nope',
  ),
);
const keyArb = fc.oneof(fc.constantFrom('"id"', '"nope"', '"length"', '"a"', '0', '1', 'true', 'null', '@index', '@key'), pathArb);
const lookupArb = fc.oneof(
  fc.tuple(pathArb, keyArb).map(([p, k]) => `lookup ${p} ${k}`),
  fc.tuple(pathArb, keyArb, keyArb).map(([p, k, l]) => `lookup (lookup ${p} ${k}) ${l}`),
);
const text = fc.constantFrom('', 'x', ' ', '\n', '- ', '\n  ', 'a \\{{b}} c', '{{!-- note --}}', '{{! c }}');

const template: fc.Arbitrary<string> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    text,
    pathArb.map((p) => `{{${p}}}`),
    pathArb.map((p) => `{{{${p}}}}`),
    pathArb.map((p) => `{{~${p}~}}`),
    lookupArb.map((l) => `{{${l}}}`),
    fc
      .tuple(fc.constantFrom('if', 'unless', 'with', 'each'), pathArb, tie('seq'), fc.option(tie('seq')), fc.boolean())
      .map(
        ([h, p, body, inv, params]) =>
          `{{#${h} ${p}${params && (h === 'each' || h === 'with') ? ' as |item i|' : ''}}}${body}${inv === null ? '' : `{{else}}${inv}`}{{/${h}}}`,
      ),
    fc.tuple(pathArb, tie('seq'), pathArb, tie('seq')).map(([p, a, q, b]) => `{{#if ${p}}}${a}{{else if ${q}}}${b}{{/if}}`),
    fc.tuple(fc.constantFrom('if', 'each'), pathArb, tie('seq')).map(([h, p, body]) => `\n{{#${h} ${p}}}\n${body}\n{{/${h}}}\n`),
  ),
  seq: fc.array(tie('node'), { maxLength: 4 }).map((xs) => (xs as string[]).join('')),
})).seq as fc.Arbitrary<string>;

function viaHandlebars(src: string, ctx: unknown): { ok: true; text: string } | { ok: false } {
  try {
    return { ok: true, text: compileStrict(strictHbs, src)(ctx) };
  } catch {
    return { ok: false };
  }
}

function nodesOf(src: string) {
  const parsed = analyzeTemplate(standalonePlacer(src), src);
  if (!parsed.ok) {
    expect(() => Handlebars.parse(src), `${src}: agentc refuses what Handlebars parses`).toThrow();
    return undefined;
  }
  return parsed.analysis.nodes;
}

test('the interpreter renders what Handlebars renders, on generated templates', () => {
  let interpreted = 0;
  fc.assert(
    fc.property(template, (src) => {
      const nodes = nodesOf(src);
      if (!nodes) return;
      interpreted++;
      const mine = tryInterpret(nodes, context);
      const theirs = viaHandlebars(src, context);
      expect({ src, ok: mine.ok }).toEqual({ src, ok: theirs.ok });
      if (mine.ok && theirs.ok) expect(mine.text).toBe(theirs.text);
      // The AST is plain JSON: what the bundle carries renders the same.
      expect(tryInterpret(JSON.parse(JSON.stringify(nodes)), context)).toEqual(mine);
      // The strict additions only ever refuse: what they accept renders as plain Handlebars does.
      if (theirs.ok) expect(Handlebars.compile(src, { strict: true, noEscape: true })(context)).toBe(theirs.text);
    }),
    { numRuns: 1500, seed: 20261122 },
  );
  expect(interpreted).toBeGreaterThan(1000);
});

test('constructs outside the language have no AST, and say why', () => {
  const cases: [string, 'unsupported' | 'unknownHelpers' | 'partials'][] = [
    ['{{#each sub_agents key="x"}}{{/each}}', 'unsupported'],
    ['{{> partial}}', 'partials'],
    ['{{#if (eq a b)}}{{/if}}', 'unknownHelpers'],
    ['{{log "x"}}', 'unknownHelpers'],
    ['{{#if true}}x{{/if}}', 'unsupported'],
    ['{{@../index}}', 'unsupported'],
    ['{{"text"}}', 'unsupported'],
    ['{{if}}', 'unsupported'],
    ['{{lookup agent}}', 'unsupported'],
    ['{{#if a b}}x{{/if}}', 'unsupported'],
    ['{{#if a as |x|}}x{{/if}}', 'unsupported'],
    ['{{#each (lookup agent "tools")}}x{{/each}}', 'unsupported'],
  ];
  for (const [src, list] of cases) {
    const parsed = analyzeTemplate(standalonePlacer(src), src);
    expect(parsed.ok, src).toBe(true);
    if (!parsed.ok) continue;
    expect(parsed.analysis.nodes, src).toBeUndefined();
    expect(parsed.analysis[list].length, src).toBeGreaterThan(0);
  }
});
