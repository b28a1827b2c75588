/**
 * bundle.json and the bundle.ts literal as pieces: a frame (everything but the
 * agents' members) and one piece per agent, each made once per bundle entry and
 * kept in the EmitCache by the entry's identity.
 *
 * Invariant: canonicalJson(bundle) === frame.head + pieces.join(',\n') + frame.tail.
 * It holds because JSON.stringify(x, null, 2) writes an object member as
 * `<indent>"key": <value>` with the value's inner lines indented one level
 * deeper, and never writes a raw line break inside a string: re-indenting an
 * agent's own serialization by two levels gives exactly its lines in the whole.
 */
import type { Bundle, BundleAgent } from '../bundle/types.js';
import type { AgentFragments, BundleFrame, EmitCache } from './cache.js';
import { canonicalJson, sortKeysDeep } from '../bundle/canonical-json.js';

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

/** `    "<id>": {…}`, the agent's member of the top-level `agents` object. */
export function jsonPiece(f: AgentFragments): Buffer {
  if (f.json === undefined) {
    const body = JSON.stringify(sortKeysDeep(f.entry), null, 2).replaceAll('\n', '\n    ');
    f.json = Buffer.from(`    ${JSON.stringify(f.id)}: ${body}`, 'utf8');
  }
  return f.json;
}

/** The piece as it stands in bundle.ts's object literal. */
export function tsPiece(f: AgentFragments): Buffer {
  if (f.ts === undefined) {
    const json = jsonPiece(f).toString('utf8');
    const ts = protoSafe(json);
    f.ts = ts === json ? jsonPiece(f) : Buffer.from(ts, 'utf8');
  }
  return f.ts;
}

/**
 * In an object literal `"__proto__": x` would set the prototype; a computed key
 * keeps it data. Line-based, so applying it to line-aligned pieces equals
 * applying it to the whole text.
 */
export function protoSafe(json: string): string {
  return json.replace(/^(\s*)"__proto__": /gm, '$1["__proto__"]: ');
}

/** bundle.json around the agents' members, for a bundle whose `hash` is already set. */
export function frameOf(bundle: Bundle, cache: EmitCache): BundleFrame {
  let frame = cache.frames.get(bundle);
  if (frame === undefined) {
    frame = makeFrame({ ...bundle, agents: {} }, Object.keys(bundle.agents).length);
    cache.frames.set(bundle, frame);
  }
  return frame;
}

/** The frame of `bundle` with its agents' members left out; `agentCount` 0 gives the whole text as head. */
export function makeFrame(bundle: Bundle, agentCount: number): BundleFrame {
  const text = canonicalJson({ ...bundle, agents: {} });
  if (agentCount === 0) return { head: text, tail: '' };
  const at = text.indexOf(AGENTS_MEMBER);
  if (at === -1) throw new Error('agentc bug: no agents member in the canonical bundle');
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

/** The bundle.ts literal: canonical JSON without its final newline, "__proto__" keys computed. */
export function literalChunks(frame: BundleFrame, pieces: readonly Buffer[]): Buffer[] {
  const head = protoSafe(frame.head);
  const tail = protoSafe(frame.tail);
  if (pieces.length === 0) return [Buffer.from(head.trimEnd(), 'utf8')];
  return [Buffer.from(head, 'utf8'), ...joined(pieces), Buffer.from(tail.trimEnd(), 'utf8')];
}

function joined(pieces: readonly Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  pieces.forEach((p, i) => {
    if (i > 0) out.push(PIECE_SEPARATOR);
    out.push(p);
  });
  return out;
}
