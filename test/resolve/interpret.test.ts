import fc from 'fast-check';
import Handlebars from 'handlebars';
import { expect, test } from 'vitest';
import { isInterpretable, tryInterpret } from '../../src/resolve/interpret.js';
import { compileStrict, createStrictHandlebars } from '../../src/resolve/strict-handlebars.js';

// The interpreter must agree with Handlebars ({ strict: true, noEscape: true }) on
// every template it accepts: the same text, or both failing. "Handlebars" here is
// Handlebars' own runtime with agentc's strict additions (strict-handlebars.ts:
// no object or list output, no #each over a scalar), the same environment that
// renders the bodies outside the interpreted subset.
const strictHbs = createStrictHandlebars();
const context = {
  agent: { id: 'rewards', description: 'Points & rewards', owner: 'rewards', fallback_model: undefined, tools: ['a', 'b'], policy: { max_tool_calls: 0, tool_whitelist: [] }, dispatch: { fan_out_cap: undefined, status_rendering: {} }, input: { query: { type: 'string' } } },
  sub_agents: [
    { id: 'shop', tool_name: 'ask_shop', description: 'Shopping <b>&</b> "deals"' },
    { id: 'play', tool_name: 'ask_play', description: 'Games' },
  ],
  tools: [],
  dispatch: { fan_out_cap: 3, intent_count_failsafe: false, tool_prefix: 'ask_', status_rendering: { a: 'A…', b: 'suppress' } },
  flags: { receipts_v2: true, offer_stacking: false },
  model: { id: 'm', provider: 'openai', model: 'gpt', contextWindow: 272000, encoding: 'o200k_base' },
};

const names = ['agent', 'sub_agents', 'tools', 'dispatch', 'flags', 'model', 'id', 'tool_name', 'description', 'fan_out_cap', 'receipts_v2', 'offer_stacking', 'tool_whitelist', 'policy', 'max_tool_calls', 'fallback_model', 'input', 'query', 'length', 'status_rendering', 'nope', 'a', 'b'];
const pathArb = fc.oneof(
  fc.array(fc.constantFrom(...names), { minLength: 1, maxLength: 3 }).map((p) => p.join('.')),
  fc.constantFrom('this', '.', 'this.id', '../agent.id', '../../dispatch', '@index', '@key', '@first', '@last', '@root.agent.id', '@root.flags.receipts_v2', 'item', 'item.id', 'i', '../nope'),
);
const text = fc.constantFrom('', 'x', ' ', '\n', '- ', '\n  ', 'a \\{{b}} c', '{{!-- note --}}', '{{! c }}');

const template: fc.Arbitrary<string> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    text,
    pathArb.map((p) => `{{${p}}}`),
    pathArb.map((p) => `{{{${p}}}}`),
    pathArb.map((p) => `{{~${p}~}}`),
    fc.tuple(fc.constantFrom('if', 'unless', 'with', 'each'), pathArb, tie('seq'), fc.option(tie('seq')), fc.boolean()).map(
      ([h, p, body, inv, params]) => `{{#${h} ${p}${params && (h === 'each' || h === 'with') ? ' as |item i|' : ''}}}${body}${inv === null ? '' : `{{else}}${inv}`}{{/${h}}}`,
    ),
    fc.tuple(pathArb, tie('seq'), pathArb, tie('seq')).map(([p, a, q, b]) => `{{#if ${p}}}${a}{{else if ${q}}}${b}{{/if}}`),
  ),
  seq: fc.array(tie('node'), { maxLength: 4 }).map((xs) => (xs as string[]).join('')),
})).seq as fc.Arbitrary<string>;

function viaHandlebars(src: string): { ok: true; text: string } | { ok: false } {
  try {
    return { ok: true, text: compileStrict(strictHbs, src)(context) };
  } catch {
    return { ok: false };
  }
}

test('interpreter output equals Handlebars on generated templates', () => {
  let interpreted = 0;
  fc.assert(
    fc.property(template, (src) => {
      let ast: hbs.AST.Program;
      try {
        ast = Handlebars.parse(src);
      } catch {
        return; // not a template
      }
      if (!isInterpretable(ast)) return;
      interpreted++;
      const mine = tryInterpret(ast, context);
      const theirs = viaHandlebars(src);
      expect({ src, ok: mine.ok }).toEqual({ src, ok: theirs.ok });
      if (mine.ok && theirs.ok) expect(mine.text).toBe(theirs.text);
      // The strict additions only ever refuse: what they accept renders as plain Handlebars does.
      if (theirs.ok) expect(Handlebars.compile(src, { strict: true, noEscape: true })(context)).toBe(theirs.text);
    }),
    { numRuns: 3000, seed: 20261121 },
  );
  expect(interpreted).toBeGreaterThan(1000);
});

test('templates outside the subset are left to Handlebars', () => {
  for (const src of ['{{lookup agent "id"}}', '{{#each sub_agents key="x"}}{{/each}}', '{{> partial}}', '{{#if (eq a b)}}{{/if}}', '{{log "x"}}', '{{#if true}}x{{/if}}', '{{@../index}}']) {
    expect(isInterpretable(Handlebars.parse(src)), src).toBe(false);
  }
});
