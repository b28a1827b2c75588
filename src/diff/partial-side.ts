/**
 * `agentc diff`'s working-tree side without building every agent: when the other
 * side came from the bundle cache with each agent's inputs digest
 * (src/emit/agent-digest.ts), only the agents whose digest differs are built;
 * the others are the other side's (lazily loaded) entries, and are known to be
 * unchanged, so the diff never reads them (diffBundles' `unchanged`).
 *
 * When the report shows the bundle hash, the side's bundle.json text is
 * assembled from the other side's bytes (src/diff/same-agents.ts `split`): its
 * entries are kept where nothing they are made from changed, and remade where it
 * did — the changed agents, the texts and facts of the blocks whose uses by a
 * changed agent differ (with the entries of unchanged agents whose text keys
 * move as a result), new tool shapes, and everything outside the four tables.
 * The text is hashed as a full build would (stored.ts, fragments.ts).
 *
 * Invariant: a result is returned only when it equals what building the whole
 * side gives (same entries for the agents the diff reads, same hash); anything
 * this module does not model exactly (a key needing a `#n` suffix, a block or
 * agent id with `@` or `#`, a tool shape dropped by a changed agent that other
 * agents may hold, a layout it cannot split, many changed agents) returns
 * undefined, and the caller builds the whole side.
 */
import { createPartsHash, type PartsHash } from '../emit/bundle-hash.js';
import type { Bundle, BundleAgent, StoredBlockInfo, StoredToolShape } from '../bundle/types.js';
import { compareCodeUnits } from '../bundle/canonical-json.js';
import { agentDigests } from '../emit/agent-digest.js';
import { createBundle, programBlockUses } from '../emit/bundle.js';
import { createEmitCache } from '../emit/cache.js';
import { jsonKeyOrder } from '../emit/fragments.js';
import {
  agentBlockUses,
  agentToolKeys,
  blockTexts,
  configSuffix,
  dispatchFacts,
  sameBlockInfo,
  storeAgent,
  storedJson,
  storedTop,
  storedValue,
  variantKey,
  variantText,
  type StoreKeys,
} from '../emit/stored.js';
import type { Agent, Program } from '../resolve/types.js';
import { decodeKey, split, type Split } from './same-agents.js';

/** The cached side: its loaded bundle, its bundle.json bytes, each agent's inputs digest. */
export interface DigestedSide {
  bundle: Bundle;
  json: Buffer;
  digests: ReadonlyMap<string, string>;
}

export interface PartialSide {
  /** Entries made for the changed agents; the others are `before`'s, read only on use. `hash` is "" unless asked for. */
  bundle: Bundle;
  /** Agents whose entries are equal on both sides. */
  unchanged: Set<string>;
}

/** Past this share of agents changed (and more than a few), the whole side is built: assembling would not pay. */
const MAX_CHANGED_SHARE = 0.25;
const FEW = 8;

/** One use of a block by an agent: where, under which cohort, its rendered text and the facts every use shares. */
interface Use {
  prefix: number;
  cohort: string;
  id: string;
  text: string;
  info: StoredBlockInfo;
}

/**
 * The working tree's side, built only where its agents' digests differ from
 * `before`'s; undefined when it cannot be made exactly (then build it whole).
 */
export function partialSide(program: Program, agentcVersion: string, before: DigestedSide, options: { hash: boolean }): PartialSide | undefined {
  const digests = agentDigests(program, agentcVersion);
  const beforeIds = Object.keys(before.bundle.agents);
  if (beforeIds.length !== before.digests.size || beforeIds.some((id) => !before.digests.has(id))) return undefined;
  const changed = new Set<string>();
  for (const [id, d] of digests) if (before.digests.get(id) !== d) changed.add(id);
  for (const id of beforeIds) if (!digests.has(id)) changed.add(id);
  if (changed.size > Math.max(FEW, MAX_CHANGED_SHARE * Math.max(digests.size, beforeIds.length))) return undefined;

  try {
    if (!options.hash) {
      const made = createBundle(program, agentcVersion, createEmitCache({ once: true }), { only: new Set([...changed].filter((id) => digests.has(id))) });
      return { bundle: merged(made, digests, before.bundle), unchanged: unchangedOf(digests, changed) };
    }
    return assembled(program, agentcVersion, before, digests, changed);
  } catch {
    // A cached entry that does not load, or a case not modelled: the whole side is built instead.
    return undefined;
  }
}

