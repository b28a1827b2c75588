/**
 * The bundle hash: SHA-256 (hex) over the SHA-256 digests of bundle.json's parts, where the
 * parts are the file's text (with `hash` = "") cut before every line that starts with exactly
 * four spaces and a `"` — one part per entry of a table (agents, texts, blocks, tool shapes,
 * tools, models) and per member of a small object; the text before the first such line is the
 * first part. (Nested values are indented deeper, and a JSON string holds no raw newline, so the
 * cuts depend only on the text.) A rebuild hashes only the parts it changed, plus 32 bytes per part.
 *
 * Invariant: hashChunks(chunks, memo) === hashBundleText(the chunks joined), whatever the memo
 * holds. The memo keeps, per chunk object (Buffers are never mutated once made), where parts
 * start in it, and per part that starts at a chunk's first byte, the chunks it spans and its
 * digest: an unchanged agent's piece or table row is the same Buffer, so its part is not hashed
 * again.
 */
import * as crypto from 'node:crypto';
import { PIECE_SEPARATOR, sameList } from './fragments.js';

/** A part starts after the "\n" of each occurrence. */
const CUT = Buffer.from('\n    "', 'utf8');
const LEAD = CUT.subarray(1);
const NEWLINE = 0x0a;
const SPACE = 0x20;

/** Where parts start in one chunk, how its end bears on the next chunk, and the part that starts at its first byte. */
interface ChunkInfo {
  /** Offsets (> 0) inside the chunk where a part starts. */
  cuts: number[];
  /** It starts with `    "` (a part starts at 0 when the stream so far ends with "\n"). */
  lead: boolean;
  /** 0: its end is no prefix of a cut; 1: it ends with "\n"; 2: with "\n" and 1–4 spaces; 3: it is all spaces (as its predecessor ends). */
  tail: 0 | 1 | 2 | 3;
  /** The part that started at its first byte last time: the chunks after it (the last one up to `end`) and its digest. */
  part?: { rest: readonly Buffer[]; end: number; digest: Buffer };
}

export interface HashMemo {
  chunks: WeakMap<Buffer, ChunkInfo>;
  /** The last call's chunks and their infos, by position (most chunks are at the same place next time). */
  last: { chunks: readonly Buffer[]; infos: (ChunkInfo | undefined)[] };
}

export function createHashMemo(): HashMemo {
  return { chunks: new WeakMap(), last: { chunks: [], infos: [] } };
}

/** The bundle hash of a stored bundle's text (with `hash` = ""). */
export function hashBundleText(text: string | Buffer): string {
  return hashText(typeof text === 'string' ? Buffer.from(text, 'utf8') : text);
}

/**
 * The hash of the chunks joined. With a memo, parts made of the same chunks as before are not
 * hashed again; without one (a one-off build) the text is joined once and cut where it says.
 */
export function hashChunks(chunks: readonly Buffer[], memo?: HashMemo): string {
  if (memo === undefined) return hashText(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
  const parts = new Parts(memo);
  let tail: ChunkInfo['tail'] = 0;
  // The separator between pieces comes thousands of times: looked up once.
  let separator: ChunkInfo | undefined;
  const last = memo.last;
  const infos = new Array<ChunkInfo | undefined>(chunks.length);
  memo.last = { chunks, infos };
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i]!;
    if (chunk.length === 0) continue;
    const info = (infos[i] = last.chunks[i] === chunk ? last.infos[i]! : chunk === PIECE_SEPARATOR ? (separator ??= infoOf(chunk, memo)) : infoOf(chunk, memo));
    // A cut that spans chunks other than "\n" | `    "…` (never made by the emitter): the joined text is hashed instead.
    if (tail === 2 || (tail !== 0 && (info.tail === 3 || chunk.length < LEAD.length))) return hashChunks(chunks);
    if (tail === 1 && info.lead) parts.startAt(chunk, info, 0);
    else parts.add(chunk);
    for (const at of info.cuts) parts.cutAt(chunk, at);
    tail = info.tail === 3 ? 0 : info.tail;
  }
  return parts.finish();
}

/**
 * The parts of one hashing, in order: the current part is `first` from `start` on, then `rest`
 * (the last of them up to where the part ends); each finished part's digest is kept.
 */
class Parts {
  private readonly digests: Buffer[] = [];
  private first: Buffer | undefined;
  private firstInfo: ChunkInfo | undefined;
  private start = 0;
  private readonly rest: Buffer[] = [];

  constructor(private readonly memo: HashMemo) {}

