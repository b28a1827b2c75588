/**
 * What emission keeps between builds of one workspace (`agentc build --watch`),
 * so that a one-block edit re-emits only the agents it touches.
 *
 * Every emit function takes the cache as an option; without one it works on a
 * fresh cache and produces the same bytes (test/emit/incremental.test.ts).
 *
 * Soundness rests on two invariants:
 * - Parsed Card / Block / Tool objects are never mutated, and a file whose text
 *   changed is parsed into a new object (src/parse/index.ts, ParseCache). So an
 *   agent's bundle entry is a pure function of the identities listed by
 *   `agentInputsKey` plus the config (`configKey`), which resets everything.
 * - Bundle entries, models and contracts the cache hands out are never mutated;
 *   fragments made from an entry are looked up by the entry's identity.
 *
 * A watch rebuild's passes are proportional to what changed: createBundle hands them an
 * EmitDelta (the agents whose entry is new, added or removed), and each pass keeps the rest
 * of what it made for the previous bundle — only when its own state is the one it made for
 * that bundle (each records which bundle that was), else it looks at every agent.
 */
import type {
  AnthropicTool,
  Bundle,
  BundleAgent,
  BundleModel,
  BundleToolContract,
  NeutralTool,
  OpenAITool,
  StoredText,
  StoredToolShape,
} from '../bundle/types.js';
import type { BlockUse, DispatchFacts, StoredToolOf } from './stored.js';
import type { StoreKeysState } from './store-keys-memo.js';
import type { ResolvedConfig, Tool } from '../parse/types.js';
import type { Agent } from '../resolve/types.js';
import { createHashMemo, type HashMemo } from './bundle-hash.js';
import { createWriteCache, type WriteCache } from './write-in-place.js';
import type { FileContent } from './content.js';

export interface EmitCache {
  /**
   * Made for one bundle and its files (`agentc build`, one side of `agentc diff`): what only a next
   * build on the same cache would use (agents' input keys, the texts interned for reuse) is not kept.
   */
  once: boolean;
  /** The config and agentc version the entries below were made under. */
  configKey: string | undefined;
  /** By agent id: the key of the agent's inputs, the (key-sorted) entry made from them, and the resolved agent it was made for (never mutated: the same object, the same inputs). */
  entries: Map<string, { key: string; entry: BundleAgent; agent: Agent }>;
  /** By model id, valid while configKey holds. */
  models: Map<string, BundleModel>;
  /** Key-sorted contract per parsed tool. */
  contracts: WeakMap<Tool, BundleToolContract>;
  /** Serialized pieces and generated text per bundle entry (see fragments.ts). */
  fragments: WeakMap<BundleAgent, AgentFragments>;
  /** A tool's canonical shapes, by its parameters object, then name and description (bundle.ts `toolShapes`). */
  toolShapes: WeakMap<object, Map<string, ToolShapes>>;
  /** A tool's stored shape and key (stored.ts), by its neutral shape, for the OpenAI and Anthropic shapes beside it. */
  storedTools: WeakMap<object, { openai: object; anthropic: object; stored: StoredToolOf }>;
  /** Canonical JSON of a schema object (bundle.ts groups tools by parameter shape). */
  shapes: WeakMap<object, string>;
  /** bundle.json as frame and per-agent pieces, per bundle (see fragments.ts). */
  frames: WeakMap<Bundle, StoredLayout>;
  /** What the last bundle's text keys were made from (store-keys-memo.ts). */
  storeKeys: StoreKeysState | undefined;
  /** The frame's tail chunks of the last build (see fragments.ts). */
  tail: TailMemo;
  /** Where bundle.json's parts start in each chunk, and each part's digest (see bundle-hash.ts). */
  hashParts: HashMemo;
  /** bundle.ts's literal type of a model or tool contract, or of a top-level field's value, by the object (see bundle-ts.ts). */
  literalTypes: WeakMap<object, string>;
  /** bundle.ts declarations (see bundle-ts.ts). */
  tsDeclarations: TsDeclarationsMemo | undefined;
  /** bundle.ts: the Bundle type's head by what it is made from (the top-level fields, the agents' shared declarations), compared item by item (see bundle-ts.ts bundleType). */
  tsTypeHead: { top: readonly unknown[]; shared: readonly unknown[]; bytes: Buffer } | undefined;
  /** bundle.ts: the agents and their members of the last bundle it was made for (see bundle-ts.ts keptAgents). */
  tsAgents: TsAgents | undefined;
  /** bundle.ts: other chunks by name, with their text (kept while the text is the same). */
  tsChunks: KeptChunks;
  /** emitFiles: the paths as made last time and their sorted order. */
  fileOrder: { paths: readonly string[]; order: readonly string[] } | undefined;
  /** What writeOutput last wrote. */
  written: WriteCache;
  /** What the last createBundle on this cache made, and how its bundle differs from the one before (see EmitDelta). */
  last: LastBundle | undefined;
  /** layoutOf's pieces of the last bundle it laid out with this cache's store-keys state. */
  laidOut: LaidOut | undefined;
  /** emitFiles' files of the last bundle it made them for (the map it returned: its users never change it). */
  lastFiles: { bundle: Bundle; files: Map<string, FileContent> } | undefined;
  /** The entry agent and orchestrator.ts of the last bundle (files.ts). */
  orchestrator: { bundle: Bundle; entry: string | undefined; text: string } | undefined;
  /** A number per parsed object while it lives (see identity): the keys above are made of these. */
  identities: { of: WeakMap<object, number>; last: number };
}

