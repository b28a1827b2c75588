/**
 * schemaKey (src/check/contracts.ts) keys the per-run memos of contract checks by
 * content: equal keys must mean equal values, or one contract would be reported
 * with another's findings.
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { schemaKey } from '../../src/check/contracts.js';

describe('schemaKey', () => {
  const values: unknown[] = [
    undefined,
    null,
    0,
    -0,
    1,
    Infinity,
    -Infinity,
    NaN,
    '0',
    'null',
    'Infinity',
    'nInfinity',
    's',
    { type: 'string' },
    { type: 'sstring' },
    { minimum: 0 },
    { minimum: -0 },
    { minimum: null },
    { minimum: Infinity },
    { minimum: 'nInfinity' },
    { type: 'string', a: Infinity },
    { type: 'sstring', a: 'nInfinity' },
    { a: 1, b: 2 },
    { b: 2, a: 1 },
    [0.5],
    [10],
    [0],
    [-0],
    [null],
  ];

  it('gives equal keys only to equal values (key order included)', () => {
    for (const a of values)
      for (const b of values) {
        const same = schemaKey(a) === schemaKey(b);
        const equal = isDeepStrictEqual(a, b) && (typeof a !== 'object' || a === null || JSON.stringify(a) === JSON.stringify(b));
        expect(same, `${String(JSON.stringify(a))} vs ${String(JSON.stringify(b))}`).toBe(equal);
      }
  });

  it('is undefined for a value JSON cannot hold (a cycle)', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(schemaKey(cyclic)).toBeUndefined();
  });
});
