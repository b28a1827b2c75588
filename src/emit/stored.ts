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
 * - Copies are left out where the loader restores them: an Anthropic tool whose
 *   name, description and input_schema equal the neutral tool's, an agent's
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
  StoredBlockInfo,
  StoredBundle,
  StoredPrefixBlock,
  StoredToolShape,
} from '../bundle/types.js';
import { canonicalJson, compareCodeUnits, sha256Hex, sortKeysDeep } from '../bundle/canonical-json.js';

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
    return `[\n${value.map((v) => pad + storedValue(v, depth + 1, table)).join(',\n')}\n${close}]`;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return '{}';
  const record = value as Record<string, unknown>;
  return `{\n${keys.map((k) => `${pad}${JSON.stringify(k)}: ${storedValue(record[k], depth + 1, depth === 0 ? k : table)}`).join(',\n')}\n${close}}`;
}

/** The keys each agent's stored entry refers to, and the tables they refer into. */
export interface StoreKeys {
  /** By agent id: per prefix, per block, the key of its text. */
  blockKeys: Map<string, string[][]>;
  /** By agent id: per tool, the key of its shape. */
  toolKeys: Map<string, string[]>;
  texts: Record<string, string[]>;
  toolShapes: Record<string, StoredToolShape>;
  blocks: Record<string, StoredBlockInfo>;
}

export function blockSlice(prefix: BundlePrefix, block: BundlePrefixBlock): string {
  return prefix.text.slice(block.start, block.start + block.length);
}

/** Tool-shape keys of one agent and its shapes (keys sorted): a pure function of its entry (see `toolShapeKey`). */
export function agentToolKeys(entry: BundleAgent): { keys: string[]; shapes: StoredToolShape[] } {
  const shapes = entry.tools.neutral.map((neutral, i): StoredToolShape => {
    const anthropic = entry.tools.anthropic[i]!;
    const same =
      anthropic.name === neutral.name &&
      anthropic.description === neutral.description &&
      canonicalJson(anthropic.input_schema) === canonicalJson(neutral.parameters);
    return same ? { neutral, openai: entry.tools.openai[i]! } : { neutral, openai: entry.tools.openai[i]!, anthropic };
  });
  return { keys: shapes.map(toolShapeKey), shapes: shapes.map((shape) => sortKeysDeep(shape)) };
}

