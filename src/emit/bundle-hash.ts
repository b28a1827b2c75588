/**
 * The bundle hash (SHA-256 of canonical JSON with `hash` = ""), streamed over the
 * frame and the per-agent pieces, resumable: SHA-256 runs front to back, so the
 * state after the unchanged leading pieces is the same as last time. Each build
 * keeps the state in front of every piece; the next one resumes in front of
 * the first piece that is not the same Buffer object as before.
 *
 * Invariant: states[i] is the hash of head + pieces[0..i) each followed by the
 * separator, i.e. exactly the bytes before pieces[i]. States are only copied,
 * never finished.
 */
import { createHash, type Hash } from 'node:crypto';
import type { BundleFrame } from './cache.js';
import { PIECE_SEPARATOR } from './fragments.js';

export interface HashCheckpoints {
  head: string;
  pieces: readonly Buffer[];
  states: Hash[];
}

/** The hex digest of frame.head + pieces joined by ",\n" + frame.tail; updates `memo.hashCheckpoints`. */
export function hashPieces(frame: BundleFrame, pieces: readonly Buffer[], memo: { hashCheckpoints?: HashCheckpoints | undefined }): string {
  if (pieces.length === 0) {
    memo.hashCheckpoints = undefined;
    return createHash('sha256').update(frame.head, 'utf8').update(frame.tail, 'utf8').digest('hex');
  }
  const last = memo.hashCheckpoints;
  let from = 0;
  if (last !== undefined && last.head === frame.head) {
    const limit = Math.min(pieces.length, last.pieces.length);
    while (from < limit && pieces[from] === last.pieces[from]) from++;
    if (from === limit) from = limit - 1; // resume in front of the last shared piece: its state exists
  }
  const states: Hash[] = from > 0 ? last!.states.slice(0, from) : [];
  let hash = from > 0 ? last!.states[from]!.copy() : createHash('sha256').update(frame.head, 'utf8');
  for (let i = from; i < pieces.length; i++) {
    states.push(hash.copy());
    hash.update(pieces[i]!);
    if (i < pieces.length - 1) hash.update(PIECE_SEPARATOR);
  }
  memo.hashCheckpoints = { head: frame.head, pieces: [...pieces], states };
  hash.update(frame.tail, 'utf8');
  return hash.digest('hex');
}
