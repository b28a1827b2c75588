/**
 * Bundle (in memory) → StoredBundle (bundle.json, format "2", docs/formats/bundle.md).
 *
 * - Each distinct rendering of a block is stored once in `texts`, split into
 *   lines, under a key that does not depend on its text: the block id when every
 *   agent renders the block the same, else `<block>@<agent>` (plus `@<cohort>`
 *   for a non-default cohort) after the first agent and cohort that render that
 *   variant. So a one-line edit of a block changes one line of `texts` (plus the
 *   token counts and hashes of the prefixes that hold it), never a key.
 * - Each distinct tool shape (neutral + OpenAI + Anthropic) is stored once in
 *   `toolShapes`, under `<name>~<first 12 hex of its sha256>`.
 * - What every use of a block shares (owner, category, file, required) is in `blocks`.
 * - A block's other renderings (per-agent variants) are stored as runs against
 *   its first rendering: shared lines are a count, so a one-line edit of a line
 *   every variant shares is one changed line of the bundle.
 * - Copies are left out where the loader restores them: an Anthropic tool whose
 *   name, description and input_schema equal the neutral tool's, an OpenAI tool's
 *   name and description (and its parameters when they equal the neutral ones), a
 *   sub-agent's policy in a dispatch table (the sub-agent's own), a tool entry's
 *   `tool` and `envelope` (its own name, its contract's envelope), an agent's
 *   `suffix_template` equal to `dynamicContext.template` and its `suffix_ast`
 *   equal to `dynamicContextAst` (the config's, stored once).
 *
 * The text is canonical (keys sorted by code unit, LF, one final newline) and
 * line-oriented: containers down to depth 2 (the top-level object, its tables,
 * their entries) are indented by two spaces, one member per line; anything
 * deeper is written on one line, except agents' fields and texts' lines:
 * one line of prompt per line of JSON.
 */
import type {
  Bundle,
  BundleAgent,
  BundlePrefix,
  BundlePrefixBlock,
  StoredAgent,
  Policy,
  StoredAgent as StoredAgentEntry,
  StoredBlockInfo,
  StoredBundle,
  StoredDispatchEntry,
  StoredText,
  StoredPrefixBlock,
  StoredToolShape,
} from '../bundle/types.js';
import { diffArrays } from 'diff';
import { canonicalJson, compareCodeUnits, sameJson, sha256Hex, sortKeysDeep } from '../bundle/canonical-json.js';

/** Past this many changed lines a variant is stored whole (the line diff gives up: jsdiff's `maxEditLength`). */
const MAX_VARIANT_EDITS = 64;

/** Tables whose entries are written one member (agent field, text line) per line; other entries take one line each. */
const MULTILINE_TABLES: ReadonlySet<string> = new Set(['agents', 'texts']);

/** bundle.json's text for a stored bundle (or any part of one at depth 0). */
export function storedJson(value: unknown): string {
  return `${storedValue(sortKeysDeep(value), 0)}\n`;
}

/**
 * `value` (keys already sorted) as it stands in bundle.json, without the leading
 * indent: the top-level object and its tables one member per line, the entries
 * of `agents` and `texts` too, anything deeper on one line.
 */