export function toolShapeKey(shape: StoredToolShape): string {
  return `${shape.neutral.name}~${sha256Hex(canonicalJson(shape)).slice(0, 12)}`;
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

/** What storeKeys may take memoized (each a pure function of one agent's entry, or of a text). */
export interface StoreKeysMemo {
  toolKeysOf(id: string, entry: BundleAgent): { keys: string[]; shapes: StoredToolShape[] };
  usesOf(id: string, entry: BundleAgent): BlockUse[][];
  linesOf(text: string): string[];
}

const FRESH: StoreKeysMemo = { toolKeysOf: (_, e) => agentToolKeys(e), usesOf: (_, e) => agentBlockUses(e), linesOf: (t) => t.split('\n') };

/**
 * Assigns every key. `memo` may return memoized values (see StoreKeysMemo).
 * Throws only on an agentc bug (a block whose shared facts differ between prefixes).
 */
export function storeKeys(bundle: Bundle, memo: Partial<StoreKeysMemo> = {}): StoreKeys {
  const { toolKeysOf, usesOf, linesOf } = { ...FRESH, ...memo };
  const ids = Object.keys(bundle.agents).sort(compareCodeUnits);
  const uses = new Map<string, BlockUse[][]>();
  // Per block id: each distinct text → the key of its first use.
  const variants = new Map<string, Map<string, string>>();
  const infos = new Map<string, StoredBlockInfo>();
  for (const id of ids) {
    const entry = bundle.agents[id]!;
    const perPrefix = usesOf(id, entry);
    uses.set(id, perPrefix);
    perPrefix.forEach((prefixUses, i) => {
      const cohortKey = entry.prefixes[i]!.key;
      for (const u of prefixUses) {
        let byText = variants.get(u.id);
        if (byText === undefined) variants.set(u.id, (byText = new Map<string, string>()));
        if (!byText.has(u.text)) byText.set(u.text, `${u.id}@${id}${cohortKey === '' ? '' : `@${cohortKey}`}`);
        const known = infos.get(u.id);
        if (known === undefined) infos.set(u.id, u.info);
        else if (known !== u.info && !sameBlockInfo(known, u.info))
          throw new Error(`agentc bug: block "${u.id}" has different owner, category, file or required flag in two prefixes`);
      }
    });
  }
  const blocks: Record<string, StoredBlockInfo> = {};
  for (const [blockId, info] of infos) setOwn(blocks, blockId, info);
  const keyOf = new Map<string, Map<string, string>>();
  const texts: Record<string, string[]> = {};
  const used = new Set<string>();
  for (const blockId of [...variants.keys()].sort(compareCodeUnits)) {
    const byText = variants.get(blockId)!;
    const keys = new Map<string, string>();
    for (const [text, variantKey] of byText) {
      let key = byText.size === 1 ? blockId : variantKey;
      for (let n = 2; used.has(key); n++) key = `${byText.size === 1 ? blockId : variantKey}#${n}`;
      used.add(key);
      keys.set(text, key);
      setOwn(texts, key, linesOf(text));
    }
    keyOf.set(blockId, keys);
  }
  const blockKeys = new Map<string, string[][]>();
  const toolKeys = new Map<string, string[]>();
  const toolShapes: Record<string, StoredToolShape> = {};
  for (const id of ids) {
    const entry = bundle.agents[id]!;
    blockKeys.set(
      id,
      uses.get(id)!.map((prefixUses) => prefixUses.map((u) => keyOf.get(u.id)!.get(u.text)!)),
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

function sameBlockInfo(a: StoredBlockInfo, b: StoredBlockInfo): boolean {
  return a.category === b.category && a.file === b.file && a.owner === b.owner && a.required === b.required;
}

/** The config's suffix as an agent's entry is compared with: its template, and its AST's canonical JSON. */
export interface ConfigSuffix {
  template: string;
  astJson: string;
}

export function configSuffix(bundle: Bundle): ConfigSuffix {
  return { template: bundle.dynamicContext.template, astJson: canonicalJson(bundle.dynamicContextAst) };
}

/** An agent's stored entry: its suffix template and AST only where they differ from the config's. */
export function storeAgent(entry: BundleAgent, blockKeys: readonly (readonly string[])[], toolKeys: readonly string[], suffix: ConfigSuffix): StoredAgent {
  const { prefixes, tools: _tools, suffix_template, suffix_ast, ...rest } = entry;
  return {
    ...rest,
    ...(suffix_template === suffix.template ? {} : { suffix_template }),
    ...(canonicalJson(suffix_ast) === suffix.astJson ? {} : { suffix_ast }),
    tools: [...toolKeys],
    prefixes: prefixes.map((p, i) => ({
      cohort: p.cohort,
      key: p.key,
      tokens: p.tokens,
      sha256: p.sha256,
      blocks: p.blocks.map((b, j): StoredPrefixBlock => {
        const text = blockKeys[i]![j]!;
        return text === b.id ? { id: b.id, tokens: b.tokens } : { id: b.id, tokens: b.tokens, text };
      }),
    })),
  };
}

/** The whole stored bundle (tests, `bundleHash`); emission streams the same bytes from pieces. */
export function storeBundle(bundle: Bundle): StoredBundle {
  const keys = storeKeys(bundle);
  const suffix = configSuffix(bundle);
  const agents: Record<string, StoredAgent> = {};
  for (const id of Object.keys(bundle.agents).sort(compareCodeUnits)) {
    setOwn(agents, id, storeAgent(bundle.agents[id]!, keys.blockKeys.get(id)!, keys.toolKeys.get(id)!, suffix));
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
