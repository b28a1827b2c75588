import { describe, expect, it } from 'vitest';
import { jsDoc, literal, objectMembers, propertyName, schemaToType } from '../../src/emit/schema-to-ts.js';

describe('schemaToType', () => {
  it.each([
    [{ type: 'string' }, 'string'],
    [{ type: 'integer' }, 'number'],
    [{ type: 'number' }, 'number'],
    [{ type: 'boolean' }, 'boolean'],
    [{ type: 'null' }, 'null'],
    [{ type: ['string', 'null'] }, 'string | null'],
    [{ enum: ['a', 1, null, true] }, '"a" | 1 | null | true'],
    [{ type: 'string', enum: ['x', 'y'] }, '"x" | "y"'],
    [{ const: 'EUR' }, '"EUR"'],
    [{ const: { a: [1] } }, '{"a":[1]}'],
    [{ enum: [] }, 'never'],
    [{ type: 'array', items: { type: 'string' } }, 'Array<string>'],
    [{ type: 'array' }, 'unknown[]'],
    [{ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } }, 'Array<string | number>'],
    [{ type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] }, 'Array<string | number>'],
    [{ anyOf: [{ type: 'string' }, { type: 'number' }] }, 'string | number'],
    [{ oneOf: [{ const: 'a' }, { const: 'b' }] }, '"a" | "b"'],
    [{ anyOf: [{ type: 'string' }, {}] }, 'unknown'],
    [
      {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { type: 'object', properties: { b: { type: 'number' } } },
        ],
      },
      '({\n  a: string;\n}) & ({\n  b?: number;\n})',
    ],
    [{ type: 'object' }, '{\n  [key: string]: unknown;\n}'],
    [{ type: 'object', additionalProperties: { type: 'integer' } }, '{\n  [key: string]: number;\n}'],
    [{ type: 'object', properties: {}, additionalProperties: false }, '{}'],
    [{ $ref: 'https://example.com/x.json' }, 'unknown'],
    [{ not: { type: 'string' } }, 'unknown'],
    [{}, 'unknown'],
    [true, 'unknown'],
    [false, 'never'],
  ])('%j → %s', (schema, expected) => {
    expect(schemaToType(schema)).toBe(expected);
  });

  it('resolves local $refs and stops at recursive ones', () => {
    const schema = {
      type: 'object',
      properties: { method: { $ref: '#/$defs/method' }, node: { $ref: '#/definitions/node' } },
      $defs: { method: { type: 'string', enum: ['card', 'bank'], description: 'Saved payment method.' } },
      definitions: { node: { type: 'object', properties: { next: { $ref: '#/definitions/node' } } } },
    };
    expect(objectMembers(schema, '  ')).toBe('  /** Saved payment method. */\n  method?: "card" | "bank";\n  node?: {\n    next?: unknown;\n  };\n');
  });

  it('writes object members with optional marks, quoted names, nested objects and JSDoc', () => {
    const schema = {
      type: 'object',
      properties: {
        query: { type: 'string', description: "The user's words." },
        'x-trace': { type: 'string' },
        amount: {
          type: 'object',
          description: 'Line one.\n\nLine three with */ inside.',
          properties: { value: { type: 'number' } },
          required: ['value'],
        },
      },
      required: ['query'],
    };
    expect(objectMembers(schema, '  ')).toBe(
      [
        "  /** The user's words. */",
        '  query: string;',
        '  "x-trace"?: string;',
        '  /**',
        '   * Line one.',
        '   *',
        '   * Line three with *\\/ inside.',
        '   */',
        '  amount?: {',
        '    value: number;',
        '  };',
        '',
      ].join('\n'),
    );
  });

  it('uses an unknown index signature when declared properties and extra properties coexist', () => {
    expect(objectMembers({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: { type: 'number' } }, '')).toBe(
      'a: string;\n[key: string]: unknown;\n',
    );
  });

  it('has helpers for names, literals and doc comments', () => {
    expect(propertyName('ok_1')).toBe('ok_1');
    expect(propertyName('1st')).toBe('"1st"');
    expect(propertyName('a-b')).toBe('"a-b"');
    expect(literal('a"b')).toBe('"a\\"b"');
    expect(literal(-1.5)).toBe('-1.5');
    expect(jsDoc('  ', '')).toBe('');
    expect(jsDoc(42, '')).toBe('');
  });
});
