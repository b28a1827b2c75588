/**
 * bundle.json as pieces: a frame (the stored bundle without its agents' entries)
 * and one piece per agent, each made once per bundle entry and set of keys
 * (see stored.ts) and kept in the EmitCache by the entry's identity.
 *
 * Invariant: storedJson(storeBundle(bundle)) === frame.head + pieces.join(',\n') + frame.tail.
 * It holds because storedJson writes the `agents` table one member per line at
 * a fixed indent, and an agent's member is `    "<id>": ` followed by
 * storedValue(entry, 2), exactly as it stands in the whole.
 */
import type { Bundle, BundleAgent, StoredBlockInfo, StoredBundle } from '../bundle/types.js';
import { keptChunk, keptChunkOf, type AgentFragments, type BundleFrame, type EmitCache, type StoredLayout, type TailMemo } from './cache.js';
import { compareCodeUnits, sortKeysDeep } from '../bundle/canonical-json.js';
import { internedText, storeKeysIncremental } from './store-keys-memo.js';
import {
  agentBlockUses,
  agentToolKeys,
  configSuffix,
  dispatchFacts,
  sameBlockInfo,
  storeAgent,
  storedJson,
  storedTool,
  storedTop,
  storedValue,
  storeKeys,
  variantText,
  type ConfigSuffix,
  type DispatchFacts,
  type StoreKeys,
  type RowTable,
  type StoreKeysMemo,
  type TableRows,
} from './stored.js';

/** Keys JavaScript orders first (array indices: canonical integers below 2^32 - 1); the full check is in jsonKeyOrder's slow path. */
const INTEGER_LIKE = /^(?:0|[1-9][0-9]*)$/;
export const PIECE_SEPARATOR = Buffer.from(',\n', 'utf8');
const AGENTS_MEMBER = '\n  "agents": {}';
const EMPTY_HASH_MEMBER = '\n  "hash": "",\n';

export function fragmentsOf(cache: EmitCache, id: string, entry: BundleAgent): AgentFragments {
  let f = cache.fragments.get(entry);
  if (f === undefined || f.id !== id) {
    f = { id, entry };
    cache.fragments.set(entry, f);
  }
  return f;
}

/**
 * The order JSON.stringify writes an object's keys in once they were inserted
 * sorted: integer-like keys first (ascending), then the others in code-unit
 * order. Pieces go in this order (card ids never look like integers, bundles made
 * by hand may).
 */
export function jsonKeyOrder(sortedKeys: readonly string[]): string[] {
  if (!sortedKeys.some((k) => INTEGER_LIKE.test(k))) return [...sortedKeys];
  const o: Record<string, true> = {};
  for (const k of sortedKeys) Object.defineProperty(o, k, { value: true, enumerable: true, writable: true, configurable: true });
  return Object.keys(o);
}

/** `    "<id>": {…}`, the agent's member of the top-level `agents` object, for the given keys. */
export function jsonPiece(
  f: AgentFragments,
  blockKeys: readonly (readonly string[])[],
  toolKeys: readonly string[],
  suffix: ConfigSuffix,
  facts: DispatchFacts,
  once = false,
): Buffer {
  // A one-off cache makes each piece once: nothing to compare it with later, so no keys are kept.
  if (once && f.json === undefined) return (f.json = pieceBytes(f, storeAgent(f.entry, blockKeys, toolKeys, suffix, facts)));
  const made = f.jsonKeys;
  // The same keys and facts objects as last time (a watch rebuild hands an unchanged agent the very same ones).
  if (f.json !== undefined && made?.inputs !== undefined && made.template === suffix.template && made.astJson === suffix.astJson) {
    const i = made.inputs;
    if (i.blockKeys === blockKeys && i.toolKeys === toolKeys && i.facts === facts) return f.json;
  }
  // Compared item by item first (a watch rebuild hands most agents the same strings and objects); else as JSON.
  const sameSuffix = made !== undefined && made.template === suffix.template && made.astJson === suffix.astJson;
  if (f.json !== undefined && sameSuffix && made.inputs !== undefined && sameKeys(made.inputs, blockKeys, toolKeys, facts)) return f.json;
  const keys = JSON.stringify([blockKeys, toolKeys, facts]);
  if (f.json === undefined || !sameSuffix || made.keys !== keys) {
    f.json = pieceBytes(f, storeAgent(f.entry, blockKeys, toolKeys, suffix, facts));
  }
  f.jsonKeys = { keys, template: suffix.template, astJson: suffix.astJson, inputs: { blockKeys, toolKeys, facts } };
  return f.json;
}