  /** The chunk continues the current part (or begins the first one). */
  add(chunk: Buffer): void {
    if (this.first === undefined) this.begin(chunk, infoOf(chunk, this.memo), 0);
    else this.rest.push(chunk);
  }

  /** A part starts at the chunk's first byte; the current one ended with the previous chunk. */
  startAt(chunk: Buffer, info: ChunkInfo, at: 0): void {
    this.close(this.endOfLast());
    this.begin(chunk, info, at);
  }

  /** A part starts at `at` (> 0) inside the chunk, which the current part already holds. */
  cutAt(chunk: Buffer, at: number): void {
    this.close(at);
    this.begin(chunk, undefined, at);
  }

  finish(): string {
    this.close(this.endOfLast());
    return rootOf(this.digests);
  }

  private begin(chunk: Buffer, info: ChunkInfo | undefined, at: number): void {
    this.first = chunk;
    this.firstInfo = info;
    this.start = at;
    this.rest.length = 0; // one list for every part (a part's memo keeps a copy)
  }

  private endOfLast(): number {
    return this.rest.length === 0 ? (this.first?.length ?? 0) : this.rest[this.rest.length - 1]!.length;
  }

  private close(end: number): void {
    const first = this.first;
    if (first === undefined) return;
    const rest = this.rest;
    const info = this.start === 0 ? this.firstInfo : undefined;
    const hit = info?.part;
    if (hit !== undefined && hit.end === end && sameList(hit.rest, rest)) {
      this.digests.push(hit.digest);
      return;
    }
    const hash = crypto.createHash('sha256');
    if (rest.length === 0) hash.update(this.start === 0 && end === first.length ? first : first.subarray(this.start, end));
    else {
      hash.update(this.start === 0 ? first : first.subarray(this.start));
      for (let i = 0; i < rest.length; i++) {
        const c = rest[i]!;
        hash.update(i === rest.length - 1 && end !== c.length ? c.subarray(0, end) : c);
      }
    }
    const digest = hash.digest();
    if (info !== undefined) info.part = { rest: rest.slice(), end, digest };
    this.digests.push(digest);
  }
}

/** The hash of the whole text: each part's digest in one call (crypto.hash where node has it). */
function hashText(text: Buffer): string {
  const digests: Buffer[] = [];
  let start = 0;
  for (let i = text.indexOf(CUT); i !== -1; i = text.indexOf(CUT, i + 1)) {
    digests.push(digestOf(text.subarray(start, i + 1)));
    start = i + 1;
  }
  digests.push(digestOf(text.subarray(start)));
  return rootOf(digests);
}

/** The bundle hash from its parts' digests, in order. */
function rootOf(digests: readonly Buffer[]): string {
  return crypto.createHash('sha256').update(Buffer.concat(digests)).digest('hex');
}

/** crypto.hash (node 20.12 and later) skips making a Hash object per part. */
const oneShot = (crypto as { hash?: (algorithm: string, data: Buffer, encoding: 'buffer') => Buffer }).hash;

function digestOf(part: Buffer): Buffer {
  return oneShot !== undefined ? oneShot('sha256', part, 'buffer') : crypto.createHash('sha256').update(part).digest();
}

function infoOf(chunk: Buffer, memo: HashMemo): ChunkInfo {
  let info = memo.chunks.get(chunk);
  if (info === undefined) {
    const cuts: number[] = [];
    for (let i = chunk.indexOf(CUT); i !== -1; i = chunk.indexOf(CUT, i + 1)) cuts.push(i + 1);
    let j = chunk.length - 1;
    while (j >= 0 && chunk[j] === SPACE && chunk.length - 1 - j <= 4) j--;
    const spaces = chunk.length - 1 - j;
    const tail = j < 0 ? 3 : chunk[j] === NEWLINE && spaces <= 4 ? (spaces === 0 ? 1 : 2) : 0;
    info = { cuts, lead: chunk.length >= LEAD.length && chunk.subarray(0, LEAD.length).equals(LEAD), tail };
    memo.chunks.set(chunk, info);
  }
  return info;
}

/** A bundle hash fed piece by piece, like a crypto Hash (`agentc diff` streams a side's bytes into it). */
export interface PartsHash {
  update(data: string | Buffer, encoding?: 'utf8'): PartsHash;
  digest(encoding: 'hex'): string;
}

export function createPartsHash(): PartsHash {
  const chunks: Buffer[] = [];
  const self: PartsHash = {
    update: (data) => {
      chunks.push(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
      return self;
    },
    digest: () => hashChunks(chunks),
  };
  return self;
}
