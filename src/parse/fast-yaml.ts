/**
 * The fast path of parseYaml (./yaml.ts): a clean YAML file is turned into plain
 * data by js-yaml (several times cheaper than building the `yaml` package's
 * document tree), with a schema that resolves plain scalars exactly as the `yaml`
 * package's YAML 1.2 core schema does (the regexes and conversions below are
 * that schema's). Positions still come only from the `yaml` package, parsed
 * again when a diagnostic is reported.
 *
 * Invariant: when fastYaml returns a value, `yaml`'s parseDocument (the options of
 * ./yaml.ts) reports no error for the same text and its toJS() equals that value.
 * Anything outside the subset where both parsers are known to agree is declined
 * (undefined: the caller parses with `yaml`): a js-yaml error, text using YAML
 * features beyond plain block/flow mappings, lists and scalars (tabs, anchors,
 * aliases, tags, directives, document markers, complex or merge keys, a flow
 * collection over several lines), and data whose keys the two would spell
 * differently. A document that is one flow collection (a `.json` contract) is
 * read with JSON.parse when it is JSON both read alike (fastJson). test/parse/fast-yaml.test.ts checks the invariant differentially.
 */
import { FAILSAFE_SCHEMA, load, Type } from 'js-yaml';

const nullType = new Type('tag:yaml.org,2002:null', {
  kind: 'scalar',
  resolve: (data: string | null) => data === null || /^(?:~|[Nn]ull|NULL)?$/.test(data),
  construct: () => null,
});

const boolType = new Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  resolve: (data: string | null) => data !== null && /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(data),
  construct: (data: string) => data[0] === 't' || data[0] === 'T',
});

const INT_OCT = /^0o[0-7]+$/;
const INT_DEC = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const intType = new Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (data: string | null) => data !== null && (INT_OCT.test(data) || INT_DEC.test(data) || INT_HEX.test(data)),
  construct: (data: string) =>
    INT_OCT.test(data) ? parseInt(data.substring(2), 8) : INT_HEX.test(data) ? parseInt(data.substring(2), 16) : parseInt(data, 10),
});

const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
const floatType = new Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (data: string | null) => data !== null && (FLOAT_NAN.test(data) || FLOAT_EXP.test(data) || FLOAT.test(data)),
  construct: (data: string) => {
    if (!FLOAT_NAN.test(data)) return parseFloat(data);
    if (data.slice(-3).toLowerCase() === 'nan') return NaN;
    return data[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  },
});

/** YAML 1.2 core, as the `yaml` package resolves it (its order: null, bool, int, float). */
const CORE = FAILSAFE_SCHEMA.extend({ implicit: [nullType, boolType, intType, floatType] });

/**
 * Characters and line starts that mark features outside the agreed subset: a tab,
 * an anchor, alias or tag (`&`, `*`, `!`), a directive or document marker, a
 * complex key (`?`), a merge key, a `__proto__` key. Text that only mentions
 * them in prose is declined too (it is then parsed by `yaml`, never misread).
 */
const DECLINE = /[\t&*!]|^%|^---|^\.\.\.|^[ \t-]*\?(?:[ \t]|$)|<<|__proto__/m;

/** The value of `text` when it lies in the subset both parsers agree on; undefined to parse it with `yaml`. */
export function fastYaml(text: string): { value: unknown } | undefined {
  if (/^\s*[[{]/.test(text)) return fastJson(text);
  if (DECLINE.test(text) || !flowOnOneLine(text) || compactSequence(text)) return undefined;
  let value: unknown;
  try {
    value = load(text, { schema: CORE });
  } catch {
    return undefined;
  }
  if (!plainData(value)) return undefined;
  // An empty document: `yaml` gives null.
  return { value: value === undefined ? null : value };
}

/**
 * A document that is one flow collection: read as JSON when it is plain JSON that
 * YAML 1.2 reads alike (JSON is YAML 1.2's flow subset). Declined: not JSON, a
 * duplicate key (JSON.parse keeps the last, `yaml` reports it), tabs, a key
 * and its colon on different lines, very long lines (`yaml` limits implicit keys
 * to 1024 characters), integers of 16 digits or more (parsed by `yaml` digit by
 * digit), and `__proto__`.
 */
function fastJson(text: string): { value: unknown } | undefined {
  if (/\t|__proto__|"\s*\n\s*:|\d{16}|[^\n]{1000}/.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return duplicateKey(text) ? undefined : { value };
}

/** Whether some object of `text` (valid JSON) has a key twice. */
function duplicateKey(text: string): boolean {
  const keys: (Set<string> | undefined)[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 123) keys.push(new Set());
    else if (c === 91) keys.push(undefined);
    else if (c === 125 || c === 93) keys.pop();
    else if (c === 34) {
      let end = i + 1;
      while (text.charCodeAt(end) !== 34) end += text.charCodeAt(end) === 92 ? 2 : 1;
      const top = keys[keys.length - 1];
      // A string is a key when the next token is a colon.
      let next = end + 1;
      while (/\s/.test(text.charAt(next))) next++;
      if (top !== undefined && text.charCodeAt(next) === 58) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.has(key)) return true;
        top.add(key);
      }
      i = end;
    }
  }
  return false;
}

