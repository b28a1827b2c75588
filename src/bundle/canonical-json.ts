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

/**
 * Deep copy with every object's keys in sorted order; `undefined` members dropped. Throws on what JSON cannot represent (non-finite numbers, cycles): bundle data never holds them.
 * Objects in `canonical` are taken as they are, not copied: the caller vouches that they are canonical already (and never mutated).
 */
export function sortKeysDeep<T>(value: T, canonical?: ReadonlySet<object>): T {
  return sortValue(value, [], true, canonical) as T;
}

/**
 * Nesting depth from which each object is looked for among its ancestors. A cycle
 * nests without end, so it always gets this deep and is caught there; the data
 * agentc serializes nests far less, so the common case never searches.
 */
const CYCLE_CHECK_DEPTH = 64;

function sortValue(value: unknown, ancestors: object[], strict: boolean, canonical?: ReadonlySet<object>): unknown {
  if (value === null || typeof value !== 'object') return scalar(value, strict);
  if (canonical?.has(value)) return value;
  if (ancestors.length >= CYCLE_CHECK_DEPTH && ancestors.includes(value)) throw new Error('canonical JSON cannot represent a cyclic structure');
  ancestors.push(value);
  let out: unknown;
  if (Array.isArray(value)) {
    const items = value as unknown[];
    const copy = new Array<unknown>(items.length);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      copy[i] = item === undefined ? null : item === null || typeof item !== 'object' ? scalar(item, strict) : sortValue(item, ancestors, strict, canonical);
    }
    out = copy;
  } else {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (!isSorted(keys)) keys.sort(compareCodeUnits);
    const sorted: Record<string, unknown> = {};
    for (const key of keys) {
      const member = record[key];
      if (member === undefined || typeof member === 'function') continue;
      const copy = member === null || typeof member !== 'object' ? scalar(member, strict) : sortValue(member, ancestors, strict, canonical);
      // defineProperty: a key named "__proto__" (legal in JSON Schema properties) stays an own member.
      if (key === '__proto__') Object.defineProperty(sorted, key, { value: copy, enumerable: true, writable: true, configurable: true });
      else sorted[key] = copy;
    }
    out = sorted;
  }
  ancestors.pop();
  return out;
}

function scalar(value: unknown, strict: boolean): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    if (!strict) return null;
    throw new Error(`canonical JSON cannot represent the number ${String(value)}`);
  }
  return value;
}

/** Whether `keys` are in code-unit order already (then sorting them is a no-op). */
export function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false;
  return true;
}

export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Whether `a` and `b` have the same canonical JSON, without writing either: the same
 * object at once, else member by member (key order ignored, `undefined` and function
 * members absent, such array items null, as canonicalJson writes them).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(asItem(a[i]), asItem(b[i]))) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const key of Object.keys(x)) {
    if (!present(x[key])) continue;
    count++;
    if (!Object.hasOwn(y, key) || !present(y[key]) || !sameJson(x[key], y[key])) return false;
  }
  for (const key of Object.keys(y)) if (present(y[key])) count--;
  return count === 0;
}

function present(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function';
}

function asItem(value: unknown): unknown {
  return present(value) ? value : null;
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
  return JSON.stringify(sortValue(value, [], false)) ?? 'null';
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text`, of `bytes`, or of the bytes of `chunks` in order. */
export function sha256Hex(text: string | Uint8Array | readonly Uint8Array[]): string {
  if (typeof text === 'string') return createHash('sha256').update(text, 'utf8').digest('hex');
  if (text instanceof Uint8Array) return createHash('sha256').update(text).digest('hex');
  const hash = createHash('sha256');
  for (const chunk of text) hash.update(chunk);
  return hash.digest('hex');
}
