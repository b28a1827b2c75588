/**
 * Canonical JSON: the one serialization of bundle data. Object keys sorted
 * recursively (by UTF-16 code unit, never by locale), 2-space indent, LF line
 * endings, one trailing newline. Array order is meaningful and kept.
 *
 * Invariant: canonicalJson(x) === canonicalJson(JSON.parse(canonicalJson(x))),
 * so the bundle hash is stable across a write/read round trip.
 */
import { createHash } from 'node:crypto';

/** Deep copy with every object's keys in sorted order; `undefined` members dropped. */
export function sortKeysDeep<T>(value: T): T {
  return sortValue(value, new Set()) as T;
}

function sortValue(value: unknown, ancestors: Set<object>): unknown {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new Error(`canonical JSON cannot represent the number ${String(value)}`);
    }
    return value;
  }
  if (ancestors.has(value)) throw new Error('canonical JSON cannot represent a cyclic structure');
  ancestors.add(value);
  let out: unknown;
  if (Array.isArray(value)) {
    out = value.map((item) => (item === undefined ? null : sortValue(item, ancestors)));
  } else {
    const record = value as Record<string, unknown>;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(record).sort(compareCodeUnits)) {
      const member = record[key];
      if (member === undefined || typeof member === 'function') continue;
      // defineProperty: a key named "__proto__" (legal in JSON Schema properties) stays an own member.
      Object.defineProperty(sorted, key, { value: sortValue(member, ancestors), enumerable: true, writable: true, configurable: true });
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

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text`, or of the bytes of `chunks` in order. */
export function sha256Hex(text: string | readonly Uint8Array[]): string {
  if (typeof text === 'string') return createHash('sha256').update(text, 'utf8').digest('hex');
  const hash = createHash('sha256');
  for (const chunk of text) hash.update(chunk);
  return hash.digest('hex');
}
