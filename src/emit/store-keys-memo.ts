/**
 * storeKeys (stored.ts) for a bundle made through an EmitCache: the same keys,
 * texts, block facts and tool shapes, with the per-block work redone only for
 * the blocks whose uses changed since the last bundle.
 *
 * Why it is the same: in storeKeys a block's text keys and stored texts depend
 * only on that block's uses in order — agents in id order, their prefixes in
 * order, the uses in each — (agent id, cohort key, text, facts). Keys of two
 * blocks never collide while no block id holds '@' or '#' (every key starts
 * with its block's id up to the first of those), so each block can be keyed on
 * its own; when one does, everything is made by storeKeys itself. An agent's
 * uses are memoized per entry object (fragments.ts), so an agent whose uses
 * object is the one of the last bundle used its blocks the same way.
 * test/cache/cached-equals-fresh.property.test.ts compares the result with storeKeys'.
 */
import type { BundleAgent, StoredBlockInfo, StoredText, StoredToolShape } from '../bundle/types.js';
import type { Bundle } from '../bundle/types.js';
import { compareCodeUnits } from '../bundle/canonical-json.js';
import { blockTexts, sameBlockInfo, storeKeys, variantKey, type BlockUse, type StoreKeys, type StoreKeysMemo, type TableRows } from './stored.js';

/** What the last bundle's keys were made from, per agent and per block. */
export interface StoreKeysState {
  /** By agent id: its uses (the memoized object), its prefixes' cohort keys and its block keys. */
  agents: Map<string, AgentKeys>;
  /** By block id: the agents that use it, and what was made from their uses. */
  blocks: Map<string, BlockKeys>;
  /** The block ids, sorted. */
  order: string[];
  /** The texts and blocks tables as rows (in `order`), with each block's place in them. */
  rows: BlockRows;
  /** The toolShapes table as rows (each key first met in id order, then tool order). */
  toolRows: TableRows<StoredToolShape>;
  /** The StoreKeys maps handed out last (every agent's keys); a call with a delta updates them in place. */
  blockKeys: Map<string, string[][]>;
  toolKeys: Map<string, string[]>;
}

/** The agents a bundle's entries changed for since the one the last state was made for (EmitDelta's, for these keys). */
export interface StoreKeysDelta {
  /** Every agent id of the bundle, sorted. */
  ids: readonly string[];
  /** Ids whose entry is a new object (new ids included). */
  changed: Iterable<string>;
  /** Ids of the last bundle that are gone. */
  removed: Iterable<string>;
}

interface BlockRows {
  texts: TableRows<StoredText>;
  infos: StoredBlockInfo[];
  /** By block id: its index in `order` (and `infos`), and its first text's index and text count in `texts`. */
  at: Map<string, { block: number; text: number; count: number }>;
}

interface AgentKeys {
  uses: BlockUse[][];
  cohorts: string[];
  blockKeys: string[][];
  /** Its tool-shape keys and shapes (the memoized object). */
  tools: { keys: string[]; shapes: StoredToolShape[] };
}

interface BlockKeys {
  users: Set<string>;
  info: StoredBlockInfo;
  /** Text → key. */
  keys: Map<string, string>;
  /** Key → stored text, in storeKeys' order. */
  texts: [string, StoredText][];
  /** Text → its lines (the first text's are the base the others are stored against). */
  lines: Map<string, string[]>;
}

/** Past this many distinct texts of a block, a new use's text is not looked for among them (internedText). */
const INTERN_SCANNED = 8;

/**
 * The string a block's text was kept as last time (new uses of an equal text take it, and are then compared by
 * identity), else `text`; a block with many renderings (one per agent) is not searched.
 */
export function internedText(state: StoreKeysState | undefined, blockId: string, text: string): string {
  const lines = state?.blocks.get(blockId)?.lines;
  if (lines === undefined || lines.size > INTERN_SCANNED) return text;
  for (const kept of lines.keys()) if (kept === text) return kept;
  return text;
}

