/**
 * Literal types of JSON values for bundle.ts, with repeats declared once: a
 * literal type (object or tuple) of at least MIN_SHARED characters that occurs
 * twice or more among the values counted is declared as
 * `export type Shared_<first 10 hex of its text's sha256>` and referred to by
 * that name everywhere, so tsc parses and checks it once.
 *
 * Deterministic: a type's text, hence its name, depends only on the value (keys
 * in code-unit order); declarations follow first use. Object identity is never
 * part of the result (a fresh build and a watch rebuild share objects
 * differently): identity only memoizes a value's text, a pure function of it.
 */
import { compareCodeUnits, sha256Hex } from '../bundle/canonical-json.js';

/** Shorter types are written where they are used (a name would save little). */
const MIN_SHARED = 48;

export interface LiteralTypes {
  /** Counts every object and tuple of `value` (call for every value before the first `typeOf`). */
  count(value: unknown): void;
  /** The literal type of `value`, readonly at every depth, on one line; shared parts by name. */
  typeOf(value: unknown): string;
  /** `export type Shared_… = …;` for every name `typeOf` has used, in order of first use. */
  declarations(): string;
}

export function literalTypes(): LiteralTypes {
  const texts = new Map<object, string>();
  const counts = new Map<string, number>();
  const declared = new Map<string, string>();
  let out = '';

  /** The unshared text of a value's literal type, memoized per object. */
  const raw = (value: unknown): string => {
    if (value === null) return 'null';
    if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
    if (typeof value === 'number') return String(value);
    if (typeof value !== 'object') return 'unknown';
    let text = texts.get(value);
    if (text === undefined) {
      text = container(value, raw);
      texts.set(value, text);
    }
    return text;
  };

  const count = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return;
    const text = raw(value);
    if (text.length >= MIN_SHARED) counts.set(text, (counts.get(text) ?? 0) + 1);
    for (const member of Array.isArray(value) ? value : Object.values(value as Record<string, unknown>)) count(member);
  };

  const typeOf = (value: unknown): string => {
    if (value === null || typeof value !== 'object') return raw(value);
    const text = raw(value);
    if ((counts.get(text) ?? 0) < 2) return container(value, typeOf);
    let name = declared.get(text);
    if (name === undefined) {
      name = `Shared_${sha256Hex(text).slice(0, 10)}`;
      declared.set(text, name);
      const body = container(value, typeOf);
      out += `export type ${name} = ${body};\n`;
    }
    return name;
  };

  return { count, typeOf, declarations: () => (out === '' ? '' : `/** Literal types that occur more than once in \`Bundle\`. */\n${out}\n`) };
}

function container(value: object, member: (v: unknown) => string): string {
  if (Array.isArray(value)) return `readonly [${value.map((v) => member(v)).join(', ')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort(compareCodeUnits);
  if (keys.length === 0) return '{}';
  return `{ ${keys.map((k) => `readonly ${JSON.stringify(k)}: ${member(record[k])}`).join('; ')} }`;
}
