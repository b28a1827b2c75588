import { describe, expect, it } from 'vitest';
import { literalTypes } from '../../src/emit/literal-types.js';

const render = (values: unknown[]): { types: string[]; declarations: string } => {
  const t = literalTypes();
  for (const v of values) t.count(v);
  return { types: values.map((v) => t.typeOf(v)), declarations: t.declarations() };
};

const schema = () => ({ type: 'object', properties: { query: { type: 'string', description: 'The user request.' } }, required: ['query'] });

describe('literalTypes', () => {
  it('writes a value used once inline, readonly at every depth, keys in code-unit order', () => {
    const { types, declarations } = render([{ b: [1, 'x'], a: null, c: { d: true } }]);
    expect(types).toEqual(['{ readonly "a": null; readonly "b": readonly [1, "x"]; readonly "c": { readonly "d": true } }']);
    expect(declarations).toBe('');
  });

  it('declares a long type that occurs twice once, and names it everywhere (nested repeats too)', () => {
    const { types, declarations } = render([{ input: schema() }, schema(), { other: 1 }]);
    const name = /Shared_[0-9a-f]{10}/.exec(types[1]!)![0];
    expect(types[0]).toBe(`{ readonly "input": ${name} }`);
    expect(types[1]).toBe(name);
    expect(types[2]).toBe('{ readonly "other": 1 }');
    // The schema, its `properties` and its `query` property each occur twice: each is declared once, inner ones first.
    const decls = declarations.split('\n').filter((l) => l.startsWith('export type '));
    expect(decls).toHaveLength(3);
    expect(decls[0]).toMatch(/^export type Shared_\w{10} = \{ readonly "description": "The user request."; readonly "type": "string" \};$/);
    expect(decls[1]).toMatch(/^export type Shared_\w{10} = \{ readonly "query": Shared_\w{10} \};$/);
    expect(decls[2]).toMatch(
      new RegExp(
        `^export type ${name} = \\{ readonly "properties": Shared_\\w{10}; readonly "required": readonly \\["query"\\]; readonly "type": "object" \\};$`,
      ),
    );
  });

  it('leaves short repeats inline', () => {
    const { types, declarations } = render([{ a: 1 }, { a: 1 }]);
    expect(types).toEqual(['{ readonly "a": 1 }', '{ readonly "a": 1 }']);
    expect(declarations).toBe('');
  });

  it('names by content, not by object identity or order of the other values', () => {
    const shared = schema();
    const one = render([shared, shared, { x: 1 }]);
    const two = render([{ y: 2 }, schema(), schema()]);
    expect(one.types[0]).toBe(two.types[1]);
    expect(one.declarations).toBe(two.declarations);
  });
});
