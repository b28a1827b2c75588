/** findJsonSyntaxError (src/parse/json.ts, jsonc-parser in strict mode): agrees with JSON.parse on validity, and says where. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from '../../src/parse/json.js';

/** Text, the offending token's offset and length (from the parser), and the message. */
const cases: [text: string, offset: number, length: number, message: RegExp][] = [
  ['{"a": 1 "b": 2}', 8, 3, /expected ',' or '\}' after a property value but found '"'/],
  ['{"a": 1,}', 7, 1, /trailing comma before '\}'/],
  ['[1, 2,]', 5, 1, /trailing comma before '\]'/],
  ['{"a": tru}', 6, 3, /expected a value but found 't'/],
  ["{'a': 1}", 1, 3, /property name in double quotes/],
  ['{"a": \'x\'}', 6, 3, /double quotes/],
  ['{"a": 1', 7, 0, /found the end of the file/],
  ['{"a": "x\n"}', 6, 2, /not closed before the end of the line/],
  ['{"a": "x', 6, 2, /never closed/],
  ['{"a": 1} x', 9, 1, /after the end of the JSON value/],
  ['{"a" 1}', 5, 1, /expected ':'/],
  ['{"a": "\\q"}', 6, 4, /invalid escape/],
  ['{"a": "\\u12"}', 6, 6, /invalid \\u escape/],
  ['{"a": "\t"}', 6, 3, /control character/],
  ['// comment\n{}', 0, 10, /comments are not allowed/],
  ['{"a": 01}', 7, 1, /expected ',' or '\}'/],
  ['[1 2]', 3, 1, /expected ',' or '\]' after an array element/],
  ['[1.]', 1, 2, /number ends too early/],
  ['{"a": [1, }', 10, 1, /expected a value but found '\}'/],
  ['', 0, 0, /found the end of the file/],
];

describe('findJsonSyntaxError', () => {
  for (const [text, offset, length, message] of cases) {
    it(JSON.stringify(text), () => {
      expect(() => JSON.parse(text)).toThrow();
      const e = findJsonSyntaxError(text);
      expect(e).toBeDefined();
      expect(e!.message).toMatch(message);
      expect({ offset: e!.offset, length: e!.length }).toEqual({ offset, length });
    });
  }

  it('accepts every valid JSON text (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2, '\t'), (v, indent) => {
        expect(findJsonSyntaxError(JSON.stringify(v, null, indent))).toBeUndefined();
      }),
      { seed: 20261121, numRuns: 300 },
    );
  });

  it('agrees with JSON.parse on mutated JSON (property)', () => {
    const mutated = fc.tuple(fc.json(), fc.nat(), fc.constantFrom(',', ']', '}', '"', ':', ' ', 'x', '1', '{', '[', '\\', '')).map(([s, n, c]) => {
      const at = s.length === 0 ? 0 : n % s.length;
      return s.slice(0, at) + c + s.slice(at + (n % 2));
    });
    fc.assert(
      fc.property(mutated, (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        const e = findJsonSyntaxError(text);
        expect(e === undefined, `${JSON.stringify(text)}: ${e?.message}`).toBe(valid);
        if (e) expect(e.offset).toBeLessThanOrEqual(text.length);
      }),
      { seed: 20261121, numRuns: 2000 },
    );
  });

  it('deep nesting is refused before the parser recurses on it', () => {
    expect(findJsonSyntaxError('['.repeat(100_000) + ']'.repeat(100_000))).toEqual({ message: 'nested deeper than 256 levels', offset: 256, length: 1 });
    expect(findJsonSyntaxError('['.repeat(100_000))?.offset).toBe(256);
    expect(findJsonSyntaxError('['.repeat(256) + ']'.repeat(256))).toBeUndefined();
  });
});
