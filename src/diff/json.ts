/**
 * JSON helpers for comparing bundle data, over the one canonical JSON
 * (src/bundle/canonical-json.ts). Invariant: `canonicalJson` of two values is
 * equal exactly when the values are structurally equal (object key order ignored).
 */
import { canonicalJsonLine, sortKeysDeep } from '../bundle/canonical-json.js';
import type { JsonValue } from './types.js';

/** One-line canonical JSON (the key a value is compared and shown by). */
export const canonicalJson = canonicalJsonLine;

/** Structural equality; `undefined` (absent) equals only itself. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return a === b;
  return canonicalJson(a) === canonicalJson(b);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Bundle data as a JsonValue (bundles are plain JSON; `undefined` stays absent). */
export function asJson(value: unknown): JsonValue | undefined {
  if (value === undefined) return undefined;
  return sortKeysDeep(value) as JsonValue;
}
