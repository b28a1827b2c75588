/**
 * The runtime renders the suffix from the bundle's AST with the build's
 * interpreter, and what it renders is what Handlebars renders from the
 * config's template text (the reference), over generated templates and over
 * the repository's own built bundle.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import Handlebars from 'handlebars';
import { expect, test } from 'vitest';
import { analyzeTemplate, standalonePlacer } from '../../src/parse/template.js';
import { readBundle, renderAgentSuffix, renderSuffix, SuffixRenderError } from '../../src/runtime/index.js';

const FIELDS = ['date', 'locale', 'location', 'user_id'];
/** A request's context: some fields given, some not; keys beyond the fields are the request's own. */
const contextArb = fc.record(
  {
    date: fc.constantFrom('2026-01-15', ''),
    locale: fc.constantFrom('en-US', 'fr'),
    location: fc.constantFrom('Rome', ''),
    user_id: fc.constant('u1'),
    extra: fc.constant('x'),
  },
  { requiredKeys: [] },
);
const pathArb = fc.constantFrom('date', 'locale', 'location', 'user_id', 'this.locale', '@root.date', 'nope', 'locale.length', 'date.x');
const node: fc.Arbitrary<string> = fc.letrec((tie) => ({
  n: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('', 'Date: ', '\n', '<context>', '\\{{x}}', '{{! c }}'),
    pathArb.map((p) => `{{${p}}}`),
    pathArb.map((p) => `{{{ ${p} }}}`),
    fc
      .tuple(fc.constantFrom('if', 'unless', 'with'), pathArb, tie('s'), fc.option(tie('s')))
      .map(([h, p, a, b]) => `{{#${h} ${p}}}${a}${b === null ? '' : `{{else}}${b}`}{{/${h}}}`),
  ),
  s: fc.array(tie('n'), { maxLength: 4 }).map((xs) => (xs as string[]).join('')),
})).s as fc.Arbitrary<string>;

/** Handlebars on the context the runtime builds: every declared field present, missing ones undefined. */
function reference(src: string, ctx: Record<string, string | undefined>): { ok: true; text: string } | { ok: false } {
  const values: Record<string, string | undefined> = { ...ctx };
  for (const f of FIELDS) if (!(f in values)) values[f] = undefined;
  try {
    return { ok: true, text: Handlebars.compile(src, { strict: true, noEscape: true })(values) };
  } catch {
    return { ok: false };
  }
}

test('runtime suffix (bundle AST, after JSON) equals Handlebars on generated templates', () => {
  let rendered = 0;
  fc.assert(
    fc.property(node, contextArb, (src, ctx) => {
      const parsed = analyzeTemplate(standalonePlacer(src), src);
      if (!parsed.ok || !parsed.analysis.nodes) return;
      const ast = JSON.parse(JSON.stringify(parsed.analysis.nodes));
      const theirs = reference(src, ctx);
      let mine: { ok: true; text: string } | { ok: false };
      try {
        mine = { ok: true, text: renderSuffix(ast, ctx, FIELDS) };
      } catch (e) {
        expect(e).toBeInstanceOf(SuffixRenderError);
        mine = { ok: false };
      }
      expect({ src, ...mine }).toEqual({ src, ...theirs });
      rendered++;
    }),
    { numRuns: 1000, seed: 20261122 },
  );
  expect(rendered).toBeGreaterThan(800);
});

test("the repository's bundle: every agent's suffix_ast renders what Handlebars renders from dynamicContext.template", () => {
  const bundle = readBundle(join(import.meta.dirname, '..', '..', 'generated', 'bundle.json'));
  const { fields, template } = bundle.dynamicContext;
  expect(template).toContain('{{');
  for (const ctx of [{ date: '2026-01-15', locale: 'en-US', location: 'Rome' }, { locale: 'fr' }, {}]) {
    const values: Record<string, string | undefined> = Object.fromEntries(fields.map((f) => [f, undefined]));
    Object.assign(values, ctx);
    const expected = Handlebars.compile(template, { strict: true, noEscape: true })(values);
    for (const agent of Object.values(bundle.agents)) {
      expect(agent.suffix_template).toBe(template);
      expect(renderSuffix(agent.suffix_ast, ctx, fields)).toBe(expected);
    }
  }
});

test('a field the request lacks renders empty and is false in {{#if}}; an undeclared read fails loudly', () => {
  const ast = (src: string) => {
    const p = analyzeTemplate(standalonePlacer(src), src);
    if (!p.ok || !p.analysis.nodes) throw new Error(src);
    return p.analysis.nodes;
  };
  expect(renderSuffix(ast('a={{date}};{{#if location}}in {{location}}{{else}}nowhere{{/if}} \\{{x}}'), { date: 'd' }, FIELDS)).toBe('a=d;nowhere {{x}}');
  expect(renderSuffix(ast('{{constructor}}{{toString}}'), { constructor: 'c', toString: 't' }, [])).toBe('ct');
  expect(() => renderSuffix(ast('{{nope}}'), {}, FIELDS)).toThrow(SuffixRenderError);
});

test('a bundle built before suffix_ast: plain text still renders, a template fails loudly (never an empty suffix)', () => {
  expect(renderAgentSuffix({ suffix_template: '<context/>' } as never, {}, FIELDS)).toBe('<context/>');
  expect(() => renderAgentSuffix({ suffix_template: 'Date: {{date}}' } as never, { date: 'd' }, FIELDS)).toThrow(/no suffix_ast/);
  const ast = analyzeTemplate(standalonePlacer('Date: {{date}}'), 'Date: {{date}}');
  if (!ast.ok || !ast.analysis.nodes) throw new Error('parse');
  expect(renderAgentSuffix({ suffix_template: 'ignored', suffix_ast: ast.analysis.nodes }, { date: 'd' }, FIELDS)).toBe('Date: d');
});