/** The made bundle with every other agent as `before`'s entry, read (and loaded) only when used. */
function merged(made: Bundle, digests: ReadonlyMap<string, string>, before: Bundle): Bundle {
  const agents: Record<string, BundleAgent> = {};
  for (const id of jsonKeyOrder([...digests.keys()].sort(compareCodeUnits))) {
    if (Object.hasOwn(made.agents, id)) Object.defineProperty(agents, id, { value: made.agents[id], enumerable: true, writable: true, configurable: true });
    else Object.defineProperty(agents, id, { get: () => before.agents[id], enumerable: true, configurable: true });
  }
  return { ...made, agents };
}

function unchangedOf(digests: ReadonlyMap<string, string>, changed: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const id of digests.keys()) if (!changed.has(id)) out.add(id);
  return out;
}

/** An agent's block uses as the stored bundle records them (per prefix, per block, in order). */
function programUses(agent: Agent): Use[] {
  const out: Use[] = [];
  programBlockUses(agent).forEach((prefix, i) => {
    for (const u of prefix) out.push({ prefix: i, cohort: agent.cohorts[i]!.key, ...u });
  });
  return out;
}

function entryUses(entry: BundleAgent): Use[] {
  const out: Use[] = [];
  agentBlockUses(entry).forEach((prefix, i) => {
    for (const u of prefix) out.push({ prefix: i, cohort: entry.prefixes[i]!.key, id: u.id, text: u.text, info: u.info });
  });
  return out;
}

function sameUse(a: Use, b: Use): boolean {
  return a.prefix === b.prefix && a.cohort === b.cohort && a.id === b.id && a.text === b.text && sameBlockInfo(a.info, b.info);
}

function byBlock(uses: readonly Use[]): Map<string, Use[]> {
  const out = new Map<string, Use[]>();
  for (const u of uses) {
    let list = out.get(u.id);
    if (list === undefined) out.set(u.id, (list = []));
    list.push(u);
  }
  return out;
}

/** Not modelled here (see the module invariant): the caller builds the whole side. */
class Decline extends Error {}

