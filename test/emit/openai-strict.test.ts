import Ajv2020 from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nullable, toOpenAIStrictParameters } from '../../src/emit/openai-strict.js';

const strict = toOpenAIStrictParameters;

/** Keywords a strict schema may contain (the allowlist documented in openai-strict.ts). */
const ALLOWED = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'description',
  'title',
  '$ref',
  '$defs',
  'definitions',
  'pattern',
  'format',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
]);

/** Every strict-mode invariant, checked over the whole schema tree. */
function assertStrict(schema: unknown, path = '#'): void {
  if (typeof schema !== 'object' || schema === null) throw new Error(`${path}: not a schema object`);
  const s = schema as Record<string, unknown>;
  for (const key of Object.keys(s)) if (!ALLOWED.has(key)) throw new Error(`${path}: keyword ${key} is not allowed`);
  if (s.properties !== undefined) {
    expect(s.additionalProperties, `${path}.additionalProperties`).toBe(false);
    expect(s.required, `${path}.required`).toEqual(Object.keys(s.properties as object));
    for (const [k, v] of Object.entries(s.properties as object)) assertStrict(v, `${path}/properties/${k}`);
  }
  if (s.items !== undefined) assertStrict(s.items, `${path}/items`);
  if (Array.isArray(s.anyOf)) s.anyOf.forEach((b, i) => assertStrict(b, `${path}/anyOf/${i}`));
  for (const d of ['$defs', 'definitions']) {
    if (s[d]) for (const [k, v] of Object.entries(s[d] as object)) assertStrict(v, `${path}/${d}/${k}`);
  }
}