/**
 * How a bundle createBundle made (unhashed, then hashed) differs from the one it made
 * before on the same cache (`previous`): the passes after it (layoutOf, storeKeysIncremental,
 * emitFiles, bundle.ts) look only at these agents, and keep everything else from that build.
 * Only trusted where the pass's own state is the one it made for `previous`.
 */
export interface EmitDelta {
  /** The last bundle made on this cache before (unhashed and hashed). */
  previous: { unhashed: Bundle; hashed: Bundle | undefined };
  /** Agent ids in code-unit order, and in JSON's order (jsonKeyOrder): the last build's arrays while the id set is the same. */
  ids: readonly string[];
  order: readonly string[];
  /** Whether the id set is the previous bundle's (then `ids` and `order` are its very arrays). */
  sameIds: boolean;
  /** Agents whose entry is a new object (new ids included), with the entry it replaces (undefined: a new id). */
  changed: ReadonlyMap<string, BundleAgent | undefined>;
  /** Agents of the previous bundle that are gone, with their last entry. */
  removed: ReadonlyMap<string, BundleAgent>;
  /**
   * False only when no agent's dispatch facts (stored.ts DispatchFacts: sub-agents' policies, tool
   * contracts' envelopes) can differ from the previous bundle's: no agent added or removed, no
   * changed agent's policy different, the same tool contracts. True: pieces check their facts.
   */
  factsMoved: boolean;
}

/** createBundle's last bundle on this cache, and what its tables were made from. */
export interface LastBundle {
  unhashed: Bundle;
  /** Set once the bundle is hashed. */
  hashed: Bundle | undefined;
  /** Every agent's models (those in the config) and tools, by id, in the order createBundle meets them. */
  uses: Map<string, readonly unknown[]>;
  ids: readonly string[];
  order: readonly string[];
  delta: EmitDelta | undefined;
  /** The compile its program came from (Program.revision's `self`): a next compile's changed ids since it are the only agents looked at. */
  revision: object | undefined;
}

/** layoutOf's last pieces, for the unhashed bundle they were made for, in JSON order (`at`: an id's index; `joined`: with separators, piece i at 2i). */
export interface LaidOut {
  bundle: Bundle;
  order: readonly string[];
  pieces: readonly Buffer[];
  at: ReadonlyMap<string, number>;
  joined: readonly Buffer[];
}

/** One tool as an agent's entry holds it, each shape canonical; shared by the agents that have the tool. */
export interface ToolShapes {
  neutral: NeutralTool;
  openai: OpenAITool;
  anthropic: AnthropicTool;
}

/** bundle.ts's agents (in id order, `at`: an id's index) and their members of the Bundle type, for `bundle`. */
export interface TsAgents {
  bundle: Bundle;
  agents: readonly AgentFragments[];
  at: ReadonlyMap<string, number>;
  members: readonly Buffer[];
}

