/**
 * Which agents two bundles hold unchanged, read from their bundle.json bytes
 * (the canonical layout src/emit/stored.ts writes) without parsing or joining
 * any prompt: `agentc diff` compares only the others (diffBundles' `unchanged`).
 *
 * Invariant: an id is in the result only when that agent's entry is the same
 * bytes on both sides, every table entry it could refer to (a text, a text's
 * base text, a block, a tool shape, another agent's entry) is too, and so is
 * everything outside the four tables but `hash`. The loaded agent is a pure
 * function of exactly those bytes (src/runtime/load-bundle.ts), so both sides'
 * agents are equal and comparing them finds nothing. Anything not laid out
 * canonically gives the empty set: everything is compared.
 */

const TABLES = ['agents', 'blocks', 'texts', 'toolShapes'] as const;
type Table = (typeof TABLES)[number];
const TABLE_CLOSE = Buffer.from('\n  }', 'utf8');
const ENTRY_START = Buffer.from('\n    "', 'utf8');
const HASH_MEMBER = /\n {2}"hash": "[0-9a-f]*",\n/;
/** After a variant text's key, its first element (stored.ts `variantText`: `[{ base }, ...runs]`, one element per line). */
const BASE_ELEMENT = Buffer.from('": [\n      {"base":"', 'utf8');
/** Past this many changed keys, an unchanged entry's references are read by parsing it, not by searching its bytes. */
const SEARCH_LIMIT = 32;

/** One side's bundle.json: each table's entries by raw (JSON-escaped) key, and everything else with `hash` blanked. */
export interface Split {
  tables: Record<Table, Map<string, Buffer>>;
  rest: string;
}

/** The ids of agents whose entries, and everything they refer to, are the same bytes in both bundle.json texts. */
export function unchangedAgents(before: Buffer, after: Buffer): Set<string> {
  const same = new Set<string>();
  const b = split(before);
  const a = split(after);
  if (b === undefined || a === undefined || b.rest !== a.rest) return same;

  // Keys whose entry differs (or is on one side only), per table; a variant text whose base text changed changed too.
  const changed: string[] = [];
  for (const table of TABLES) changed.push(...changedKeys(b.tables[table], a.tables[table]));
  const changedTexts = new Set(changedKeys(b.tables.texts, a.tables.texts));
  for (const [key, entry] of a.tables.texts) {
    if (changedTexts.has(key)) continue;
    const base = baseKey(entry);
    if (base === undefined || changedTexts.has(base)) changed.push(key);
  }

  const refersToChanged = referenceTest(changed);
  for (const [key, entry] of a.tables.agents) {
    const other = b.tables.agents.get(key);
    if (other === undefined || !other.equals(entry) || refersToChanged(entry)) continue;
    same.add(decodeKey(key));
  }
  return same;
}

/** The raw key of the text a variant is stored against; '' when the entry is not a variant; undefined when unreadable. */
function baseKey(entry: Buffer): string | undefined {
  const at = closingQuote(entry, 1, entry.length);
  if (at === -1) return undefined;
  if (!entry.subarray(at, at + BASE_ELEMENT.length).equals(BASE_ELEMENT)) return '';
  const from = at + BASE_ELEMENT.length;
  const end = closingQuote(entry, from, entry.length);
  return end === -1 ? undefined : entry.toString('latin1', from, end);
}

/** Raw keys present on one side only, or with different bytes. */
function changedKeys(before: Map<string, Buffer>, after: Map<string, Buffer>): string[] {
  const out: string[] = [];
  for (const [key, entry] of after) {
    const other = before.get(key);
    if (other === undefined || !other.equals(entry)) out.push(key);
  }
  for (const key of before.keys()) if (!after.has(key)) out.push(key);
  return out;
}

/**
 * Whether an entry's bytes may name one of these keys: every reference is a JSON
 * string equal to the key, so searching for `"<raw key>"` misses none (a match
 * elsewhere only makes the agent compared). Many keys: its strings are collected.
 */
