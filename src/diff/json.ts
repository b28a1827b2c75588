/**
 * JSON helpers for comparing bundle data. Invariant: `canonicalJson` of two values
 * is equal exactly when the values are structurally equal (object key order ignored).
 */
import type { JsonValue } from './types.js';

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'undefined';
}

export function deepEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Bundle data as a JsonValue (bundles are plain JSON; `undefined` stays absent). */
export function asJson(value: unknown): JsonValue | undefined {
  if (value === undefined) return undefined;
  return sortKeys(value) as JsonValue;
}
