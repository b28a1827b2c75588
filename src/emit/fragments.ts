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
import type { Bundle, BundleAgent, StoredToolShape } from '../bundle/types.js';
import type { AgentFragments, BundleFrame, EmitCache, StoredLayout } from './cache.js';
import { compareCodeUnits, sortKeysDeep } from '../bundle/canonical-json.js';
import {
  agentToolKeys,
  configSuffix,
  storeAgent,
  storedJson,
  storedTop,
  storedValue,
  storeKeys,
  dispatchFacts,
  type ConfigSuffix,
  type DispatchFacts,
} from './stored.js';

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
): Buffer {
  const keys = JSON.stringify([blockKeys, toolKeys, suffix.template, suffix.astJson, facts]);
  if (f.json === undefined || f.jsonKeys !== keys) {
    // The entry is canonical, so are the field values the stored entry takes from it: only the rest is sorted.
    const canonical = new Set<object>();
    for (const value of Object.values(f.entry) as unknown[]) if (typeof value === 'object' && value !== null) canonical.add(value);
    const body = storedValue(sortKeysDeep(storeAgent(f.entry, blockKeys, toolKeys, suffix, facts), canonical), 2, 'agents');
    f.json = Buffer.from(`    ${JSON.stringify(f.id)}: ${body}`, 'utf8');
    f.jsonKeys = keys;
  }
  return f.json;
}

/**
 * The tool-shape keys of an agent's entry, memoized with its fragments. A key
 * depends on the tool's three shapes only, and agents that have the same tool
 * share those objects (bundle.ts `toolShapes`): each is keyed once per build.
 */
export function toolKeysOf(f: AgentFragments, cache: EmitCache): ReturnType<typeof agentToolKeys> {
  if (f.toolKeys !== undefined) return f.toolKeys;
  const { neutral, openai, anthropic } = f.entry.tools;
  const keys: string[] = [];
  const shapes: StoredToolShape[] = [];
  neutral.forEach((n, i) => {
    const o = openai[i]!;
    const a = anthropic[i]!;
    let known = cache.toolKeys.get(n);
    if (known === undefined || known.openai !== o || known.anthropic !== a) {
      const one = agentToolKeys({ tools: { neutral: [n], openai: [o], anthropic: [a] } });
      cache.toolKeys.set(n, (known = { openai: o, anthropic: a, key: one.keys[0]!, shape: one.shapes[0]! }));
    }
    keys.push(known.key);
    shapes.push(known.shape);
  });
  return (f.toolKeys = { keys, shapes });
}

/**
 * bundle.json's frame and pieces for `bundle` (its `hash` as it is), made once
 * per bundle object. createBundle makes them for the unhashed bundle and
 * registers the hashed one (see `registerLayout`).
 */
export function layoutOf(bundle: Bundle, cache: EmitCache): StoredLayout {
  let layout = cache.frames.get(bundle);
  if (layout === undefined) {
    const ids = jsonKeyOrder(Object.keys(bundle.agents).sort(compareCodeUnits));
    const keys = storeKeys(bundle, (id, entry) => toolKeysOf(fragmentsOf(cache, id, entry), cache));
    const frame = makeFrame(storedJson(storedTop(bundle, keys)), ids.length);
    const suffix = configSuffix(bundle);
    const pieces = ids.map((id) => {
      const entry = bundle.agents[id]!;
      return jsonPiece(fragmentsOf(cache, id, entry), keys.blockKeys.get(id)!, keys.toolKeys.get(id)!, suffix, dispatchFacts(entry, bundle));
    });
    layout = { frame, pieces };
    cache.frames.set(bundle, layout);
  }
  return layout;
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
  return frame.tail === '' ? { head: set(frame.head), tail: '' } : { head: frame.head, tail: set(frame.tail) };
}

/** bundle.json's bytes: head, pieces, tail. */
export function jsonChunks(frame: BundleFrame, pieces: readonly Buffer[]): Buffer[] {
  return [Buffer.from(frame.head, 'utf8'), ...joined(pieces), Buffer.from(frame.tail, 'utf8')];
}

function joined(pieces: readonly Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  pieces.forEach((p, i) => {
    if (i > 0) out.push(PIECE_SEPARATOR);
    out.push(p);
  });
  return out;
}