/** The piece's UTF-8 bytes; storeAgent keeps a canonical entry canonical (stored.ts), so only another one is sorted here. */
function pieceBytes(f: AgentFragments, stored: object): Buffer {
  return Buffer.from(`    ${JSON.stringify(f.id)}: ${storedValue(f.canonical ? stored : sortKeysDeep(stored), 2, 'agents')}`, 'utf8');
}

/**
 * The entry's dispatch facts: the ones its piece was last made with while each still holds (the
 * same entry, so the same dispatch table; each sub-agent's policy and each tool's envelope the
 * same value), else made afresh — so an unchanged agent's piece is found by identity.
 */
function factsOf(f: AgentFragments, bundle: Bundle): DispatchFacts {
  const last = f.jsonKeys?.inputs?.facts;
  if (last === undefined) return dispatchFacts(f.entry, bundle);
  for (const e of Object.values(f.entry.dispatch.table)) {
    if (e.kind === 'sub_agent') {
      const policy = Object.hasOwn(bundle.agents, e.agent) ? bundle.agents[e.agent]!.policy : undefined;
      if (!Object.hasOwn(last.policies, e.agent) || last.policies[e.agent] !== policy) return dispatchFacts(f.entry, bundle);
    } else {
      const envelope = Object.hasOwn(bundle.tools, e.tool) ? bundle.tools[e.tool]!.envelope : undefined;
      if (!Object.hasOwn(last.envelopes, e.tool) || last.envelopes[e.tool] !== envelope) return dispatchFacts(f.entry, bundle);
    }
  }
  return last;
}

/** Whether two lists hold the same items (===) in the same places: how emit's memos compare their keys. */
export function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether the keys and facts a piece was made with are these, item by item (===); false says "compare as JSON". */
function sameKeys(
  made: { blockKeys: readonly (readonly string[])[]; toolKeys: readonly string[]; facts: DispatchFacts },
  blockKeys: readonly (readonly string[])[],
  toolKeys: readonly string[],
  facts: DispatchFacts,
): boolean {
  const sameRecord = (a: Record<string, unknown>, b: Record<string, unknown>): boolean => {
    const keys = Object.keys(a);
    return sameList(keys, Object.keys(b)) && keys.every((k) => a[k] === b[k]);
  };
  return (
    made.blockKeys.length === blockKeys.length &&
    made.blockKeys.every((prefix, i) => sameList(prefix, blockKeys[i]!)) &&
    sameList(made.toolKeys, toolKeys) &&
    sameRecord(made.facts.policies, facts.policies) &&
    sameRecord(made.facts.envelopes, facts.envelopes)
  );
}

/** The tool-shape keys of an agent's entry, memoized with its fragments. */
export function toolKeysOf(f: AgentFragments, cache: EmitCache): ReturnType<typeof agentToolKeys> {
  return (f.toolKeys ??= agentToolKeys(f.entry, (neutral, openai, anthropic) => {
    // Agents that have a tool share its shape objects (bundle.ts toolShapes): stored once per such triple.
    const hit = cache.storedTools.get(neutral);
    if (hit !== undefined && hit.openai === openai && hit.anthropic === anthropic) return hit.stored;
    const stored = storedTool(neutral, openai, anthropic, f.canonical === true);
    cache.storedTools.set(neutral, { openai, anthropic, stored });
    return stored;
  }));
}