/** The part of bundle.ts before the literal, and what it was made from. */
export interface TsDeclarationsMemo {
  /** Flags, tool prefix, contracts (by identity) and every agent's tsKey, compared element by element. */
  inputs: readonly unknown[];
  /** UTF-8 text. */
  bytes: Buffer;
  /** Each tool declaration by its own inputs, kept while used. */
  declarations: Map<string, string>;
}

/** bundle.json === head + pieces joined by ",\n" + tail (pieces: one per agent, see fragments.ts). */
export interface BundleFrame {
  head: string;
  /** Text, or UTF-8 chunks (emission keeps them between builds, see fragments.ts). */
  tail: string | readonly Buffer[];
  /** With chunks: the index of the chunk that holds the `hash` member. */
  hashAt?: number;
}

/** The tail's chunks of the last build, so an unchanged entry keeps its chunk (fragments.ts). */
export interface TailMemo {
  /** By table, by key: what the entry was made from, and its chunk. */
  entries: Map<string, Map<string, { source: unknown; chunk: Buffer }>>;
  /** By table: its keys as listed last time (insertion order) and their order in bundle.json (fragments.ts jsonOrder). */
  orders: Map<string, { keys: readonly string[]; order: readonly string[] }>;
  /** The same for tables given as rows (StoreKeys.rows): the rows' indices in that order. */
  rowOrders: Map<string, { keys: readonly string[]; order: readonly number[] }>;
  /**
   * By table given as rows (StoreKeys.rows): its keys and each row's entry, as `entries` holds them by key for the other tables;
   * the table's run of chunks in bundle.json (rows in order, separators between) and each row's index in it.
   */
  rowChunks: Map<string, { keys: readonly string[]; entries: readonly { source: unknown; chunk: Buffer }[]; run: readonly Buffer[]; runAt: readonly number[] }>;
  /** The other chunks by name, with their text. */
  small: KeptChunks;
  /** Each text of the last build, split at "\n". */
  lines: Map<string, string[]>;
  /** A variant's stored text by its lines, with the base (lines and key) it was stored against. */
  variants: WeakMap<string[], { base: string[]; key: string; stored: StoredText }>;
}

/** bundle.json's bytes: frame.head + pieces joined by ",\n" + frame.tail. */
export interface StoredLayout {
  frame: BundleFrame;
  pieces: Buffer[];
}

export interface AgentFragments {
  id: string;
  entry: BundleAgent;
  /** Set by createBundle: `entry` is canonical (keys sorted at every depth, no undefined), so its stored form is written without another sorted copy. */
  canonical?: true;
  /** `    "<id>": {…}`: the agent's member of bundle.json's `agents`, UTF-8. */
  json?: Buffer;
  /** The text and tool-shape keys (as JSON, and as given) and the config's suffix `json` was made with. */
  jsonKeys?: {
    keys: string;
    template: string;
    astJson: string;
    inputs?: { blockKeys: readonly (readonly string[])[]; toolKeys: readonly string[]; facts: DispatchFacts };
  };
  /** Tool-shape keys and shapes of the entry (stored.ts). */
  toolKeys?: { keys: string[]; shapes: StoredToolShape[] };
  /** Canonical JSON of each neutral tool's parameters, in tool order. */
  shapes?: string[];
  /** This agent's members of AgentStatusEvents and AgentToolNames in bundle.ts. */
  statusLine?: string;
  toolNamesLine?: string;
  /** Everything of the entry that bundle.ts declares (events, tool names, descriptions, shapes). */
  tsKey?: string;
  /** This agent's member of the Bundle interface in bundle.ts, UTF-8. */
  typeMember?: Buffer;
  /** The shared declarations (name, text) typeMember refers to; the entry is rebuilt whenever its sub-agents or the config change. */
  sharedTypes?: readonly (readonly [string, string])[];
  /** The sub-agents' own policies typeMember was made with (it names SubAgentDispatch where the table's policy is one of them). */
  typePolicies?: readonly unknown[];
  /** Per prefix, per block: its text and shared facts (stored.ts). */
  uses?: BlockUse[][];
  /** Prompt files (path, text), valid for the model object they were rendered with. */
  prompts?: { model: BundleModel | undefined; files: [string, string][] };
}