/**
 * Same as storeKeys(bundle, memo); `state` holds what the next call reuses (undefined: start afresh).
 * With a `delta` from the bundle `last` was made for, only its agents (and the users of blocks keyed
 * anew) are looked at, and `touched` lists the agents whose keys may differ; the others' keys are the last ones.
 */
export function storeKeysIncremental(
  bundle: Bundle,
  memo: StoreKeysMemo,
  last: StoreKeysState | undefined,
  delta?: StoreKeysDelta,
): { keys: StoreKeys; state: StoreKeysState | undefined; touched?: ReadonlySet<string> } {
  const quick = delta !== undefined && last !== undefined;
  const ids = quick ? delta.ids : Object.keys(bundle.agents).sort(compareCodeUnits);
  const uses = new Map<string, BlockUse[][]>();
  for (const id of quick ? delta.changed : ids) uses.set(id, memo.usesOf(id, bundle.agents[id]!));
  // An agent not listed above has the uses of the last bundle (quick: its entry is the same object).
  const usesOf = (id: string): BlockUse[][] => uses.get(id) ?? last!.agents.get(id)!.uses;
  const present = (id: string): boolean => Object.hasOwn(bundle.agents, id);

  // Updated in place: the last state is this cache's alone, and replaced by the one returned.
  const blocks = last?.blocks ?? new Map<string, BlockKeys>();
  // Blocks to key again: those an agent now uses differently (other texts, prefixes or facts), starts or stops using.
  const affected = new Set<string>();
  const changed = new Set<string>();
  for (const [id, now] of uses) {
    const before = last?.agents.get(id);
    if (before !== undefined && before.uses === now) continue;
    changed.add(id);
    const was = before ? useLists(before.uses, before.cohorts) : new Map<string, unknown[]>();
    for (const [b, list] of useLists(now, cohortKeys(bundle.agents[id]!))) {
      // Checked for every block when it is first used (the last state exists only if all passed).
      if (b.includes('@') || b.includes('#')) return { keys: storeKeys(bundle, memo), state: undefined };
      if (!sameItems(was.get(b), list)) affected.add(b);
      was.delete(b);
    }
    for (const b of was.keys()) affected.add(b);
  }
  const gone = quick ? [...delta.removed] : [...(last?.agents.keys() ?? [])].filter((id) => !present(id));
  for (const id of gone) {
    const before = last?.agents.get(id);
    if (before === undefined) continue;
    changed.add(id);
    for (const b of useLists(before.uses, before.cohorts).keys()) affected.add(b);
  }
  // Who uses each affected block now (agents whose uses are unchanged still use it).
  const users = new Map<string, Set<string>>();
  for (const b of affected) users.set(b, new Set([...(blocks.get(b)?.users ?? [])].filter((id) => present(id) && !changed.has(id))));
  for (const id of changed) {
    const perPrefix = uses.get(id);
    if (perPrefix === undefined) continue;
    for (const prefix of perPrefix) for (const u of prefix) users.get(u.id)?.add(id);
  }
  const rekeyed = new Set<string>();
  let order = last?.order;
  for (const b of affected) {
    const before = blocks.get(b);
    const made = keyBlock(b, [...users.get(b)!].sort(compareCodeUnits), usesOf, bundle.agents, memo, before);
    if ((made === undefined) !== (before === undefined)) order = undefined;
    if (made === undefined) blocks.delete(b);
    else blocks.set(b, made);
    if (!sameKeys(made?.keys, before?.keys)) rekeyed.add(b);
  }
  order ??= [...blocks.keys()].sort(compareCodeUnits);

  // Quick: the last maps, updated for the agents whose keys may differ; else every agent's, anew.
  const agents = quick ? last.agents : new Map<string, AgentKeys>();
  const blockKeys = quick ? last.blockKeys : new Map<string, string[][]>();
  const toolKeys = quick ? last.toolKeys : new Map<string, string[]>();
  let touched: Set<string> | undefined;
  if (quick) {
    // Every agent whose entry is new (its piece is made again whatever its keys), and the users of blocks keyed anew.
    touched = new Set(uses.keys());
    for (const b of rekeyed) for (const id of blocks.get(b)?.users ?? []) touched.add(id);
    for (const id of gone) {
      agents.delete(id);
      blockKeys.delete(id);
      toolKeys.delete(id);
    }
  }
  // The tool shapes are the last ones while the same agents have the same tool keys, in the same order.
  let sameTools = last !== undefined && (quick ? gone.length === 0 : last.agents.size === ids.length);
  for (const id of touched ?? ids) {
    const perPrefix = usesOf(id);
    const before = last?.agents.get(id);
    const keep = before !== undefined && !changed.has(id) && (rekeyed.size === 0 || !perPrefix.some((prefix) => prefix.some((u) => rekeyed.has(u.id))));
    const keys = keep ? before.blockKeys : perPrefix.map((prefix) => prefix.map((u) => blocks.get(u.id)!.keys.get(u.text)!));
    const tools = memo.toolKeysOf(id, bundle.agents[id]!);
    if (before?.tools !== tools && !sameItems(before?.tools.keys, tools.keys)) sameTools = false;
    agents.set(
      id,
      keep && before.tools === tools ? before : { uses: perPrefix, cohorts: keep ? before.cohorts : cohortKeys(bundle.agents[id]!), blockKeys: keys, tools },
    );
    blockKeys.set(id, keys);
    toolKeys.set(id, tools.keys);
  }
  const made = blockRows(order, blocks, affected, order === last?.order ? last.rows : undefined);
  const toolRows = sameTools && last !== undefined ? last.toolRows : toolShapeRows(ids, agents);
  const rows: NonNullable<StoreKeys['rows']> = { texts: made.texts, toolShapes: toolRows, blocks: { keys: order, values: made.infos } };
  // Which rows are the last call's (tailOf then looks only at the others).
  if (last !== undefined) {
    const same: NonNullable<typeof rows.same> = {};
    if (made.changed !== undefined) {
      same.texts = { was: last.rows.texts.keys, changed: made.changed.texts };
      same.blocks = { was: last.order, changed: made.changed.blocks };
    }
    if (toolRows === last.toolRows) same.toolShapes = { was: toolRows.keys, changed: [] };
    rows.same = same;
  }
  // The records stay empty: `rows` stands for them (see StoreKeys).
  const keys: StoreKeys = { blockKeys, toolKeys, texts: {}, toolShapes: {}, blocks: {}, rows };
  const state: StoreKeysState = { agents, blocks, order, rows: made, toolRows, blockKeys, toolKeys };
  return touched === undefined ? { keys, state } : { keys, state, touched };
}