/**
 * bundle.json's frame and pieces for `bundle` (its `hash` as it is), made once
 * per bundle object. createBundle makes them for the unhashed bundle and
 * registers the hashed one (see `withHash`). The frame's tail is chunks: the big
 * tables (`texts`, `toolShapes`, `blocks`) one chunk per entry, kept between
 * builds while the entry's source is the same (see `tailOf`).
 */
export function layoutOf(bundle: Bundle, cache: EmitCache): StoredLayout {
  const made = cache.frames.get(bundle);
  if (made !== undefined) return made;
  // Watch: createBundle's delta for this bundle, used while this cache's pieces and keys are the ones made for the bundle before.
  const delta = !cache.once && cache.last?.unhashed === bundle ? cache.last.delta : undefined;
  const prev = delta !== undefined && cache.storeKeys !== undefined && cache.laidOut?.bundle === delta.previous.unhashed ? cache.laidOut : undefined;
  const quick = prev !== undefined ? delta : undefined;
  const ids = quick?.order ?? jsonKeyOrder(Object.keys(bundle.agents).sort(compareCodeUnits));
  const lines = new Map<string, string[]>();
  // New uses' texts, one string per distinct text (a block shared by many agents is then compared by identity, not by content).
  const interned = new Map<string, string>();
  const intern = (blockId: string, text: string): string => {
    let kept = interned.get(text);
    if (kept === undefined) interned.set(text, (kept = internedText(cache.storeKeys, blockId, text)));
    return kept;
  };
  const memo: StoreKeysMemo = {
    toolKeysOf: (id, entry) => toolKeysOf(fragmentsOf(cache, id, entry), cache),
    usesOf: (id, entry) => {
      const f = fragmentsOf(cache, id, entry);
      // createBundle's entries have theirs already (programBlockUses); interned only for a next build's comparisons.
      f.uses ??= agentBlockUses(entry).map((prefix) => (cache.once ? prefix : prefix.map((u) => ({ ...u, text: intern(u.id, u.text) }))));
      return f.uses;
    },
    linesOf: (text) => {
      if (cache.once) return text.split('\n'); // kept only for a next build's lookup by text
      let l = lines.get(text) ?? cache.tail.lines.get(text);
      if (l === undefined) l = text.split('\n');
      lines.set(text, l);
      return l;
    },
    // Lines are memoized per text, so a variant whose text and base are unchanged is looked up by identity.
    variantOf: (base, variant) => {
      const hit = cache.tail.variants.get(variant);
      if (hit !== undefined && hit.base === base.lines && hit.key === base.key) return hit.stored;
      const stored = variantText(base, variant);
      cache.tail.variants.set(variant, { base: base.lines, key: base.key, stored });
      return stored;
    },
  };
  // A one-off cache keeps no state for a next build: plain storeKeys, without the incremental bookkeeping.
  let keys: StoreKeys;
  let touched: ReadonlySet<string> | undefined;
  if (cache.once) keys = storeKeys(bundle, memo);
  else {
    const stored = storeKeysIncremental(
      bundle,
      memo,
      cache.storeKeys,
      quick && { ids: quick.ids, changed: quick.changed.keys(), removed: quick.removed.keys() },
    );
    keys = stored.keys;
    touched = stored.touched;
    cache.storeKeys = stored.state;
  }
  cache.tail.lines = lines;
  const top = storedTop(bundle, keys);
  // Without agents the tables are empty (rows too: nothing uses a block or a tool).
  const frame = ids.length === 0 ? makeFrame(storedJson(top), 0) : { head: headOf(top), ...tailOf(top, cache.tail, keys.rows) };
  const suffix = configSuffix(bundle);
  const pieceOf = (id: string): Buffer => {
    const entry = bundle.agents[id]!;
    const f = fragmentsOf(cache, id, entry);
    const facts = cache.once ? dispatchFacts(entry, bundle) : factsOf(f, bundle);
    return jsonPiece(f, keys.blockKeys.get(id)!, keys.toolKeys.get(id)!, suffix, facts, cache.once);
  };
  let pieces: Buffer[];
  let joined: Buffer[] | undefined;
  if (quick !== undefined && touched !== undefined && quick.sameIds && !quick.factsMoved) {
    // The same agents, and no dispatch fact moved: the last pieces, with those of the agents whose entry or keys changed made again.
    pieces = prev!.pieces.slice();
    joined = prev!.joined.slice();
    const remake = (id: string): void => {
      const at = prev!.at.get(id)!;
      joined![2 * at] = pieces[at] = pieceOf(id);
    };
    for (const id of quick.changed.keys()) remake(id);
    for (const id of touched) if (!quick.changed.has(id)) remake(id);
  } else pieces = ids.map(pieceOf);
  const layout: StoredLayout = { frame, pieces };
  cache.frames.set(bundle, layout);
  if (!cache.once) {
    const at = quick?.sameIds ? prev!.at : new Map(ids.map((id, i) => [id, i]));
    cache.laidOut = { bundle, order: ids, pieces, at, joined: joined ?? joinPieces(pieces) };
  }
  return layout;
}

