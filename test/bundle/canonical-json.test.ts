/**
 * The one canonical JSON (src/bundle/canonical-json.ts), used by emit (bundle.json,
 * hashes), diff (equality keys) and the runtime (handoff text, intent keys).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonLine, sameJson, sortKeysDeep } from '../../src/bundle/canonical-json.js';
import { deepEqual } from '../../src/diff/json.js';
import { intentKey } from '../../src/runtime/calls.js';

/** The same members in reverse insertion order, at every level. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).reverse())
      Object.defineProperty(out, key, { value: reversed((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

describe('canonical JSON', () => {
  it('one line and the indented form are the same value; key order never matters', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const line = canonicalJsonLine(v);
        expect(line).toBe(JSON.stringify(JSON.parse(canonicalJson(v))));
        expect(canonicalJsonLine(reversed(v))).toBe(line);
        expect(canonicalJson(JSON.parse(canonicalJson(v)))).toBe(canonicalJson(v));
        expect(deepEqual(v, reversed(v))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('sorts keys by UTF-16 code unit, keeps array order, drops undefined members', () => {
    expect(canonicalJsonLine({ b: 1, a: [3, 1, { d: undefined, c: 'é' }], B: null, ä: 0 })).toBe('{"B":null,"a":[3,1,{"c":"é"}],"b":1,"ä":0}');
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{\n  "a": 2,\n  "b": 1\n}\n');
  });

  it('keeps a "__proto__" key as a member (legal in JSON Schema properties and in model arguments)', () => {
    const parsed = JSON.parse('{"z":1,"__proto__":{"x":1}}') as unknown;
    expect(canonicalJsonLine(parsed)).toBe('{"__proto__":{"x":1},"z":1}');
    expect(canonicalJson(sortKeysDeep(parsed))).toBe('{\n  "__proto__": {\n    "x": 1\n  },\n  "z": 1\n}\n');
    expect(deepEqual(parsed, JSON.parse('{"z":1}'))).toBe(false);
  });

  it('bundle data is strict (a non-finite number is an agentc bug); the one-line form is lenient like JSON.stringify (a model may send 1e999)', () => {
    expect(() => canonicalJson({ n: Infinity })).toThrow(/cannot represent the number Infinity/);
    const args = JSON.parse('{"n":1e999}') as unknown;
    expect(canonicalJsonLine(args)).toBe('{"n":null}');
    expect(intentKey({ id: 'c1', name: 'ask_x', arguments: '{"b":1e999,"a":"q","intent_count":2}' })).toBe('ask_x\u0000{"a":"q","b":null}');
  });

  it('diff equality: absent equals only absent', () => {
    expect(deepEqual(undefined, undefined)).toBe(true);
    expect(deepEqual(undefined, null)).toBe(false);
    expect(deepEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
  });

  it('catches a cycle however deep it starts, and allows deep nesting that is not one', () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 300; i++) deep = { b: deep, a: i };
    expect(canonicalJson(deep).startsWith('{\n  "a": 299,\n  "b": {\n    "a": 298,')).toBe(true);
    const inner: Record<string, unknown> = { z: 1 };
    let outer: Record<string, unknown> = { inner };
    for (let i = 0; i < 100; i++) outer = { next: outer };
    inner.back = outer;
    expect(() => canonicalJson(outer)).toThrow(/cyclic/);
    expect(() => canonicalJsonLine([outer])).toThrow(/cyclic/);
  });

  it('takes the subtrees a caller vouches for as they are (same object), and sorts the rest', () => {
    const trusted = { a: 1, b: [2] };
    const out = sortKeysDeep({ z: trusted, y: { d: 1, c: 2 } }, new Set([trusted]));
    expect(out.z).toBe(trusted);
    expect(JSON.stringify(out)).toBe('{"y":{"c":2,"d":1},"z":{"a":1,"b":[2]}}');
    expect(sortKeysDeep({ z: trusted }).z).not.toBe(trusted);
  });
});

describe('sameJson', () => {
  it('is true exactly when the canonical texts are equal', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(sameJson(a, b)).toBe(canonicalJson(a) === canonicalJson(b));
        expect(sameJson(a, reversed(a))).toBe(true);
      }),
    );
  });

  it('reads absent members and array holes as canonicalJson writes them', () => {
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(sameJson([undefined, 1], [null, 1])).toBe(true);
    expect(sameJson({ __proto__: null, x: [1, { y: 'z' }] }, { x: [1, { y: 'z' }] })).toBe(true);
    expect(sameJson([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(sameJson({ a: [1] }, { a: [1, 2] })).toBe(false);
  });
});