/** Each tool shape once, in the order storeKeys meets them (agents in id order, tools in order). */
function toolShapeRows(ids: readonly string[], agents: ReadonlyMap<string, AgentKeys>): TableRows<StoredToolShape> {
  const toolShapes = new Map<string, StoredToolShape>();
  for (const id of ids) {
    const tools = agents.get(id)!.tools;
    tools.keys.forEach((key, i) => {
      // Equal keys are equal shapes (the key holds 48 bits of the shape's sha256).
      if (!toolShapes.has(key)) toolShapes.set(key, tools.shapes[i]!);
    });
  }
  return { keys: [...toolShapes.keys()], values: [...toolShapes.values()] };
}

/**
 * The texts and blocks tables' rows in `order`: the last ones (same order) with the affected
 * blocks' rows replaced, while each of those still has as many texts; else made afresh.
 * Always new arrays (tailOf compares keys with the last build's). `changed`: the rows replaced,
 * when every key stayed the same.
 */
function blockRows(
  order: readonly string[],
  blocks: ReadonlyMap<string, BlockKeys>,
  affected: ReadonlySet<string>,
  last: BlockRows | undefined,
): BlockRows & { changed?: { texts: number[]; blocks: number[] } } {
  if (last !== undefined && [...affected].every((b) => blocks.get(b)?.texts.length === last.at.get(b)?.count)) {
    const texts = { keys: last.texts.keys.slice(), values: last.texts.values.slice() };
    const infos = last.infos.slice();
    const changed = { texts: [] as number[], blocks: [] as number[] };
    let sameKeys = true;
    for (const b of affected) {
      const made = blocks.get(b)!;
      const at = last.at.get(b)!;
      infos[at.block] = made.info;
      changed.blocks.push(at.block);
      made.texts.forEach(([key, text], i) => {
        if (texts.keys[at.text + i] !== key) sameKeys = false;
        texts.keys[at.text + i] = key;
        texts.values[at.text + i] = text;
        changed.texts.push(at.text + i);
      });
    }
    return sameKeys ? { texts, infos, at: last.at, changed } : { texts, infos, at: last.at };
  }
  const texts: TableRows<StoredText> = { keys: [], values: [] };
  const infos: StoredBlockInfo[] = [];
  const at = new Map<string, { block: number; text: number; count: number }>();
  order.forEach((b, i) => {
    const made = blocks.get(b)!;
    at.set(b, { block: i, text: texts.keys.length, count: made.texts.length });
    infos.push(made.info);
    for (const [key, text] of made.texts) {
      texts.keys.push(key);
      texts.values.push(text);
    }
  });
  return { texts, infos, at };
}

