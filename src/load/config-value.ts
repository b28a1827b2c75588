/**
 * The config value as it crosses from the config worker to agentc: a copy of
 * its plain objects and arrays with every property read once (getters run in
 * the worker), and markers in place of what structured clone cannot carry or
 * would silently turn into plain data (functions, symbols, class instances).
 * `revive` turns markers back into stand-ins that validation rejects as before.
 * Cycles are preserved (structured clone keeps them).
 */

/** Data about a value the config threw. */
export interface SerializedError {
  message: string;
  stack?: string;
  loc?: { line: number; column: number };
  code?: string;
}

export interface ConfigWorkerInput {
  abs: string;
  selfEntry: string;
}

/**
 * What the config's value was computed from besides its own text: the files the
 * worker read while loading it (modules it imported, JSON it read) and the
 * environment variables it looked at. The persistent result cache re-checks these
 * before it reuses a result (src/cache/check-result.ts).
 */
export interface ConfigInputs {
  /** Absolute paths of files read while loading, sorted (agentc's own files and caches left out). */
  files: string[];
  /** Environment variables read, by name (undefined: unset); `'all'` when the config enumerated the environment. */
  env: Record<string, string | null> | 'all';
}

export type ConfigWorkerMessage =
  | { type: 'value'; hasDefault: boolean; value: unknown; inputs: ConfigInputs }
  | { type: 'error'; afterLoad: boolean; via: 'load' | 'uncaught' | 'rejection'; error: SerializedError }
  | { type: 'exit'; afterLoad: boolean; code: number; stack: string; how: string }
  | { type: 'stdout'; afterLoad: boolean; stack: string; text: string };

/** Key of a marker object; a config cannot produce it by accident. */
const MARK = '\u0000agentc-non-data';

type Marker = { [MARK]: 'function' | 'symbol' | 'instance'; name: string; source?: string };

/** Worker side: a structured-clone-safe copy (throws what a getter or proxy throws). */
export function toTransferable(value: unknown, copies = new Map<object, unknown>()): unknown {
  if (typeof value === 'function') return { ...marker('function', value.name), source: functionSource(value) };
  if (typeof value === 'symbol') return marker('symbol', value.description ?? '');
  if (typeof value !== 'object' || value === null) return value;
  const done = copies.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    copies.set(value, out);
    for (let i = 0; i < value.length; i++) out.push(toTransferable(value[i], copies));
    return out;
  }
  const proto = Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null;
  if (proto !== Object.prototype && proto !== null) {
    const name = proto.constructor?.name;
    const m = marker('instance', typeof name === 'string' ? name : 'Object');
    copies.set(value, m);
    return m;
  }
  const out: Record<string, unknown> = {};
  copies.set(value, out);
  for (const key of Object.keys(value)) {
    // defineProperty, not assignment: a key named "__proto__" stays data.
    Object.defineProperty(out, key, {
      value: toTransferable((value as Record<string, unknown>)[key], copies),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** The function's text as validation messages quote it (bounded). */
function functionSource(f: object): string {
  try {
    const s = Function.prototype.toString.call(f);
    return s.length > 200 ? `${s.slice(0, 200)}…` : s;
  } catch {
    return 'function';
  }
}

function marker(kind: Marker[typeof MARK], name: string): Marker {
  return { [MARK]: kind, name };
}

/** A class instance in the config, as agentc sees it: not plain data. */
export class NonDataValue {
  declare readonly className: string;
  constructor(className: string) {
    // Not enumerable: validation must see an instance with no fields of its own, as the config had it.
    Object.defineProperty(this, 'className', { value: className, enumerable: false });
  }
}

/** Parent side: markers → stand-ins (a function, a symbol, a NonDataValue); everything else as received. */
export function revive(value: unknown, seen = new Map<object, unknown>()): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Object.hasOwn(value, MARK)) {
    const m = value as Marker;
    const out = m[MARK] === 'function' ? namedFunction(m.name, m.source) : m[MARK] === 'symbol' ? Symbol(m.name) : new NonDataValue(m.name);
    seen.set(value, out);
    return out;
  }
  seen.set(value, value);
  // Revived in place: the value is a fresh copy made by structured clone.
  const obj = value as Record<string | number, unknown>;
  for (const key of Array.isArray(value) ? value.keys() : Object.keys(value)) {
    const v = obj[key];
    const r = revive(v, seen);
    if (r !== v) Object.defineProperty(obj, key, { value: r, enumerable: true, writable: true, configurable: true });
  }
  return value;
}

function namedFunction(name: string, source = 'function'): () => void {
  const f = (): void => undefined;
  Object.defineProperty(f, 'name', { value: name });
  Object.defineProperty(f, 'toString', { value: () => source });
  return f;
}