/** Tables of the stored bundle written one chunk per entry (each entry's text kept while its source is the same). */
const CHUNKED_TABLES: ReadonlySet<string> = new Set(['blocks', 'models', 'texts', 'toolShapes', 'tools']);
const HASH_KEY = 'hash';
/**
 * Tables whose entries storeKeys makes canonical (keys in order at every depth), so they are
 * written without another sorted copy: texts (lines, or runs of numbers, lines and one
 * `{ base }`), blocks' shared facts (made in key order, agentBlockUses), tool shapes (sorted by storedTool).
 */
const MADE_SORTED: ReadonlySet<string> = new Set(['blocks', 'texts', 'toolShapes']);

/** Everything before the agents' entries: the members that sort before `agents`, then its opening. */
function headOf(top: StoredBundle): string {
  let head = '{\n';
  for (const key of topKeys(top)) {
    if (key === 'agents') return `${head}  "agents": {\n`;
    head += `  ${JSON.stringify(key)}: ${storedValue(sortKeysDeep(top[key]), 1, key)},\n`;
  }
  throw new Error('agentc bug: no agents member in the stored bundle');
}

/**
 * Everything after the agents' entries, as chunks: the same bytes as the text
 * storedJson(top) has after its (empty) `agents` member, with the agents' closing
 * brace first. `hashAt` is the index of the chunk `,\n  "hash": …`.
 */
