/**
 * bundle.json (a StoredBundle, format "3") → the Bundle the runtime runs
 * (docs/runtime.md#loading-a-bundle). Also `@agentc/runtime/bundle`, which the
 * generated bundle.ts imports: it loads nothing else of the runtime.
 *
 * Everything is lazy, and each check happens once. Loading checks the format
 * version and the top-level tables and lists the agents. An agent's entry is
 * parsed, and every text, block and tool shape it names checked to exist, the
 * first time `bundle.agents[id]` is read. A prefix's text is joined from its
 * blocks' stored texts (each followed by "\n\n") and its SHA-256 checked
 * against the recorded one the first time its `text` or `blocks` is read,
 * memoized on that prefix of this loaded bundle (never in a module-level
 * cache); `verifyBundle` (or the option `verify: 'all'`) checks every agent and
 * prefix at once, for readiness probes and CI. Prefixes that start with the same
 * texts share the hash state of that common start, so each byte of a shared
 * start is hashed once per loaded bundle.
 *
 * `readBundle` / `loadBundleJson` read bundle.json as bytes and, when the file
 * has the canonical layout agentc writes, parse only the small top-level
 * fields: the agents, blocks, texts and tool shapes tables are found by their
 * indentation and each entry is decoded and parsed when first needed. A table
 * in any other layout is parsed whole. A misread text can never reach a model:
 * its prefix's sha256 fails.
 *
 * Every problem is a BundleLoadError with a `code`: `format` (not a bundle, or a
 * format version this runtime does not know), `shape` (a reference to a text,
 * tool shape or block that is not there, or a malformed stored text),
 * `prefix-hash` (a prefix whose text does not match its recorded sha256: the
 * file was changed after `agentc build`), thrown at load, on first use or by
 * `verifyBundle`.
 */