export function storedValue(value: unknown, depth: number, table = ''): string {
  const multiline = depth <= 1 || (depth === 2 && MULTILINE_TABLES.has(table));
  if (value === null || typeof value !== 'object' || !multiline) return JSON.stringify(value);
  const pad = '  '.repeat(depth + 1);
  const close = '  '.repeat(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    // Scalars only (a text's lines): one stringify, the same bytes (JSON strings hold no raw "\n").
    if (value.every(isScalar)) return JSON.stringify(value, null, 2).replaceAll('\n', `\n${close}`);
    return `[\n${value.map((v) => pad + storedValue(v, depth + 1, table)).join(',\n')}\n${close}]`;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return '{}';
  const record = value as Record<string, unknown>;
  return `{\n${keys.map((k) => `${pad}${JSON.stringify(k)}: ${storedValue(record[k], depth + 1, depth === 0 ? k : table)}`).join(',\n')}\n${close}}`;
}

function isScalar(v: unknown): boolean {
  return typeof v === 'string' || typeof v === 'boolean' || v === null || (typeof v === 'number' && Number.isFinite(v));
}

/** The keys each agent's stored entry refers to, and the tables they refer into. */
export interface StoreKeys {
  /** By agent id: per prefix, per block, the key of its text. */
  blockKeys: Map<string, string[][]>;
  /** By agent id: per tool, the key of its shape. */
  toolKeys: Map<string, string[]>;
  texts: Record<string, StoredText>;
  toolShapes: Record<string, StoredToolShape>;
  blocks: Record<string, StoredBlockInfo>;
  /**
   * The three tables as rows (keys and values side by side) instead: set by the incremental
   * storeKeys (store-keys-memo.ts), whose records above are then empty. Building and listing
   * a record of thousands of keys costs more than the rest of a watch rebuild's keying.
   */
  rows?: StoredRows;
}

/** The three tables of StoreKeys as rows. */
export interface StoredRows {
  texts: TableRows<StoredText>;
  toolShapes: TableRows<StoredToolShape>;
  blocks: TableRows<StoredBlockInfo>;
  /** Per table whose keys are those of the last call's rows (`was`, the very array), item by item: the rows whose values may differ. */
  same?: { [T in RowTable]?: RowsChanged };
}

/** The tables StoreKeys may give as rows. */
export type RowTable = Exclude<keyof StoredRows, 'same'>;

/** Rows whose keys are `was`'s, item by item; only the rows at `changed` may hold other values. */
export interface RowsChanged {
  was: readonly string[];
  changed: readonly number[];
}

/** A table's entries: keys[i] → values[i], each key once. */
export interface TableRows<T> {
  keys: string[];
  values: T[];
}

export function blockSlice(prefix: BundlePrefix, block: BundlePrefixBlock): string {
  return prefix.text.slice(block.start, block.start + block.length);
}

/** One tool of an agent's entry as stored: its shape (keys sorted) and that shape's key in `toolShapes`. */
export interface StoredToolOf {
  key: string;
  shape: StoredToolShape;
}

type AgentTools = BundleAgent['tools'];

/**
 * A tool's stored shape and key: a pure function of its three shapes (see `toolShapeKey`).
 * `canonical`: the caller vouches the three shapes are canonical (createBundle's), so the shape is made in key order, not copied sorted.
 */
export function storedTool(
  neutral: AgentTools['neutral'][number],
  openaiTool: AgentTools['openai'][number],
  anthropic: AgentTools['anthropic'][number],
  canonical = false,
): StoredToolOf {
  const same = anthropic.name === neutral.name && anthropic.description === neutral.description && sameJson(anthropic.input_schema, neutral.parameters);
  const openai = storedOpenai(neutral, openaiTool);
  const made = { ...(same ? {} : { anthropic }), neutral, ...(openai === undefined ? {} : { openai }) } as StoredToolShape;
  const shape = canonical ? made : sortKeysDeep(made);
  return { key: sortedShapeKey(shape), shape };
}

/**
 * Tool-shape keys of one agent and its shapes (keys sorted): a pure function of its entry.
 * `toolOf` may return memoized values (emit shares one set of shapes between the agents that have a tool).
 */
export function agentToolKeys(entry: BundleAgent, toolOf: typeof storedTool = storedTool): { keys: string[]; shapes: StoredToolShape[] } {
  const tools = entry.tools.neutral.map((neutral, i) => toolOf(neutral, entry.tools.openai[i]!, entry.tools.anthropic[i]!));
  return { keys: tools.map((t) => t.key), shapes: tools.map((t) => t.shape) };
}

/** An OpenAI tool as stored: absent when the loader derives all of it from the neutral tool, `{ parameters }` when only those differ. */
function storedOpenai(neutral: StoredToolShape['neutral'], openai: NonNullable<BundleAgent['tools']['openai'][number]>): StoredToolShape['openai'] {
  const f = openai.function;
  const derived =
    openai.type === 'function' && f.strict && f.name === neutral.name && f.description === neutral.description && Object.keys(openai).length === 2;
  if (!derived || Object.keys(f).length !== 4) return openai;
  return sameJson(f.parameters, neutral.parameters) ? undefined : { parameters: f.parameters };
}

export function toolShapeKey(shape: StoredToolShape): string {
  return sortedShapeKey(sortKeysDeep(shape));
}

/** toolShapeKey of a shape whose keys are sorted already (its canonical JSON is then plain JSON.stringify). */
function sortedShapeKey(sorted: StoredToolShape): string {
  return `${sorted.neutral.name}~${sha256Hex(`${JSON.stringify(sorted, null, 2)}\n`).slice(0, 12)}`;
}

/** One use of a block in an agent's prefixes: its rendered text there and the facts every use shares. */
export interface BlockUse {
  id: string;
  text: string;
  info: StoredBlockInfo;
}

/** An agent's block uses, per prefix, per block: a pure function of its entry (memoizable by the entry's identity). */
export function agentBlockUses(entry: BundleAgent): BlockUse[][] {
  return entry.prefixes.map((p) =>
    p.blocks.map((b) => ({ id: b.id, text: blockSlice(p, b), info: { category: b.category, file: b.file, owner: b.owner, required: b.required } })),
  );
}

/** What storeKeys may take memoized (each a pure function of one agent's entry, of a text, or of a variant and its base). */
export interface StoreKeysMemo {
  toolKeysOf(id: string, entry: BundleAgent): { keys: string[]; shapes: StoredToolShape[] };
  usesOf(id: string, entry: BundleAgent): BlockUse[][];
  linesOf(text: string): string[];
  variantOf(base: { key: string; lines: string[] }, lines: string[]): StoredText;
}

const FRESH: StoreKeysMemo = {
  toolKeysOf: (_, e) => agentToolKeys(e),
  usesOf: (_, e) => agentBlockUses(e),
  linesOf: (t) => t.split('\n'),
  variantOf: (base, lines) => variantText(base, lines),
};

/**
 * Assigns every key. `memo` may return memoized values (see StoreKeysMemo).
 * Throws only on an agentc bug (a block whose shared facts differ between prefixes).
 */
export function storeKeys(bundle: Bundle, memo: Partial<StoreKeysMemo> = {}): StoreKeys {
  const { toolKeysOf, usesOf, linesOf, variantOf } = { ...FRESH, ...memo };
  const ids = Object.keys(bundle.agents).sort(compareCodeUnits);
  // Per agent, per prefix, per block: the index of its text among its block's distinct texts.
  const uses = new Map<string, { id: string; at: number }[][]>();
  // Per block id: each distinct text in order of first use, with the key of that first use.
  const variants = new Map<string, BlockVariants>();
  const infos = new Map<string, StoredBlockInfo>();
  for (const id of ids) {
    const entry = bundle.agents[id]!;
    const perPrefix = usesOf(id, entry);
    uses.set(
      id,
      perPrefix.map((prefixUses, i) => {
        const cohortKey = entry.prefixes[i]!.key;
        return prefixUses.map((u) => {
          let byText = variants.get(u.id);
          if (byText === undefined) variants.set(u.id, (byText = { texts: [], keys: [] }));
          let at = variantIndex(byText, u.text);
          if (at === -1) {
            at = byText.texts.length;
            byText.texts.push(u.text);
            byText.keys.push(variantKey(u.id, id, cohortKey));
            byText.index?.set(u.text, at);
          }
          const known = infos.get(u.id);
          if (known === undefined) infos.set(u.id, u.info);
          else if (known !== u.info && !sameBlockInfo(known, u.info))
            throw new Error(`agentc bug: block "${u.id}" has different owner, category, file or required flag in two prefixes`);
          return { id: u.id, at };
        });
      }),
    );
  }
  const blocks: Record<string, StoredBlockInfo> = {};
  for (const [blockId, info] of infos) setOwn(blocks, blockId, info);
  const keyOf = new Map<string, string[]>();
  const texts: Record<string, StoredText> = {};
  const used = new Set<string>();
  for (const blockId of [...variants.keys()].sort(compareCodeUnits)) {
    const byText = variants.get(blockId)!;
    const stored = blockTexts(blockId, new Map(byText.texts.map((text, i) => [text, byText.keys[i]!])), used, linesOf, variantOf);
    for (const [key, text] of stored.texts) setOwn(texts, key, text);
    // In the order of byText.texts (a Map iterates in insertion order): looked up by each use's index, not its text.
    keyOf.set(blockId, [...stored.keys.values()]);
  }
  const blockKeys = new Map<string, string[][]>();
  const toolKeys = new Map<string, string[]>();
  const toolShapes: Record<string, StoredToolShape> = {};
  for (const id of ids) {
    const entry = bundle.agents[id]!;
    blockKeys.set(
      id,
      uses.get(id)!.map((prefixUses) => prefixUses.map((u) => keyOf.get(u.id)![u.at]!)),
    );
    const { keys, shapes } = toolKeysOf(id, entry);
    toolKeys.set(id, keys);
    keys.forEach((key, i) => {
      // Equal keys are equal shapes (the key holds 48 bits of the shape's sha256).
      if (!Object.hasOwn(toolShapes, key)) setOwn(toolShapes, key, shapes[i]!);
    });
  }
  return { blockKeys, toolKeys, texts, toolShapes, blocks };
}

/** A block's distinct texts in order of first use, with the key of each one's first use; `index` once there are many. */
interface BlockVariants {
  texts: string[];
  keys: string[];
  index?: Map<string, number>;
}

/** Past this many distinct texts of one block, they are looked up by a Map instead of compared one by one. */
const VARIANTS_SCANNED = 8;

/**
 * Where `text` is among the block's distinct texts, or -1. Compared one by one while there are few: a string
 * compare (length first, then the bytes) costs less than hashing the whole text for a Map, which is most of the
 * cost when a thousand agents hold the same long block.
 */
function variantIndex(v: BlockVariants, text: string): number {
  if (v.index !== undefined) return v.index.get(text) ?? -1;
  const at = v.texts.indexOf(text);
  if (at === -1 && v.texts.length >= VARIANTS_SCANNED) v.index = new Map(v.texts.map((t, i) => [t, i]));
  return at;
}

/** Whether two uses of a block share its facts (the stored bundle's `blocks` entry). */
export function sameBlockInfo(a: StoredBlockInfo, b: StoredBlockInfo): boolean {
  return a.category === b.category && a.file === b.file && a.owner === b.owner && a.required === b.required;
}

/**
 * A variant's lines as runs against its block's first rendering (StoredText):
 * a count of shared lines, a negative count of skipped base lines, or a line of
 * its own; its lines as they are when that is not shorter.
 */
export function variantText(base: { key: string; lines: readonly string[] }, lines: string[]): StoredText {
  const runs = base.lines.length === lines.length ? positionalRuns(base.lines, lines) : diffRuns(base.lines, lines);
  if (runs === undefined) return lines;
  const stored: StoredText = [{ base: base.key }, ...runs];
  return JSON.stringify(stored).length < JSON.stringify(lines).length ? stored : lines;
}

/** Runs for a variant with as many lines as its base (the usual case: a name substituted in a line or two), line by line. */
function positionalRuns(base: readonly string[], lines: readonly string[]): (string | number)[] {
  const runs: (string | number)[] = [];
  let same = 0;
  lines.forEach((line, i) => {
    if (line === base[i]) return void same++;
    if (same > 0) runs.push(same);
    same = 0;
    runs.push(-1, line);
  });
  if (same > 0) runs.push(same);
  return runs;
}

/** Runs from a line diff (jsdiff); undefined past MAX_VARIANT_EDITS changed lines. */
function diffRuns(base: readonly string[], lines: readonly string[]): (string | number)[] | undefined {
  const changes = diffArrays(base as string[], lines as string[], { maxEditLength: MAX_VARIANT_EDITS });
  if (changes === undefined) return undefined;
  const runs: (string | number)[] = [];
  for (const c of changes) {
    if (c.added) runs.push(...c.value);
    else runs.push(c.removed ? -c.count : c.count);
  }
  return runs;
}

/** The config's suffix as an agent's entry is compared with: its template, and its AST's canonical JSON. */
export interface ConfigSuffix {
  template: string;
  astJson: string;
  /** The AST itself: an agent's entry made by createBundle shares it (compared by identity first). */
  ast: unknown;
}

export function configSuffix(bundle: Bundle): ConfigSuffix {
  return { template: bundle.dynamicContext.template, astJson: canonicalJson(bundle.dynamicContextAst), ast: bundle.dynamicContextAst };
}

/** What an agent's stored dispatch table leaves out, by name: each sub-agent's own policy, each tool contract's `envelope`. */
export interface DispatchFacts {
  policies: Record<string, Policy | undefined>;
  envelopes: Record<string, boolean | undefined>;
}

export function dispatchFacts(entry: BundleAgent, bundle: Pick<Bundle, 'agents' | 'tools'>): DispatchFacts {
  const facts: DispatchFacts = { policies: {}, envelopes: {} };
  for (const e of Object.values(entry.dispatch.table)) {
    if (e.kind === 'sub_agent') setOwn(facts.policies, e.agent, Object.hasOwn(bundle.agents, e.agent) ? bundle.agents[e.agent]!.policy : undefined);
    else setOwn(facts.envelopes, e.tool, Object.hasOwn(bundle.tools, e.tool) ? bundle.tools[e.tool]!.envelope : undefined);
  }
  return facts;
}

/**
 * An agent's stored entry: its suffix template and AST only where they differ
 * from the config's; in its dispatch table, a sub-agent's policy only where it is
 * not that agent's own, and a tool entry as `{ kind }` alone when it runs the
 * contract of its own name with that contract's `envelope` (`facts`).
 */
export function storeAgent(
  entry: BundleAgent,
  blockKeys: readonly (readonly string[])[],
  toolKeys: readonly string[],
  suffix: ConfigSuffix,
  facts: DispatchFacts,
): StoredAgent {
  // Members in the entry's order, each replaced in place: a canonical entry (createBundle's) gives a canonical result.
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(entry) as (keyof BundleAgent)[]) {
    switch (key) {
      case 'dispatch': {
        const dispatch = entry.dispatch;
        const table: StoredAgentEntry['dispatch']['table'] = {};
        for (const name of Object.keys(dispatch.table)) setOwn(table, name, storedDispatchEntry(name, dispatch.table[name]!, facts));
        out.dispatch = { ...dispatch, table };
        break;
      }
      case 'suffix_template':
        if (entry.suffix_template !== suffix.template) out.suffix_template = entry.suffix_template;
        break;
      case 'suffix_ast':
        if (entry.suffix_ast !== suffix.ast && canonicalJson(entry.suffix_ast) !== suffix.astJson) out.suffix_ast = entry.suffix_ast;
        break;
      case 'tools':
        out.tools = [...toolKeys];
        break;
      case 'prefixes':
        out.prefixes = entry.prefixes.map((p, i) => ({
          blocks: p.blocks.map((b, j): StoredPrefixBlock => {
            const text = blockKeys[i]![j]!;
            return text === b.id ? { id: b.id, tokens: b.tokens } : { id: b.id, text, tokens: b.tokens };
          }),
          cohort: p.cohort,
          key: p.key,
          sha256: p.sha256,
          tokens: p.tokens,
        }));
        break;
      default:
        out[key] = entry[key];
    }
  }
  return out as unknown as StoredAgent;
}