describe('toOpenAIStrictParameters', () => {
  it('closes every object and requires every property; optional ones become nullable', () => {
    const out = strict({
      type: 'object',
      properties: {
        q: { type: 'string', description: 'query' },
        n: { type: 'integer' },
        nested: { type: 'object', properties: { a: { type: 'boolean' }, b: { type: 'number' } }, required: ['a'] },
      },
      required: ['q'],
    });
    expect(out).toEqual({
      type: 'object',
      properties: {
        q: { type: 'string', description: 'query' },
        n: { type: ['integer', 'null'] },
        nested: {
          type: ['object', 'null'],
          properties: { a: { type: 'boolean' }, b: { type: ['number', 'null'] } },
          required: ['a', 'b'],
          additionalProperties: false,
        },
      },
      required: ['q', 'n', 'nested'],
      additionalProperties: false,
    });
    assertStrict(out);
  });

  it('adds null to an optional enum, and turns an optional const into an enum with null', () => {
    const out = strict({
      type: 'object',
      properties: { s: { type: 'string', enum: ['a', 'b'] }, e: { enum: [1, 2] }, c: { const: 'x' }, tc: { type: 'string', const: 'y' } },
    });
    expect(out.properties).toEqual({
      s: { type: ['string', 'null'], enum: ['a', 'b', null] },
      e: { enum: [1, 2, null] },
      c: { enum: ['x', null] },
      tc: { type: ['string', 'null'], enum: ['y', null] },
    });
  });

  it('extends an optional anyOf with a null branch and wraps a $ref (annotations stay outside)', () => {
    const out = strict({
      type: 'object',
      properties: {
        u: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        r: { $ref: '#/$defs/m', description: 'method' },
        any: {},
      },
      $defs: { m: { type: 'string', enum: ['card', 'bank'], default: 'card' } },
    });
    expect(out.properties).toEqual({
      u: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
      r: { description: 'method', anyOf: [{ $ref: '#/$defs/m' }, { type: 'null' }] },
      any: { anyOf: [{}, { type: 'null' }] },
    });
    expect(out.$defs).toEqual({ m: { type: 'string', enum: ['card', 'bank'] } });
  });

  it('leaves an optional property that already accepts null as it is', () => {
    const out = strict({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { type: 'null' },
        c: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        d: { enum: ['x', null] },
      },
    });
    expect(out.properties).toEqual({
      a: { type: ['string', 'null'] },
      b: { type: 'null' },
      c: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      d: { enum: ['x', null] },
    });
  });

  it('adds null to an enum whose type already allows null but whose values do not', () => {
    expect(nullable({ type: ['string', 'null'], enum: ['a'] })).toEqual({ type: ['string', 'null'], enum: ['a', null] });
  });

  it('keeps a required property non-nullable, even inside arrays of objects', () => {
    const out = strict({
      type: 'object',
      properties: {
        list: { type: 'array', items: { type: 'object', properties: { age: { type: 'integer' }, name: { type: 'string' } }, required: ['age'] } },
      },
      required: ['list'],
    });
    expect(out.properties).toEqual({
      list: {
        type: 'array',
        items: {
          type: 'object',
          properties: { age: { type: 'integer' }, name: { type: ['string', 'null'] } },
          required: ['age', 'name'],
          additionalProperties: false,
        },
      },
    });
  });

  it('drops keywords strict mode rejects and keeps the ones it supports', () => {
    const out = strict({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        s: { type: 'string', minLength: 3, maxLength: 9, pattern: '^a', default: 'abc', examples: ['abc'], format: 'date' },
        f: { type: 'string', format: 'uri' },
        n: { type: 'number', minimum: 0, exclusiveMaximum: 10, multipleOf: 0.5, default: 1 },
        a: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3, uniqueItems: true, contains: { const: 'x' } },
        o: { type: 'object', properties: { k: { type: 'string' } }, minProperties: 1, patternProperties: { '^x': {} }, propertyNames: { pattern: '^[a-z]+$' } },
        c: { type: 'string', not: { const: 'no' }, if: { const: 'a' }, then: {}, else: {}, deprecated: true, readOnly: true, $comment: 'c' },
      },
      required: ['s', 'f', 'n', 'a', 'o', 'c'],
    });
    expect(out).not.toHaveProperty('$schema');
    expect(out.properties).toEqual({
      s: { type: 'string', pattern: '^a', format: 'date' },
      f: { type: 'string' },
      n: { type: 'number', minimum: 0, exclusiveMaximum: 10, multipleOf: 0.5 },
      a: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
      o: { type: 'object', properties: { k: { type: ['string', 'null'] } }, required: ['k'], additionalProperties: false },
      c: { type: 'string' },
    });
    assertStrict(out);
  });

  it('turns oneOf into anyOf, folds allOf into the parent, and tuple items into one anyOf item', () => {
    const out = strict({
      type: 'object',
      properties: {
        one: { oneOf: [{ const: 'a' }, { const: 'b' }] },
        all: {
          allOf: [{ type: 'object', properties: { x: { type: 'string' } }, required: ['x'] }, { properties: { y: { type: 'number' } } }],
        },
        tuple: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] },
      },
      required: ['one', 'all', 'tuple'],
    });
    expect(out.properties).toEqual({
      one: { anyOf: [{ const: 'a' }, { const: 'b' }] },
      all: {
        type: 'object',
        properties: { x: { type: 'string' }, y: { type: ['number', 'null'] } },
        required: ['x', 'y'],
        additionalProperties: false,
      },
      tuple: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
    });
  });

  it('closes open objects (strict mode cannot express them) and gives an empty root its properties', () => {
    expect(strict({ type: 'object' })).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: false });
    expect(strict({ type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['m'] }).properties).toEqual({
      m: { type: 'object', properties: {}, required: [], additionalProperties: false },
    });
    expect(strict({ properties: { a: { type: 'string' } } })).toEqual({
      type: 'object',
      properties: { a: { type: ['string', 'null'] } },
      required: ['a'],
      additionalProperties: false,
    });
  });

  it('never mutates its input', () => {
    const input = { type: 'object', properties: { a: { type: 'string', default: 'x' }, b: { enum: ['y'] } }, required: ['a'] };
    const before = JSON.stringify(input);
    strict(input);
    expect(JSON.stringify(input)).toBe(before);
  });

  it('accepts every call the neutral schema accepts, once absent optional arguments are sent as null', () => {
    const ajv = new Ajv2020({ strict: false });
    const neutral = {
      type: 'object',
      properties: {
        destination: { type: 'string' },
        status: { type: 'string', enum: ['open', 'paid'] },
        currency: { const: 'EUR' },
        limit: { type: 'integer', minimum: 1 },
        dates: { type: 'array', items: { type: 'string' } },
        who: { type: 'object', properties: { age: { type: 'integer' }, name: { type: 'string' } }, required: ['age'] },
        either: { anyOf: [{ type: 'number' }, { type: 'string' }] },
      },
      required: ['destination'],
      additionalProperties: false,
    };
    const validNeutral = ajv.compile(neutral);
    const validStrict = ajv.compile(strict(neutral));
    const optional = ['status', 'currency', 'limit', 'dates', 'who', 'either'];
    const arb = fc.record(
      {
        destination: fc.string(),
        status: fc.constantFrom('open', 'paid'),
        currency: fc.constant('EUR'),
        limit: fc.integer({ min: 1, max: 100 }),
        dates: fc.array(fc.string(), { maxLength: 3 }),
        who: fc.record({ age: fc.integer({ min: 0, max: 120 }), name: fc.string() }, { requiredKeys: ['age'] }),
        either: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string()),
      },
      { requiredKeys: ['destination'] },
    );
    fc.assert(
      fc.property(arb, (args) => {
        expect(validNeutral(args)).toBe(true);
        const filled: Record<string, unknown> = { ...args };
        for (const k of optional) if (!(k in filled)) filled[k] = null;
        if (filled.who && typeof filled.who === 'object' && !('name' in filled.who)) filled.who = { ...filled.who, name: null };
        expect(validStrict(filled)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('produces a strict schema for arbitrary nested object schemas', () => {
    const leaf = fc.constantFrom<Record<string, unknown>>(
      { type: 'string', minLength: 1 },
      { type: 'number', default: 3 },
      { enum: ['a', 'b'] },
      { const: 1 },
      { $ref: '#/$defs/x' },
      { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      { type: ['string', 'null'] },
      {},
    );
    const schema = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('object'), tie('array')),
      array: fc.record({ type: fc.constant('array'), items: tie('node') }),
      object: fc
        .dictionary(fc.stringMatching(/^[a-z]{1,4}$/), tie('node'), { maxKeys: 4 })
        .chain((properties) => fc.subarray(Object.keys(properties)).map((required) => ({ type: 'object', properties, required, additionalProperties: true }))),
    }));
    fc.assert(
      fc.property(schema.object, (s) => {
        assertStrict(strict(s as Record<string, unknown>));
      }),
      { numRuns: 300 },
    );
  });
});