/** One block's keys and stored texts from its uses (storeKeys' per-block steps); undefined when no agent uses it. */
function keyBlock(
  blockId: string,
  users: readonly string[],
  usesOf: (id: string) => BlockUse[][],
  entries: Readonly<Record<string, BundleAgent>>,
  memo: StoreKeysMemo,
  last: BlockKeys | undefined,
): BlockKeys | undefined {
  const byText = new Map<string, string>();
  let info: StoredBlockInfo | undefined;
  for (const id of users) {
    usesOf(id).forEach((prefix, i) => {
      const cohortKey = entries[id]!.prefixes[i]!.key;
      for (const u of prefix) {
        if (u.id !== blockId) continue;
        if (!byText.has(u.text)) byText.set(u.text, variantKey(u.id, id, cohortKey));
        if (info === undefined) info = u.info;
        else if (info !== u.info && !sameBlockInfo(info, u.info))
          throw new Error(`agentc bug: block "${u.id}" has different owner, category, file or required flag in two prefixes`);
      }
    });
  }
  if (info === undefined) return undefined;
  const { keys, texts, lines } = blockTexts(blockId, byText, new Set(), (text) => last?.lines.get(text) ?? memo.linesOf(text), memo.variantOf);
  return { users: new Set(users), info, keys, texts, lines };
}

function cohortKeys(entry: BundleAgent): string[] {
  return entry.prefixes.map((p) => p.key);
}

/** Per block id, what storeKeys reads of the agent's uses of it, flat: prefix index, cohort key, text and facts per use. */
function useLists(perPrefix: BlockUse[][], cohorts: readonly string[]): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  perPrefix.forEach((prefix, i) => {
    for (const u of prefix) {
      let list = out.get(u.id);
      if (list === undefined) out.set(u.id, (list = []));
      list.push(i, cohorts[i], u.text, u.info.category, u.info.file, u.info.owner, u.info.required);
    }
  });
  return out;
}

function sameItems(a: readonly unknown[] | undefined, b: readonly unknown[]): boolean {
  return a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameKeys(a: ReadonlyMap<string, string> | undefined, b: ReadonlyMap<string, string> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.size !== b.size) return false;
  for (const [text, key] of a) if (b.get(text) !== key) return false;
  return true;
}