function storedDispatchEntry(name: string, e: BundleAgent['dispatch']['table'][string], facts: DispatchFacts): StoredDispatchEntry {
  if (e.kind === 'sub_agent') {
    const own = Object.hasOwn(facts.policies, e.agent) ? facts.policies[e.agent] : undefined;
    return own !== undefined && sameJson(own, e.policy) ? { agent: e.agent, kind: e.kind } : e;
  }
  const envelope = Object.hasOwn(facts.envelopes, e.tool) ? facts.envelopes[e.tool] : undefined;
  return e.tool === name && envelope === e.envelope ? { kind: e.kind } : e;
}

/** The whole stored bundle (tests, `bundleHash`); emission streams the same bytes from pieces. */
export function storeBundle(bundle: Bundle): StoredBundle {
  const keys = storeKeys(bundle);
  const suffix = configSuffix(bundle);
  const agents: Record<string, StoredAgent> = {};
  for (const id of Object.keys(bundle.agents).sort(compareCodeUnits)) {
    const entry = bundle.agents[id]!;
    setOwn(agents, id, storeAgent(entry, keys.blockKeys.get(id)!, keys.toolKeys.get(id)!, suffix, dispatchFacts(entry, bundle)));
  }
  return { ...storedTop(bundle, keys), agents };
}