import type { Hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import {
  BUNDLE_FORMAT_VERSION,
  type Bundle,
  type BundleAgent,
  type BundlePrefix,
  type DispatchEntry,
  type JsonSchema,
  type OpenAITool,
  type StoredAgent,
  type StoredBlockInfo,
  type StoredBundle,
  type StoredPrefix,
  type StoredToolShape,
} from '../bundle/types.js';

export type BundleLoadErrorCode = 'missing' | 'format' | 'shape' | 'prefix-hash';

export class BundleLoadError extends Error {
  override readonly name = 'BundleLoadError';
  constructor(
    readonly code: BundleLoadErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface LoadBundleOptions {
  /**
   * `lazy` (default): each prefix is joined and checked on first use. `all`:
   * every prefix is checked before the bundle is returned.
   */
  verify?: 'lazy' | 'all';
}

const SEPARATOR = '\n\n';

/** node:crypto, required on the first prefix checked: a service that loads the bundle and uses no prompt yet does not load it. */
function loadCrypto(): typeof import('node:crypto') {
  return createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
}

/** On a loaded bundle (not enumerable): its lazily checked prefixes' checks (each true when it checked now). */
const CHECKS = Symbol('agentc.prefixChecks');

/** Where a table's entries come from: a parsed object, or byte ranges of bundle.json parsed on demand (once per key). */
interface TableSource {
  keys(): string[];
  has(key: string): boolean;
  get(key: string): unknown;
}

/** A parsed bundle.json → the runtime's Bundle. A Bundle already loaded (or made by `compile`) is returned as it is. */
export function loadBundle(data: unknown, options: LoadBundleOptions = {}): Bundle {
  checkVersion(data);
  if (!('texts' in (data as object))) return data as Bundle;
  const { agents, texts, toolShapes, blocks } = data as Record<string, unknown>;
  if (!isRecord(agents) || !isRecord(texts) || !isRecord(toolShapes) || !isRecord(blocks)) {
    throw new BundleLoadError('format', 'not an agentc bundle: texts, toolShapes, blocks and agents must be objects');
  }
  const source = (record: Record<string, unknown>): TableSource => ({
    keys: () => Object.keys(record),
    has: (k) => Object.hasOwn(record, k),
    get: (k) => (Object.hasOwn(record, k) ? record[k] : undefined),
  });
  return finish(
    fromStored(data as StoredBundle, { agents: source(agents), blocks: source(blocks), texts: source(texts), toolShapes: source(toolShapes) }),
    options,
  );
}

/** bundle.json's text (or its UTF-8 bytes, read and never changed) → Bundle. */
export function loadBundleJson(text: string | Uint8Array, options: LoadBundleOptions = {}): Bundle {
  return loadBytes(typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text.buffer, text.byteOffset, text.byteLength), options);
}

/**
 * Reads and loads a bundle.json file (a path or a file: URL). A file that is not
 * there is a `missing` BundleLoadError that says where it was looked for and how
 * to put it there (a service compiled to another directory must copy it).
 */
export function readBundle(path: string | URL, options: LoadBundleOptions = {}): Bundle {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    const where = path instanceof URL ? fileURLToPath(path) : path;
    throw new BundleLoadError(
      'missing',
      `${where} does not exist: the generated bundle.ts reads the bundle.json that \`agentc build\` writes beside it. When you compile generated/ to another directory (tsc's outDir, a bundler), copy generated/bundle.json next to the compiled bundle.js.`,
    );
  }
  return loadBytes(bytes, options);
}

/**
 * Checks every prefix of a loaded bundle that was not checked yet (joins it and
 * compares its sha256); throws BundleLoadError on the first mismatch. Returns how
 * many prefixes it checked now (0 for a copy of a loaded bundle, whose prefixes
 * are checked all the same). Every agent's tools are read too (a malformed
 * tool shape is a BundleLoadError here, not on first use). A bundle made by
 * `compile` has nothing to check.
 */
export function verifyBundle(bundle: Bundle): number {
  const checks = (bundle as { [CHECKS]?: (() => boolean)[] })[CHECKS];
  // Reading each agent reads its entry and checks its references (and registers its prefixes' checks).
  for (const agent of Object.values(bundle.agents)) {
    void agent.tools;
    // A copy of a loaded bundle has no list of checks: reading each text checks it.
    if (checks === undefined) for (const p of agent.prefixes) void p.text;
  }
  let checked = 0;
  for (const check of checks ?? []) if (check()) checked++;
  return checked;
}

function finish(bundle: Bundle, options: LoadBundleOptions): Bundle {
  if (options.verify === 'all') verifyBundle(bundle);
  return bundle;
}

function checkVersion(data: unknown): void {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new BundleLoadError('format', 'not an agentc bundle: expected the JSON object agentc build writes to bundle.json');
  }
  const version = (data as { formatVersion?: unknown }).formatVersion;
  if (version !== BUNDLE_FORMAT_VERSION) {
    throw new BundleLoadError(
      'format',
      version === undefined
        ? 'not an agentc bundle: it has no formatVersion'
        : `bundle format ${JSON.stringify(version)} is not supported by this @agentc/runtime (it reads format "${BUNDLE_FORMAT_VERSION}"); rebuild the bundle with the agentc version that matches your @agentc/runtime`,
    );
  }
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new BundleLoadError('format', `not an agentc bundle: ${what} is not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
}

function loadBytes(bytes: Buffer, options: LoadBundleOptions): Bundle {
  const split = splitTables(bytes);
  if (split === undefined) return loadBundle(parseJson(bytes.toString('utf8'), 'the text'), options);
  const data = parseJson(split.index, 'the text');
  checkVersion(data);
  return finish(fromStored(data as StoredBundle, split.tables), options);
}

// The canonical layout (src/emit/stored.ts): each of these tables opens with
// `  "<name>": {` on a line of its own, has one `    "<key>": …` line per entry
// (a text's lines indented deeper), and is closed by the first line that is
// `  }` or `  },`. Deeper lines never start with exactly four spaces and a quote.
const LAZY_TABLES = ['agents', 'blocks', 'texts', 'toolShapes'] as const;
type LazyTable = (typeof LAZY_TABLES)[number];
const TABLE_CLOSE = Buffer.from('\n  }', 'utf8');
const ENTRY_START = '\n    "';
const KEY_END = '": ';
/** Printable ASCII but `\\`. */
const PLAIN_KEY = /^[\x20-\x5b\x5d-\x7e]*$/;

/**
 * bundle.json's bytes → its text with the blocks, texts and toolShapes tables
 * empty (`{}`), and those tables as byte ranges per key, each parsed when first
 * asked for; undefined when the layout is not the canonical one (the caller
 * parses the whole text).
 */
function splitTables(bytes: Buffer): { index: string; tables: Record<LazyTable, TableSource> } | undefined {
  const spans: { name: LazyTable; open: number; close: number }[] = [];
  for (const name of LAZY_TABLES) {
    const opener = Buffer.from(`\n  ${JSON.stringify(name)}: {\n`, 'utf8');
    const at = bytes.indexOf(opener);
    if (at === -1) return undefined;
    const open = at + opener.length - 2; // the `{`
    const close = bytes.indexOf(TABLE_CLOSE, open); // the newline before `  }`
    if (close === -1) return undefined;
    spans.push({ name, open, close });
  }
  spans.sort((a, b) => a.open - b.open);
  let index = '';
  let from = 0;
  for (const span of spans) {
    if (span.open < from) return undefined;
    index += `${bytes.toString('utf8', from, span.open)}{}`;
    from = span.close + 4;
  }
  index += bytes.toString('utf8', from);
  const tables = {} as Record<LazyTable, TableSource>;
  for (const span of spans) tables[span.name] = lazyTable(bytes, span);
  return { index, tables };
}

/**
 * One table of bundle.json as a TableSource: its entries' byte ranges found on
 * first use, each entry parsed when first asked for. A table whose entries are
 * not laid out canonically is parsed whole instead.
 */
function lazyTable(bytes: Buffer, { name, open, close }: { name: LazyTable; open: number; close: number }): TableSource {
  let ranges: Map<string, [number, number]> | undefined;
  let whole: Record<string, unknown> | undefined;
  const parsed = new Map<string, unknown>();
  const index = (): void => {
    if (ranges !== undefined || whole !== undefined) return;
    // One byte per character: offsets in `raw` are byte offsets from `open`.
    ranges = entryRanges(bytes, bytes.toString('latin1', open, close + 1), open);
    if (ranges === undefined) {
      const value = parseJson(bytes.toString('utf8', open, close + 4), `the ${name} table`);
      if (!isRecord(value)) throw new BundleLoadError('format', `not an agentc bundle: ${name} must be an object`);
      whole = value;
    }
  };
  return {
    keys: () => (index(), whole !== undefined ? Object.keys(whole) : [...ranges!.keys()]),
    has: (k) => (index(), whole !== undefined ? Object.hasOwn(whole, k) : ranges!.has(k)),
    get: (k) => {
      index();
      if (whole !== undefined) return Object.hasOwn(whole, k) ? whole[k] : undefined;
      if (parsed.has(k)) return parsed.get(k);
      const range = ranges!.get(k);
      const value = range === undefined ? undefined : parseJson(bytes.toString('utf8', range[0], range[1]), `the ${name} entry "${k}"`);
      parsed.set(k, value);
      return value;
    },
  };
}

/** The offset of the `"` that closes the JSON string whose text starts at `from` (bytes of UTF-8 never look like `"` or `\\`); -1 when there is none. */
function closingQuote(raw: string, from: number): number {
  for (let i = from; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x22) return i;
    if (c === 0x5c) i++;
    else if (c === 0x0a) return -1;
  }
  return -1;
}

/** The byte range of each entry's value in the table whose `{` is at `open` and whose closing line starts after `close`. */
function entryRanges(bytes: Buffer, raw: string, base: number): Map<string, [number, number]> | undefined {
  const ranges = new Map<string, [number, number]>();
  const close = raw.length - 1; // the newline before `  }`
  let entry = raw.indexOf(ENTRY_START);
  if (entry !== -1 && entry !== 1) return undefined;
  while (entry !== -1 && entry < close) {
    let keyEnd = raw.indexOf('"', entry + 6);
    let key: unknown = keyEnd === -1 ? undefined : raw.slice(entry + 6, keyEnd);
    // A key of printable ASCII without escapes is its own text; any other is decoded (UTF-8, then JSON).
    if (typeof key !== 'string' || !PLAIN_KEY.test(key)) {
      keyEnd = closingQuote(raw, entry + 6);
      try {
        key = keyEnd === -1 ? undefined : JSON.parse(bytes.toString('utf8', base + entry + 5, base + keyEnd + 1));
      } catch {
        return undefined;
      }
    }
    if (typeof key !== 'string' || ranges.has(key) || !raw.startsWith(KEY_END, keyEnd)) return undefined;
    const next = raw.indexOf(ENTRY_START, keyEnd);
    const end = next === -1 ? close : next - 1;
    if (end !== close && raw[end] !== ',') return undefined;
    ranges.set(key, [base + keyEnd + 3, base + end]);
    entry = next;
  }
  return ranges;
}

/** Per loaded bundle: its lazily read tables, joined texts by key, and hash states by the sequence of text keys hashed so far. */
interface LoadState {
  tables: Record<LazyTable, TableSource>;
  /** node:crypto once a prefix was checked. */
  crypto?: typeof import('node:crypto');
  /** Every lazily checked prefix's check, for verifyBundle. */
  checks: (() => boolean)[];
  joined: Map<string, string>;
  states: Map<string, Hash>;
}

function fromStored(stored: StoredBundle, tables: Record<LazyTable, TableSource>): Bundle {
  const { texts: _texts, toolShapes: _toolShapes, blocks: _blocks, agents: _agents, ...top } = stored;
  const state: LoadState = { tables, checks: [], joined: new Map(), states: new Map() };
  const storedAgent = (id: string): StoredAgent => {
    const a = tables.agents.get(id) as StoredAgent;
    if (!isRecord(a) || !Array.isArray(a.tools) || !Array.isArray(a.prefixes) || !isRecord(a.dispatch) || !isRecord(a.dispatch.table)) {
      throw new BundleLoadError('shape', `agent "${id}" is not an agent entry`);
    }
    return a;
  };
  const policyOf = (id: string): StoredAgent['policy'] | undefined => (tables.agents.has(id) ? storedAgent(id).policy : undefined);
  const agents: Record<string, BundleAgent> = {};
  for (const id of tables.agents.keys()) {
    const entry = lazy(() => agentEntry(id, storedAgent(id), top, policyOf, state));
    Object.defineProperty(agents, id, {
      enumerable: true,
      configurable: true,
      get: entry.get,
      set: (value: BundleAgent) => settle(agents, id, value),
    });
  }
  const bundle = { ...top, agents } as Bundle;
  Object.defineProperty(bundle, CHECKS, { value: state.checks, enumerable: false });
  return bundle;
}

/** An agent's entry in memory: its references checked now, its tools and prefixes made on first use. */
function agentEntry(
  id: string,
  a: StoredAgent,
  top: Pick<StoredBundle, 'dynamicContext' | 'dynamicContextAst' | 'tools'>,
  policyOf: (id: string) => StoredAgent['policy'] | undefined,
  state: LoadState,
): BundleAgent {
  const where = `agent "${id}"`;
  for (const key of a.tools) {
    if (typeof key !== 'string' || !state.tables.toolShapes.has(key))
      throw new BundleLoadError('shape', `${where} refers to the tool shape "${String(key)}", which the bundle does not hold`);
  }
  const { tools: toolKeys, ...rest } = a;
  const tools = lazy(() => agentTools(toolKeys, where, state.tables.toolShapes));
  return {
    ...rest,
    suffix_template: a.suffix_template ?? top.dynamicContext.template,
    suffix_ast: a.suffix_ast ?? top.dynamicContextAst,
    dispatch: dispatchOf(a.dispatch, policyOf, top.tools, where),
    prefixes: a.prefixes.map((p) => lazyPrefix(p, `${where}, cohort "${String((p as Partial<StoredPrefix> | null)?.key)}"`, state)),
    get tools() {
      return tools.get();
    },
    set tools(value: BundleAgent['tools']) {
      settle(this, 'tools', value);
    },
  } as BundleAgent;
}

/**
 * A value computed by `resolve` on first use, once (a BundleLoadError is kept and
 * thrown again); `check()` computes it and tells whether that happened now.
 */
function lazy<T>(resolve: () => T): { get: () => T; check: () => boolean } {
  let done: { value: T } | BundleLoadError | undefined;
  const get = (): T => {
    if (done === undefined) {
      try {
        done = { value: resolve() };
      } catch (e) {
        if (e instanceof BundleLoadError) done = e;
        throw e;
      }
    }
    if (done instanceof BundleLoadError) throw done;
    return done.value;
  };
  return {
    get,
    check: () => {
      const now = done === undefined;
      get();
      return now;
    },
  };
}

/** Makes `name` a plain field of `target` holding `value` (what assigning a lazy field does). */
function settle(target: object, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

function agentTools(keys: readonly string[], where: string, toolShapes: TableSource): BundleAgent['tools'] {
  const shapes = keys.map((key) => {
    const shape = toolShapes.get(key) as StoredToolShape | undefined;
    if (!isRecord(shape) || !isRecord(shape.neutral))
      throw new BundleLoadError('shape', `${where} refers to the tool shape "${key}", which is not a tool shape`);
    return shape;
  });
  return {
    anthropic: shapes.map((s) => s.anthropic ?? { description: s.neutral.description, input_schema: s.neutral.parameters, name: s.neutral.name }),
    neutral: shapes.map((s) => s.neutral),
    openai: shapes.map(openaiTool),
  };
}

function openaiTool(shape: StoredToolShape): OpenAITool {
  const stored = shape.openai;
  if (stored !== undefined && 'type' in stored) return stored;
  const parameters: JsonSchema = stored?.parameters ?? shape.neutral.parameters;
  return { function: { description: shape.neutral.description, name: shape.neutral.name, parameters, strict: true }, type: 'function' };
}

/** An agent's dispatch with what its stored table leaves out restored (the table is copied only when something is). */
function dispatchOf(
  dispatch: StoredAgent['dispatch'],
  policyOf: (id: string) => StoredAgent['policy'] | undefined,
  contracts: StoredBundle['tools'],
  where: string,
): BundleAgent['dispatch'] {
  const entries = Object.entries(dispatch.table);
  const partial = (e: unknown): boolean =>
    isRecord(e) && (e.kind === 'sub_agent' ? e.policy === undefined : e.kind === 'tool' && (e.tool === undefined || e.envelope === undefined));
  if (!entries.some(([, e]) => partial(e))) return dispatch as BundleAgent['dispatch'];
  const table = Object.fromEntries(
    entries.map(([name, e]): [string, DispatchEntry] => {
      if (!partial(e)) return [name, e as DispatchEntry];
      if (e.kind === 'sub_agent') {
        const policy = policyOf(e.agent);
        if (policy === undefined) throw new BundleLoadError('shape', `${where} dispatches "${name}" to the agent "${e.agent}", which the bundle does not hold`);
        return [name, { ...e, policy }];
      }
      const tool = e.tool ?? name;
      const contract = isRecord(contracts) && Object.hasOwn(contracts, tool) ? contracts[tool] : undefined;
      if (!isRecord(contract)) throw new BundleLoadError('shape', `${where} dispatches "${name}" to the tool "${tool}", which the bundle does not hold`);
      return [name, { envelope: e.envelope ?? contract.envelope, kind: 'tool', tool }];
    }),
  );
  return { ...dispatch, table };
}

/**
 * A prefix whose `text` and `blocks` are joined and checked on first use of
 * either, once; the references it makes are checked now.
 */
function lazyPrefix(p: StoredPrefix, where: string, state: LoadState): BundlePrefix {
  if (!isRecord(p) || !Array.isArray(p.blocks)) throw new BundleLoadError('shape', `${where} is not a prefix entry`);
  for (const b of p.blocks) {
    if (!isRecord(b) || typeof b.id !== 'string') throw new BundleLoadError('shape', `${where} has a block that is not a block entry`);
    const key = b.text ?? b.id;
    if (!state.tables.blocks.has(b.id)) throw new BundleLoadError('shape', `${where} uses the block "${b.id}", which the bundle does not describe`);
    if (!state.tables.texts.has(key)) throw new BundleLoadError('shape', `${where} refers to the text "${key}", which the bundle does not hold`);
  }
  const joined = lazy(() => joinPrefix(p, where, state));
  state.checks.push(joined.check);
  return {
    get blocks() {
      return joined.get().blocks;
    },
    set blocks(value: BundlePrefix['blocks']) {
      settle(this, 'blocks', value);
    },
    cohort: p.cohort,
    key: p.key,
    sha256: p.sha256,
    get text() {
      return joined.get().text;
    },
    set text(value: string) {
      settle(this, 'text', value);
    },
    tokens: p.tokens,
  };
}

function joinPrefix(p: StoredPrefix, where: string, state: LoadState): Pick<BundlePrefix, 'text' | 'blocks'> {
  let text = '';
  let path = '';
  let hash: Hash | undefined;
  let shared = true;
  const out: BundlePrefix['blocks'] = [];
  for (const b of p.blocks) {
    const key = b.text ?? b.id;
    const info = state.tables.blocks.get(b.id) as StoredBlockInfo | undefined;
    if (!isRecord(info)) throw new BundleLoadError('shape', `${where} uses the block "${b.id}", whose entry is not a block entry`);
    const body = textOf(key, where, state);
    out.push({
      category: info.category,
      file: info.file,
      id: b.id,
      length: body.length,
      owner: info.owner,
      required: info.required,
      start: text.length,
      tokens: b.tokens,
    });
    text += body + SEPARATOR;
    // Hash states by the sequence of text keys so far: a common start is hashed once.
    path += `${key}\u0000`;
    const known = shared ? state.states.get(path) : undefined;
    if (known !== undefined) {
      hash = known;
      continue;
    }
    if (shared && hash !== undefined) hash = hash.copy();
    shared = false;
    hash ??= (state.crypto ??= loadCrypto()).createHash('sha256');
    hash.update(body, 'utf8').update(SEPARATOR, 'utf8');
    state.states.set(path, hash.copy());
  }
  const digest = (hash ?? (state.crypto ??= loadCrypto()).createHash('sha256')).copy().digest('hex');
  if (digest !== p.sha256) {
    throw new BundleLoadError(
      'prefix-hash',
      `${where}: the prefix's sha256 is ${digest}, but the bundle records ${String(p.sha256)}; the bundle was changed after agentc build (rebuild it)`,
    );
  }
  return { blocks: out, text };
}