function referenceTest(rawKeys: readonly string[]): (entry: Buffer) => boolean {
  if (rawKeys.length === 0) return () => false;
  if (rawKeys.length <= SEARCH_LIMIT) {
    const needles = rawKeys.map((k) => Buffer.from(`"${k}"`, 'latin1'));
    return (entry) => needles.some((n) => entry.includes(n));
  }
  const keys = new Set(rawKeys.map(decodeKey));
  return (entry) => {
    let value: unknown;
    try {
      value = JSON.parse(`{${entry.toString('utf8')}}`);
    } catch {
      return true;
    }
    return mentions(value, keys);
  };
}

function mentions(value: unknown, keys: ReadonlySet<string>): boolean {
  if (typeof value === 'string') return keys.has(value);
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => mentions(v, keys));
  return Object.entries(value).some(([k, v]) => keys.has(k) || mentions(v, keys));
}

/** A raw key (the bytes between its quotes, latin1) as the string it encodes. */
export function decodeKey(raw: string): string {
  return JSON.parse(`"${Buffer.from(raw, 'latin1').toString('utf8')}"`) as string;
}

/**
 * The canonical layout: each table opens with `  "<name>": {` on a line of its
 * own, has one `    "<key>": …` line per entry (deeper lines are indented
 * further), and closes at the first line `  }`. Undefined for any other layout.
 * An entry's bytes run from its key's opening quote to before the separating comma.
 */
export function split(bytes: Buffer): Split | undefined {
  // Top-level members are in key order, so the tables come in TABLES' order: each is looked for after the last.
  const spans: { name: Table; open: number; close: number }[] = [];
  let after = 0;
  for (const name of TABLES) {
    const opener = Buffer.from(`\n  ${JSON.stringify(name)}: {`, 'utf8');
    const at = bytes.indexOf(opener, after);
    if (at === -1) return undefined;
    const open = at + opener.length; // after the `{`
    // The newline before `  }`; an empty table (`{}`) is closed where it opens.
    const close = bytes[open] === 0x7d ? open : bytes.indexOf(TABLE_CLOSE, open);
    if (close === -1) return undefined;
    spans.push({ name, open, close });
    after = close;
  }
  let rest = '';
  let from = 0;
  const tables = {} as Record<Table, Map<string, Buffer>>;
  for (const span of spans) {
    if (span.open < from) return undefined;
    rest += bytes.toString('latin1', from, span.open);
    from = span.close;
    const entries = entriesOf(bytes, span.open, span.close);
    if (entries === undefined) return undefined;
    tables[span.name] = entries;
  }
  rest += bytes.toString('latin1', from);
  return { tables, rest: rest.replace(HASH_MEMBER, '\n  "hash": "",\n') };
}

/** Each entry's bytes (from its key to before the separating comma) by raw key, for the table between `open` and `close`. */
function entriesOf(bytes: Buffer, open: number, close: number): Map<string, Buffer> | undefined {
  const entries = new Map<string, Buffer>();
  if (open === close) return entries;
  let at = bytes.indexOf(ENTRY_START, open);
  if (at !== open) return undefined;
  while (at !== -1 && at < close) {
    const keyStart = at + ENTRY_START.length;
    const keyEnd = closingQuote(bytes, keyStart, close);
    if (keyEnd === -1) return undefined;
    const next = bytes.indexOf(ENTRY_START, keyEnd);
    const end = next === -1 || next > close ? close : next - 1; // before the `,`
    if (end !== close && bytes[end] !== 0x2c) return undefined;
    const key = bytes.toString('latin1', keyStart, keyEnd);
    if (entries.has(key)) return undefined;
    entries.set(key, bytes.subarray(keyStart - 1, end));
    at = next === -1 || next > close ? -1 : next;
  }
  return entries;
}

/** The offset of the `"` closing the JSON string that starts at `from` (UTF-8 continuation bytes are never `"` or `\`); -1 when none before `limit` or a newline. */
function closingQuote(bytes: Buffer, from: number, limit: number): number {
  for (let i = from; i < limit; i++) {
    const c = bytes[i];
    if (c === 0x22) return i;
    if (c === 0x5c) i++;
    else if (c === 0x0a) return -1;
  }
  return -1;
}
