/** findJsonSyntaxError (src/parse/json.ts): agrees with JSON.parse on validity, and says where. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from '../../src/parse/json.js';

const cases: [text: string, offset: number, message: RegExp][] = [
  ['{"a": 1 "b": 2}', 8, /expected ',' or '\}' after a property value but found '"'/],
  ['{"a": 1,}', 7, /trailing comma before '\}'/],
  ['[1, 2,]', 5, /trailing comma before '\]'/],
  ['{"a": tru}', 6, /expected a value but found 't'/],
  ["{'a': 1}", 1, /property name in double quotes/],
  ['{"a": \'x\'}', 6, /double quotes/],
  ['{"a": 1', 7, /found the end of the file/],
  ['{"a": "x\n"}', 8, /not closed before the end of the line/],
  ['{"a": "x', 6, /never closed/],
  ['{"a": 1} x', 9, /after the end of the JSON value/],
  ['{"a" 1}', 5, /expected ':'/],
  ['{"a": "\\q"}', 7, /invalid escape/],
  ['// comment\n{}', 0, /expected a value but found '\/'/],
  ['{"a": 01}', 7, /expected ',' or '\}'/],
  ['', 0, /found the end of the file/],
];

describe('findJsonSyntaxError', () => {
  for (const [text, offset, message] of cases) {
    it(JSON.stringify(text), () => {
      expect(() => JSON.parse(text)).toThrow();
      const e = findJsonSyntaxError(text);
      expect(e).toBeDefined();
      expect(e!.message).toMatch(message);
      expect(e!.offset).toBe(offset);
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

  it('deep nesting does not overflow the stack', () => {
    expect(findJsonSyntaxError('['.repeat(100_000) + ']'.repeat(100_000))).toBeUndefined();
    expect(findJsonSyntaxError('['.repeat(100_000))?.message).toMatch(/end of the file/);
  });
});