function assembled(
  program: Program,
  agentcVersion: string,
  before: DigestedSide,
  digests: ReadonlyMap<string, string>,
  changed: ReadonlySet<string>,
): PartialSide | undefined {
  const old = split(before.json);
  if (old === undefined) return undefined;
  const afterIds = [...digests.keys()]; // sorted (agentDigests)
  const unchanged = unchangedOf(digests, changed);

  // Every block's users on the working tree's side (agents in id order), from the Program.
  const users = new Map<string, string[]>();
  const uses = new Map<string, Use[]>();
  for (const id of afterIds) {
    const list = programUses(program.agents.get(id)!);
    uses.set(id, list);
    for (const u of list) {
      if (/[@#]/.test(u.id)) throw new Decline();
      let l = users.get(u.id);
      if (l === undefined) users.set(u.id, (l = []));
      if (l[l.length - 1] !== id) l.push(id);
    }
  }
  for (const raw of old.tables.blocks.keys()) if (/[@#]/.test(raw)) throw new Decline();
  for (const raw of old.tables.texts.keys()) if (raw.includes('#')) throw new Decline();

  // The changed agents' uses on the cached side, and the blocks whose uses by a changed agent differ.
  const oldUses = new Map<string, Use[]>();
  const oldUsers = new Map<string, string[]>(); // block → the changed agents that used it on the cached side
  const affected = new Set<string>();
  for (const id of changed) {
    const was = Object.hasOwn(before.bundle.agents, id) ? entryUses(before.bundle.agents[id]!) : [];
    oldUses.set(id, was);
    const a = byBlock(uses.get(id) ?? []);
    const b = byBlock(was);
    for (const blockId of b.keys()) {
      const l = oldUsers.get(blockId);
      if (l === undefined) oldUsers.set(blockId, [id]);
      else l.push(id);
    }
    for (const blockId of new Set([...a.keys(), ...b.keys()])) {
      const x = a.get(blockId) ?? [];
      const y = b.get(blockId) ?? [];
      if (x.length !== y.length || x.some((u, i) => !sameUse(u, y[i]!))) affected.add(blockId);
    }
  }

  // Affected blocks: their texts, facts and keys made again from every use; unchanged agents whose key for a text moves are remade.
  const remade = new Set<string>();
  const newTexts = new Map<string, string>(); // key → entry text
  const dropTexts = new Set<string>(); // decoded keys of the affected blocks on the cached side
  const newBlocks = new Map<string, string | undefined>();
  const keyOf = new Map<string, Map<string, string>>(); // block → text → key (working tree)
  // The cached side's text keys by block (a key is the block id, or the block id, `@` and more: block ids hold no `@`).
  const oldTextKeys = new Map<string, string[]>();
  if (affected.size > 0) {
    for (const raw of old.tables.texts.keys()) {
      const key = decodeKey(raw);
      const blockId = key.split('@', 1)[0]!;
      const l = oldTextKeys.get(blockId);
      if (l === undefined) oldTextKeys.set(blockId, [key]);
      else l.push(key);
    }
  }
  for (const blockId of affected) {
    const nowUsers = users.get(blockId) ?? [];
    const wasUsers = [...new Set([...nowUsers.filter((id) => unchanged.has(id)), ...(oldUsers.get(blockId) ?? [])])].sort(compareCodeUnits);
    const nowUses = nowUsers.flatMap((id) =>
      uses
        .get(id)!
        .filter((u) => u.id === blockId)
        .map((u) => ({ agent: id, u })),
    );
    const wasUses = wasUsers.flatMap((id) =>
      (unchanged.has(id) ? uses.get(id)! : oldUses.get(id)!).filter((u) => u.id === blockId).map((u) => ({ agent: id, u })),
    );
    const now = variantKeys(blockId, nowUses);
    const was = variantKeys(blockId, wasUses);
    keyOf.set(blockId, now);
    // The cached side must hold exactly the keys this model gives it; else its layout is not what is modelled.
    const oldKeys = new Set(oldTextKeys.get(blockId) ?? []);
    const wasKeys = new Set(was.values());
    if (oldKeys.size !== wasKeys.size || [...oldKeys].some((k) => !wasKeys.has(k))) throw new Decline();
    for (const k of oldKeys) dropTexts.add(k);
    if (nowUses.length > 0) {
      const first = nowUses[0]!.u.info;
      if (nowUses.some(({ u }) => !sameBlockInfo(u.info, first))) throw new Decline();
      newBlocks.set(blockId, `    ${JSON.stringify(blockId)}: ${storedValue(first, 2, 'blocks')}`);
      const stored = blockTexts(blockId, now, new Set<string>(), (t) => t.split('\n'), variantText);
      for (const [key, text] of stored.texts) newTexts.set(key, `    ${JSON.stringify(key)}: ${storedValue(text, 2, 'texts')}`);
    } else newBlocks.set(blockId, undefined);
    for (const { agent, u } of nowUses) if (unchanged.has(agent) && was.get(u.text) !== now.get(u.text)) remade.add(agent);
  }

  const make = new Set([...changed, ...remade].filter((id) => digests.has(id)));
  const made = createBundle(program, agentcVersion, createEmitCache({ once: true }), { only: make });
  const bundle = merged(made, digests, before.bundle);
  const suffix = configSuffix(bundle);

  // Tool shapes: kept by key (a key names its content); new ones added; one a changed agent dropped stays while an unchanged agent holds it.
  const beforeTools = new Set<string>();
  const afterTools = new Set<string>();
  const newShapes = new Map<string, string>();
  const pieces = new Map<string, string>();
  for (const id of make) {
    const entry = made.agents[id]!;
    const tools = agentToolKeys(entry);
    tools.keys.forEach((k, i) => {
      afterTools.add(k);
      if (!old.tables.toolShapes.has(rawKey(k)) && !newShapes.has(k))
        newShapes.set(k, `    ${JSON.stringify(k)}: ${storedValue(tools.shapes[i] as StoredToolShape, 2, 'toolShapes')}`);
    });
    const stored = storedEntry(old, id);
    const mine = uses.get(id)!;
    let k = 0;
    const blockKeys = entry.prefixes.map((p, i) => {
      const seen = new Map<string, number>();
      return p.blocks.map((b) => {
        const u = mine[k++];
        if (u === undefined || u.prefix !== i || u.id !== b.id) throw new Decline();
        const n = seen.get(b.id) ?? 0;
        seen.set(b.id, n + 1);
        // An affected block's key from its new variants; any other block's as the cached entry has it (its uses are the same).
        const key = keyOf.has(b.id) ? keyOf.get(b.id)!.get(u.text) : stored?.blockKey(i, b.id, n);
        if (key === undefined) throw new Decline();
        return key;
      });
    });
    const facts = dispatchFacts(entry, bundle);
    pieces.set(id, `    ${JSON.stringify(id)}: ${storedValue(storeAgent(entry, blockKeys, tools.keys, suffix, facts), 2, 'agents')}`);
  }
  for (const id of changed) {
    if (!Object.hasOwn(before.bundle.agents, id)) continue;
    for (const k of storedEntry(old, id)?.tools ?? []) beforeTools.add(k);
  }
  const dropShapes = new Set<string>();
  let held: Set<string> | undefined; // read once, and only when a changed agent dropped a shape
  for (const k of beforeTools) {
    if (afterTools.has(k)) continue;
    held ??= keptToolKeys(old, unchanged, remade);
    if (!held.has(k)) dropShapes.add(k);
  }

  // bundle.json with `hash` = "": the frame from the working tree's top level, the four tables from kept and remade entries.
  const keys: StoreKeys = { blockKeys: new Map(), toolKeys: new Map(), texts: {}, toolShapes: {}, blocks: {} };
  const skeleton = storedJson(storedTop({ ...bundle, agents: {}, hash: '' }, keys));
  const hash = createPartsHash();
  let at = 0;
  const tables: [string, () => (string | Buffer)[]][] = [
    ['agents', () => tableEntries(old.tables.agents, pieces, new Set([...changed].filter((id) => !digests.has(id))))],
    ['blocks', () => tableEntries(old.tables.blocks, definedOnly(newBlocks), new Set([...newBlocks.keys()]))],
    ['texts', () => tableEntries(old.tables.texts, newTexts, dropTexts)],
    ['toolShapes', () => tableEntries(old.tables.toolShapes, newShapes, dropShapes)],
  ];
  for (const [name, entries] of tables) {
    const member = `\n  ${JSON.stringify(name)}: {}`;
    const found = skeleton.indexOf(member, at);
    if (found === -1 || skeleton.indexOf(member, found + 1) !== -1) throw new Decline();
    const list = entries();
    hash.update(skeleton.slice(at, found + member.length - 1), 'utf8'); // up to and with the `{`
    if (list.length > 0) {
      hash.update('\n', 'utf8');
      hashEntries(hash, list);
      hash.update('\n  ', 'utf8');
    }
    at = found + member.length - 1; // the `}`
  }
  hash.update(skeleton.slice(at), 'utf8');
  // Remade agents are unchanged too: only their stored keys moved, their entries are equal.
  return { bundle: { ...bundle, hash: hash.digest('hex') }, unchanged };
}

/**
 * Hashes entries joined by ",\n", each indented. Kept entries that follow each other
 * in the cached bytes (the separator and indent between them included) are hashed
 * as one slice of those bytes: the same bytes, in a few calls instead of thousands.
 */
function hashEntries(hash: PartsHash, list: readonly (string | Buffer)[]): void {
  let run: Buffer | undefined; // a slice of the cached bytes: kept entries with their separators
  const flush = (): void => {
    if (run !== undefined) hash.update(INDENT).update(run);
    run = undefined;
  };
  list.forEach((e, i) => {
    if (typeof e !== 'string' && run !== undefined && e.buffer === run.buffer && e.byteOffset === run.byteOffset + run.byteLength + SEPARATOR_AND_INDENT) {
      run = Buffer.from(run.buffer, run.byteOffset, e.byteOffset + e.byteLength - run.byteOffset);
      return;
    }
    flush();
    if (i > 0) hash.update(',\n', 'utf8');
    if (typeof e === 'string') hash.update(e, 'utf8');
    else run = e;
  });
  flush();
}

/** `,\n` and the four spaces before an entry's key, between two entries of a table in the cached bytes. */
const SEPARATOR_AND_INDENT = 6;

/** Each distinct text of a block, in first-use order, with the variant key of its first use (stored.ts storeKeys). */
function variantKeys(blockId: string, uses: readonly { agent: string; u: Use }[]): Map<string, string> {
  const byText = new Map<string, string>();
  for (const { agent, u } of uses) {
    if (!byText.has(u.text)) byText.set(u.text, variantKey(blockId, agent, u.cohort));
  }
  // Keys as blockTexts gives them: the block id alone for a single text; a repeated key would get a `#n` suffix (not modelled).
  const out = new Map<string, string>();
  const seen = new Set<string>();
  for (const [text, key] of byText) {
    const k = byText.size === 1 ? blockId : key;
    if (seen.has(k)) throw new Decline();
    seen.add(k);
    out.set(text, k);
  }
  return out;
}

/** A raw (JSON-escaped, as in the file) key for a decoded one. */
function rawKey(key: string): string {
  return Buffer.from(JSON.stringify(key).slice(1, -1), 'utf8').toString('latin1');
}

function definedOnly(m: ReadonlyMap<string, string | undefined>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of m) if (v !== undefined) out.set(k, v);
  return out;
}

/** One table's entries in key order: the cached side's bytes (from the key's quote: the indent is the caller's), but `drop` and replaced keys, and `replace`'s texts (indent included). */
function tableEntries(old: Map<string, Buffer>, replace: ReadonlyMap<string, string>, drop: ReadonlySet<string>): (string | Buffer)[] {
  const byKey = new Map<string, string | Buffer>();
  for (const [raw, bytes] of old) {
    const key = raw.includes('\\') || /[^\x20-\x7e]/.test(raw) ? decodeKey(raw) : raw;
    if (drop.has(key) || replace.has(key)) continue;
    byKey.set(key, bytes);
  }
  for (const [key, text] of replace) byKey.set(key, text);
  return jsonKeyOrder([...byKey.keys()].sort(compareCodeUnits)).map((k) => byKey.get(k)!);
}

const INDENT = Buffer.from('    ', 'utf8');

/** What a cached agent entry refers to: its tool-shape keys, and the text key of each block use. */
function storedEntry(old: Split, id: string): { tools: string[]; blockKey(prefix: number, block: string, n: number): string | undefined } | undefined {
  const bytes = old.tables.agents.get(rawKey(id));
  if (bytes === undefined) return undefined;
  const entry = (JSON.parse(`{${bytes.toString('utf8')}}`) as Record<string, { tools: string[]; prefixes: { blocks: { id: string; text?: string }[] }[] }>)[
    id
  ]!;
  return {
    tools: entry.tools,
    blockKey(prefix, block, n) {
      const list = entry.prefixes[prefix]?.blocks.filter((b) => b.id === block);
      const b = list?.[n];
      return b === undefined ? undefined : (b.text ?? b.id);
    },
  };
}

/** The tool shapes the agents kept as they are (unchanged, not remade) hold: read from their entries' `tools` lines. */
function keptToolKeys(old: Split, unchanged: ReadonlySet<string>, remade: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const id of unchanged) {
    if (remade.has(id)) continue;
    const bytes = old.tables.agents.get(rawKey(id));
    if (bytes === undefined) throw new Decline();
    for (const k of toolsLine(bytes)) out.add(k);
  }
  return out;
}

/**
 * The tool-shape keys of a stored agent entry, from its `tools` member: in the
 * canonical layout each member of an entry is one line at a fixed indent (a JSON
 * string holds no raw newline), so this line is found without parsing the entry.
 */
function toolsLine(entry: Buffer): string[] {
  const at = entry.indexOf(TOOLS_MEMBER);
  if (at === -1) throw new Decline();
  const from = at + TOOLS_MEMBER.length;
  const nl = entry.indexOf(0x0a, from);
  const line = entry.toString('utf8', from, nl === -1 ? entry.length : nl).replace(/,$/, '');
  const tools = JSON.parse(line) as unknown;
  if (!Array.isArray(tools) || !tools.every((t) => typeof t === 'string')) throw new Decline();
  return tools as string[];
}

const TOOLS_MEMBER = Buffer.from('\n      "tools": ', 'utf8');