function tailOf(top: StoredBundle, memo: TailMemo, rows?: StoreKeys['rows']): { tail: Buffer[]; hashAt: number } {
  // Chunks, and whole runs of them (a table's rows), flattened at the end.
  const parts: (Buffer | readonly Buffer[])[] = [keptChunk(memo.small, '\u0000close', '\n  }')];
  let length = 1;
  const push = (chunk: Buffer): void => {
    parts.push(chunk);
    length++;
  };
  let hashAt = -1;
  const keys = topKeys(top);
  const entries = new Map<string, Map<string, { source: unknown; chunk: Buffer }>>();
  const rowChunks: TailMemo['rowChunks'] = new Map();
  for (const key of keys.slice(keys.indexOf('agents') + 1)) {
    const value = top[key];
    const given = rows !== undefined && (key === 'texts' || key === 'toolShapes' || key === 'blocks') ? (rows[key] as TableRows<unknown>) : undefined;
    const empty = given !== undefined ? given.keys.length === 0 : value === null || typeof value !== 'object' || Object.keys(value).length === 0;
    if (!CHUNKED_TABLES.has(key) || empty) {
      if (key === HASH_KEY) hashAt = length;
      // Made from the value alone (an empty table when given as rows): kept while it is the same object.
      const source = given ?? value;
      push(keptChunkOf(memo.small, key, source, () => `,\n  ${JSON.stringify(key)}: ${storedValue(given !== undefined ? {} : sortKeysDeep(value), 1, key)}`));
      continue;
    }
    push(keptChunk(memo.small, `${key}\u0000open`, `,\n  ${JSON.stringify(key)}: {\n`));
    // The entry's chunk: the last one for this key when made from the same source, else a new one.
    const entryOf = (k: string, v: unknown, last: { source: unknown; chunk: Buffer } | undefined): { source: unknown; chunk: Buffer } => {
      // What the entry's text is made from, compared by identity first: a shape by its key (which names its content);
      // texts (lines memoized per text), models, contracts (EmitCache keeps them) and block facts (memoized per use) by value.
      const source = key === 'toolShapes' ? k : v;
      if (last !== undefined && (last.source === source || sameSource(key, last.source, v))) return last;
      return { source, chunk: Buffer.from(`    ${JSON.stringify(k)}: ${storedValue(MADE_SORTED.has(key) ? v : sortKeysDeep(v), 2, key)}`, 'utf8') };
    };
    if (given !== undefined) {
      const prev = memo.rowChunks.get(key);
      const same = rows?.same?.[key as RowTable];
      if (same !== undefined && prev !== undefined && prev.keys === same.was && prev.keys.length === given.keys.length) {
        // The last build's rows, keys and order (watch): its run of chunks, with the changed rows' entries looked at again.
        const made = prev.entries.slice();
        const run = prev.run.slice();
        for (const at of same.changed) {
          made[at] = entryOf(given.keys[at]!, given.values[at], prev.entries[at]);
          run[prev.runAt[at]!] = made[at].chunk;
        }
        rowChunks.set(key, { keys: given.keys, entries: made, run, runAt: prev.runAt });
        parts.push(run);
        length += run.length;
      } else {
        // Rows (watch): the last build's entry at the same row when its key is there, else looked up by key.
        let byKey: Map<string, { source: unknown; chunk: Buffer }> | undefined;
        const lastOf = (k: string, at: number): { source: unknown; chunk: Buffer } | undefined => {
          if (prev === undefined) return undefined;
          if (prev.keys[at] === k) return prev.entries[at];
          byKey ??= new Map(prev.keys.map((pk, i) => [pk, prev.entries[i]!]));
          return byKey.get(k);
        };
        const made: { source: unknown; chunk: Buffer }[] = new Array<{ source: unknown; chunk: Buffer }>(given.keys.length);
        const run: Buffer[] = [];
        const runAt: number[] = new Array<number>(given.keys.length);
        rowOrder(memo, key, given.keys).forEach((at, i) => {
          if (i > 0) run.push(PIECE_SEPARATOR);
          const k = given.keys[at]!;
          made[at] = entryOf(k, given.values[at], lastOf(k, at));
          runAt[at] = run.length;
          run.push(made[at].chunk);
        });
        rowChunks.set(key, { keys: given.keys, entries: made, run, runAt });
        parts.push(run);
        length += run.length;
      }
    } else {
      const lastEntries = memo.entries.get(key);
      const made = new Map<string, { source: unknown; chunk: Buffer }>();
      entries.set(key, made);
      const table = value as Record<string, unknown>;
      jsonOrder(memo, key, Object.keys(table)).forEach((k, i) => {
        if (i > 0) push(PIECE_SEPARATOR);
        const entry = entryOf(k, table[k], lastEntries?.get(k));
        made.set(k, entry);
        push(entry.chunk);
      });
    }
    push(keptChunk(memo.small, `${key}\u0000close`, '\n  }'));
  }
  push(keptChunk(memo.small, '\u0000end', '\n}\n'));
  memo.entries = entries;
  memo.rowChunks = rowChunks;
  if (hashAt === -1) throw new Error('agentc bug: no hash member in the stored bundle');
  return { tail: ([] as Buffer[]).concat(...parts), hashAt };
}

/**
 * A table's keys in the order JSON.stringify writes them once sorted (jsonKeyOrder), kept per
 * table: the same list of keys (item by item, in the table's insertion order) has the same
 * order, so a watch rebuild whose tables kept their keys sorts none of them.
 */
