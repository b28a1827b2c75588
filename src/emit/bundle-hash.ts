/**
 * The bundle hash (SHA-256 of canonical JSON with `hash` = ""), streamed over the
 * frame and the per-agent pieces, resumable: SHA-256 runs front to back, so the
 * state after the unchanged leading pieces is the same as last time. Each build
 * keeps the state in front of every STRIDE-th piece; the next one resumes at the
 * last such checkpoint before the first piece that is not the same Buffer object
 * as before (on average half the bytes are hashed again, plus < STRIDE pieces).
 *
 * Invariant: states.get(i) is the hash of head + pieces[0..i) each followed by
 * the separator, i.e. exactly the bytes before pieces[i]. States are only
 * copied, never finished.
 */
import { createHash, type Hash } from 'node:crypto';
import type { BundleFrame } from './cache.js';
import { PIECE_SEPARATOR } from './fragments.js';

const STRIDE = 16;

export interface HashCheckpoints {
  head: string;
  pieces: readonly Buffer[];
  /** By piece index, every STRIDE-th. */
  states: Map<number, Hash>;
}

/** The hex digest of frame.head + pieces joined by ",\n" + frame.tail; updates `memo.hashCheckpoints`. */
export function hashPieces(frame: BundleFrame, pieces: readonly Buffer[], memo: { hashCheckpoints?: HashCheckpoints | undefined }): string {
  const last = memo.hashCheckpoints;
  let same = 0;
  if (last !== undefined && last.head === frame.head) {
    const limit = Math.min(pieces.length, last.pieces.length);
    while (same < limit && pieces[same] === last.pieces[same]) same++;
  }
  // The last checkpoint at or before the first differing piece (both runs have it: it is < both lengths or 0).
  let from = Math.floor(same / STRIDE) * STRIDE;
  if (from >= pieces.length || from >= (last?.pieces.length ?? 0)) from = Math.max(0, from - STRIDE);
  const resume = from > 0 ? last?.states.get(from) : undefined;
  if (resume === undefined) from = 0;
  const states = new Map<number, Hash>();
  for (const [i, state] of last?.states ?? []) if (i < from) states.set(i, state);
  const hash = resume !== undefined ? resume.copy() : createHash('sha256').update(frame.head, 'utf8');
  for (let i = from; i < pieces.length; i++) {
    if (i % STRIDE === 0) states.set(i, i === from && resume !== undefined ? resume : hash.copy());
    hash.update(pieces[i]!);
    if (i < pieces.length - 1) hash.update(PIECE_SEPARATOR);
  }
  memo.hashCheckpoints = pieces.length > 0 ? { head: frame.head, pieces: [...pieces], states } : undefined;
  if (typeof frame.tail === 'string') hash.update(frame.tail, 'utf8');
  else for (const chunk of frame.tail) hash.update(chunk);
  return hash.digest('hex');
}