/** Everything but the agents' entries. */
export function storedTop(bundle: Bundle, keys: StoreKeys): StoredBundle {
  return {
    agentcVersion: bundle.agentcVersion,
    agents: {},
    blocks: keys.blocks,
    dispatchDefaults: bundle.dispatchDefaults,
    dynamicContext: bundle.dynamicContext,
    dynamicContextAst: bundle.dynamicContextAst,
    flags: bundle.flags,
    formatVersion: bundle.formatVersion,
    hash: bundle.hash,
    models: bundle.models,
    texts: keys.texts,
    toolShapes: keys.toolShapes,
    tools: bundle.tools,
  };
}

/** `record[key] = value` as an own data property, also for the key "__proto__" (plain assignment is much faster for every other key). */
function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/** The text key of a block's rendering first used by `agent` under cohort `cohortKey` (blockTexts: `<block>@<agent>[@<cohort>]`). */
export function variantKey(blockId: string, agent: string, cohortKey: string): string {
  return `${blockId}@${agent}${cohortKey === '' ? '' : `@${cohortKey}`}`;
}

/**
 * One block's stored texts: its only rendering under the block id, or each distinct
 * rendering under `<block>@<agent>[@<cohort>]` (the first agent that has it), `#n`
 * added to a key already `used`; the first is stored whole, the others as runs
 * against it (variantOf). `byText`: rendered text -> variant key, in first-use order.
 */
export function blockTexts(
  blockId: string,
  byText: ReadonlyMap<string, string>,
  used: Set<string>,
  linesOf: StoreKeysMemo['linesOf'],
  variantOf: StoreKeysMemo['variantOf'],
): { keys: Map<string, string>; texts: [string, StoredText][]; lines: Map<string, string[]> } {
  const keys = new Map<string, string>();
  const texts: [string, StoredText][] = [];
  const lines = new Map<string, string[]>();
  let base: { key: string; lines: string[] } | undefined;
  for (const [text, variantKey] of byText) {
    const first = byText.size === 1 ? blockId : variantKey;
    let key = first;
    for (let n = 2; used.has(key); n++) key = `${first}#${n}`;
    used.add(key);
    keys.set(text, key);
    const l = linesOf(text);
    lines.set(text, l);
    if (base === undefined) {
      base = { key, lines: l };
      texts.push([key, l]);
    } else texts.push([key, variantOf(base, l)]);
  }
  return { keys, texts, lines };
}
