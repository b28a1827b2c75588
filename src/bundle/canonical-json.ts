/**
 * Canonical JSON: the one serialization of bundle data, and the one way agentc
 * compares JSON values. Object keys sorted recursively (by UTF-16 code unit,
 * never by locale); array order is meaningful and kept; `undefined` members
 * dropped. Two spellings of the same value:
 *
 * - `canonicalJson`: 2-space indent, LF line endings, one trailing newline (bundle.json, reports);
 * - `canonicalJsonLine`: one line, no spaces (equality keys, the runtime's handoff text).
 *
 * Invariant: canonicalJson(x) === canonicalJson(JSON.parse(canonicalJson(x))),
 * so the bundle hash is stable across a write/read round trip; two values have
 * the same canonical text exactly when they are structurally equal.
 *
 * Node builtins only: the runtime imports this module too.
 */
import { createHash } from 'node:crypto';

/** Deep copy with every object's keys in sorted order; `undefined` members dropped. Throws on what JSON cannot represent (non-finite numbers, cycles): bundle data never holds them. */
export function sortKeysDeep<T>(value: T): T {
  return sortValue(value, new Set(), true) as T;
}

function sortValue(value: unknown, ancestors: Set<object>, strict: boolean): unknown {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) {
      if (!strict) return null;
      throw new Error(`canonical JSON cannot represent the number ${String(value)}`);
    }
    return value;
  }
  if (ancestors.has(value)) throw new Error('canonical JSON cannot represent a cyclic structure');
  ancestors.add(value);
  let out: unknown;
  if (Array.isArray(value)) {
    out = value.map((item) => (item === undefined ? null : sortValue(item, ancestors, strict)));
  } else {
    const record = value as Record<string, unknown>;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(record).sort(compareCodeUnits)) {
      const member = record[key];
      if (member === undefined || typeof member === 'function') continue;
      // defineProperty: a key named "__proto__" (legal in JSON Schema properties) stays an own member.
      Object.defineProperty(sorted, key, { value: sortValue(member, ancestors, strict), enumerable: true, writable: true, configurable: true });
    }
    out = sorted;
  }
  ancestors.delete(value);
  return out;
}

export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Canonical JSON text (ends with "\n"). */
export function canonicalJson(value: unknown): string {
  return `${JSON.stringify(sortKeysDeep(value), null, 2)}\n`;
}

/**
 * Canonical JSON on one line, for equality keys and the runtime's handoff text.
 * Lenient where `JSON.stringify` is (a model's `1e999` parses to Infinity and
 * prints as `null`); a top-level `undefined` prints as `null`.
 */
export function canonicalJsonLine(value: unknown): string {
  return JSON.stringify(sortValue(value, new Set(), false)) ?? 'null';
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text`, or of the bytes of `chunks` in order. */
export function sha256Hex(text: string | readonly Uint8Array[]): string {
  if (typeof text === 'string') return createHash('sha256').update(text, 'utf8').digest('hex');
  const hash = createHash('sha256');
  for (const chunk of text) hash.update(chunk);
  return hash.digest('hex');
}