/** A stored text joined (a variant decoded against its base), once per key and loaded bundle. */
function textOf(key: string, where: string, state: LoadState): string {
  let text = state.joined.get(key);
  if (text !== undefined) return text;
  const stored = state.tables.texts.get(key);
  const bad = (why: string): BundleLoadError => new BundleLoadError('shape', `${where} refers to the text "${key}", which ${why}`);
  if (!Array.isArray(stored) || stored.length === 0) throw bad('is not an array of lines');
  const head: unknown = stored[0];
  if (isRecord(head)) {
    const baseKey = (head as { base?: unknown }).base;
    if (typeof baseKey !== 'string' || !state.tables.texts.has(baseKey)) throw bad('names a base text the bundle does not hold');
    const base = state.tables.texts.get(baseKey);
    if (!Array.isArray(base) || !base.every((l) => typeof l === 'string')) throw bad(`names the base "${baseKey}", which is not stored as lines`);
    text = decodeVariant(base as string[], stored.slice(1), bad);
  } else {
    if (!stored.every((l) => typeof l === 'string')) throw bad('is not an array of lines');
    text = (stored as string[]).join('\n');
  }
  state.joined.set(key, text);
  return text;
}

function decodeVariant(base: readonly string[], runs: readonly unknown[], bad: (why: string) => BundleLoadError): string {
  const lines: string[] = [];
  let at = 0;
  for (const run of runs) {
    if (typeof run === 'string') lines.push(run);
    else if (typeof run === 'number' && Number.isInteger(run) && run !== 0 && at + Math.abs(run) <= base.length) {
      if (run > 0) for (let i = 0; i < run; i++) lines.push(base[at + i]!);
      at += Math.abs(run);
    } else throw bad('holds a run that is not a line or a count of base lines');
  }
  return lines.join('\n');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