/** Chunks by name with the text each was made from (see keptChunk), and the value that text was made from (see keptChunkOf). */
export type KeptChunks = Map<string, { text: string; bytes: Buffer; source?: object }>;

/** keptChunk for a text made from `source` alone: the chunk last kept under `name` for the same object, without making the text again. */
export function keptChunkOf(kept: KeptChunks, name: string, source: unknown, text: () => string): Buffer {
  const last = kept.get(name);
  if (last !== undefined && last.source !== undefined && last.source === source) return last.bytes;
  const bytes = keptChunk(kept, name, text());
  if (source !== null && typeof source === 'object') kept.get(name)!.source = source;
  return bytes;
}

/** The UTF-8 bytes of `text`: the Buffer last kept under `name` when its text is the same (a watch rebuild compares chunks by identity first), else a new one, kept. */
export function keptChunk(kept: KeptChunks, name: string, text: string): Buffer {
  const last = kept.get(name);
  if (last !== undefined && last.text === text) return last.bytes;
  const bytes = Buffer.from(text, 'utf8');
  kept.set(name, { text, bytes });
  return bytes;
}

export function createEmitCache(options: { once?: boolean } = {}): EmitCache {
  return {
    once: options.once === true,
    configKey: undefined,
    entries: new Map(),
    models: new Map(),
    contracts: new WeakMap(),
    fragments: new WeakMap(),
    toolShapes: new WeakMap(),
    storedTools: new WeakMap(),
    shapes: new WeakMap(),
    frames: new WeakMap(),
    storeKeys: undefined,
    tail: {
      entries: new Map(),
      orders: new Map(),
      rowOrders: new Map(),
      rowChunks: new Map(),
      small: new Map(),
      lines: new Map(),
      variants: new WeakMap(),
    },
    hashParts: createHashMemo(),
    literalTypes: new WeakMap(),
    tsDeclarations: undefined,
    tsTypeHead: undefined,
    tsAgents: undefined,
    tsChunks: new Map(),
    fileOrder: undefined,
    written: createWriteCache(),
    last: undefined,
    laidOut: undefined,
    lastFiles: undefined,
    orchestrator: undefined,
    identities: { of: new WeakMap(), last: 0 },
  };
}

/** Forgets every entry and model when the config or the agentc version changed. */
export function useConfig(cache: EmitCache, config: ResolvedConfig, agentcVersion: string): void {
  const key = `${agentcVersion}\u0000${JSON.stringify(config)}`;
  if (cache.configKey === key) return;
  cache.configKey = key;
  cache.entries.clear();
  cache.models.clear();
  // The last bundle's tables hold the old config's models: nothing of it is kept.
  cache.last = undefined;
}

/** A number per object, for as long as the object lives, unique within `cache`. */
export function identity(cache: EmitCache, o: object): number {
  const ids = cache.identities;
  let n = ids.of.get(o);
  if (n === undefined) ids.of.set(o, (n = ++ids.last));
  return n;
}

/**
 * Everything an agent's bundle entry is made from, besides the config: its card,
 * the blocks of its prompt (rendered against card, sub-agents, tools, config),
 * its tool contracts and its sub-agents' cards (ask_* descriptions, handoff
 * schemas, policies). Equal keys under the same config give equal entries.
 */
export function agentInputsKey(cache: EmitCache, agent: Agent): string {
  let key = `c${identity(cache, agent.card)}|${agent.modelId ?? ''}|b`;
  for (const b of agent.blocks) key += `${identity(cache, b.block)}${b.required ? 'r' : ''},`;
  key += '|t';
  for (const t of agent.tools) {
    const target = t.kind === 'tool' ? t.tool : t.agent;
    key += `${t.kind === 'tool' ? 'T' : 'A'}${target ? identity(cache, target) : '-'}=${t.name},`;
  }
  key += '|s';
  for (const s of agent.subAgents) key += `${identity(cache, s)},`;
  return key;
}