/**
 * Whether every flow collection (`[…]`, `{…}`) opens and closes on one line, as
 * counted by brackets outside quotes and comments; `yaml` is stricter than js-yaml
 * about the indentation of a flow collection's continuation lines.
 */
function flowOnOneLine(text: string): boolean {
  if (text.indexOf('[') === -1 && text.indexOf('{') === -1) return true;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      if (depth !== 0) return false;
    } else if (c === 91 || c === 123) depth++;
    else if (c === 93 || c === 125) {
      if (--depth < 0) return false;
    } else if (c === 34 || c === 39) {
      // A quoted scalar: skip to its closing quote on this line (one that continues on the next line is declined).
      const close = closingQuote(text, i, c);
      if (close === -1) return false;
      i = close;
    } else if (c === 35 && (i === 0 || text.charCodeAt(i - 1) === 32)) {
      const nl = text.indexOf('\n', i);
      if (nl === -1) break;
      i = nl - 1;
    }
  }
  return depth === 0;
}

/** Offset of the quote closing the one at `open` on the same line, or -1. A quote inside a plain word (`it's`) opens nothing. */
function closingQuote(text: string, open: number, quote: number): number {
  const before = open === 0 ? 10 : text.charCodeAt(open - 1);
  // Only a quote that starts a scalar opens a quoted scalar: after a space, a line start or a flow indicator.
  if (before !== 32 && before !== 10 && before !== 91 && before !== 123 && before !== 44 && before !== 58) return open;
  for (let i = open + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) return -1;
    if (quote === 34 && c === 92) i++;
    else if (c === quote) {
      if (quote === 39 && text.charCodeAt(i + 1) === 39) i++;
      else return i;
    }
  }
  return -1;
}

/**
 * Whether a list item (`- `) sits at the indentation of the mapping key above it
 * (`key:` then `- item` at the key's column): valid YAML, but `yaml` and js-yaml
 * disagree on some malformed variants of it, so it is left to `yaml`.
 */
function compactSequence(text: string): boolean {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const n = dashIndent(lines[i]!);
    if (n === -1) continue;
    for (let j = i - 1; j >= 0; j--) {
      const line = lines[j]!;
      const indent = line.length - line.trimStart().length;
      if (line.trim() === '' || line.trimStart().startsWith('#') || indent > n) continue;
      if (indent === n && dashIndent(line) !== n) return true;
      break;
    }
  }
  return false;
}

/** The column of a list item's dash (`- x`, `-` alone), or -1 when the line is not one. */
function dashIndent(line: string): number {
  const indent = line.length - line.trimStart().length;
  const c = line.charCodeAt(indent + 1);
  return line.charCodeAt(indent) === 45 && (Number.isNaN(c) || c === 32) ? indent : -1;
}

/**
 * Whether `value` is data both parsers spell alike: plain objects, arrays and
 * scalars, and no mapping key "null" (js-yaml spells a null key "null", `yaml` "").
 */
function plainData(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
      continue;
    }
    if (Object.getPrototypeOf(v) !== Object.prototype) return false;
    for (const k of Object.keys(v)) {
      if (k === 'null') return false;
      stack.push((v as Record<string, unknown>)[k]);
    }
  }
  return true;
}