function jsonOrder(memo: TailMemo, table: string, keys: string[]): readonly string[] {
  const last = memo.orders.get(table);
  if (last !== undefined && last.keys.length === keys.length && last.keys.every((k, i) => k === keys[i])) return last.order;
  const order = jsonKeyOrder([...keys].sort(compareCodeUnits));
  memo.orders.set(table, { keys, order });
  return order;
}

/** The indices of `keys` (each key once) in the order jsonOrder gives them, kept likewise. */
function rowOrder(memo: TailMemo, table: string, keys: readonly string[]): readonly number[] {
  const last = memo.rowOrders.get(table);
  if (last !== undefined && (last.keys === keys || (last.keys.length === keys.length && last.keys.every((k, i) => k === keys[i])))) return last.order;
  const at = new Map(keys.map((k, i) => [k, i]));
  const order = jsonKeyOrder([...keys].sort(compareCodeUnits)).map((k) => at.get(k)!);
  memo.rowOrders.set(table, { keys, order });
  return order;
}

function topKeys(top: StoredBundle): (keyof StoredBundle)[] {
  return (Object.keys(top) as (keyof StoredBundle)[]).sort(compareCodeUnits);
}

/** Sources that are not the same object but make the same text: equal lines of a text, equal facts of a block. */
function sameSource(table: string, a: unknown, b: unknown): boolean {
  if (table === 'texts') return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((line, i) => line === b[i]);
  return table === 'blocks' && sameBlockInfo(a as StoredBlockInfo, b as StoredBlockInfo);
}

/** The frame of a stored bundle's text whose `agents` table is empty; `agentCount` 0 gives the whole text as head. */
export function makeFrame(text: string, agentCount: number): BundleFrame {
  if (agentCount === 0) return { head: text, tail: '' };
  const at = text.indexOf(AGENTS_MEMBER);
  if (at === -1) throw new Error('agentc bug: no agents member in the stored bundle');
  return { head: `${text.slice(0, at)}\n  "agents": {\n`, tail: `\n  }${text.slice(at + AGENTS_MEMBER.length)}` };
}

/** The frame with the (empty) hash member set to `hash`. */
export function withHash(frame: BundleFrame, hash: string): BundleFrame {
  const set = (s: string): string => s.replace(EMPTY_HASH_MEMBER, `\n  "hash": ${JSON.stringify(hash)},\n`);
  if (typeof frame.tail === 'string') return frame.tail === '' ? { head: set(frame.head), tail: '' } : { head: frame.head, tail: set(frame.tail) };
  const at = frame.hashAt ?? -1;
  const tail = frame.tail.slice();
  tail[at] = Buffer.from(`,\n  "hash": ${JSON.stringify(hash)}`, 'utf8');
  return { head: frame.head, tail, hashAt: at };
}

/** The pieces with PIECE_SEPARATOR between them (piece i at 2i). */
function joinPieces(pieces: readonly Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  pieces.forEach((p, i) => {
    if (i > 0) out.push(PIECE_SEPARATOR);
    out.push(p);
  });
  return out;
}

/** bundle.json's bytes: head, pieces, tail. `joined`: the pieces joined already (joinPieces). */
export function jsonChunks(frame: BundleFrame, pieces: readonly Buffer[], joined: readonly Buffer[] = joinPieces(pieces)): Buffer[] {
  const tail = typeof frame.tail === 'string' ? [Buffer.from(frame.tail, 'utf8')] : frame.tail;
  return ([Buffer.from(frame.head, 'utf8')] as Buffer[]).concat(joined, tail);
}

/** bundle.json's bytes for a bundle made with this EmitCache (its layout is made once and kept there). */
export function bundleJsonChunks(bundle: Bundle, cache: EmitCache): Buffer[] {
  const layout = layoutOf(bundle, cache);
  const laidOut = cache.laidOut;
  return jsonChunks(layout.frame, layout.pieces, laidOut?.pieces === layout.pieces ? laidOut.joined : undefined);
}
