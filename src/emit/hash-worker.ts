/**
 * The bundle hash made on a worker thread (watch mode), so the main thread goes
 * on making and writing the other files while the ~10 MB after the first
 * changed piece are hashed: the same hex digest as bundle-hash.ts's hashPieces,
 * the same resumable scheme (a state in front of every STRIDE-th segment).
 *
 * The bytes are sent once: each segment (the frame's head, a piece, a
 * separator, a tail chunk) gets a number while it is part of the last job — a
 * Buffer by identity, a string by value — and a job sends the numbers in order
 * plus only the segments the worker has not seen. Chunks never change once
 * made (content.ts), so identity is enough.
 *
 * Invariants: jobs are answered in the order they were sent; the worker keeps
 * exactly the last job's segments; a failed worker fails every pending and
 * later job (the caller hashes on its own thread then).
 */
import { Worker } from 'node:worker_threads';
import type { BundleFrame } from './cache.js';
import { PIECE_SEPARATOR } from './fragments.js';

/** Plain JavaScript, run with `eval` (the same code from src/ under the tests and from dist/). */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const STRIDE = 16;
let segments = new Map();
let last = new Int32Array(0);
let states = new Map();
parentPort.on('message', ({ job, order, freshIds, freshEnds, packed }) => {
  for (let i = 0, start = 0; i < freshIds.length; start = freshEnds[i++]) segments.set(freshIds[i], packed.subarray(start, freshEnds[i]));
  const limit = Math.min(order.length, last.length);
  let same = 0;
  while (same < limit && order[same] === last[same]) same++;
  let from = Math.floor(same / STRIDE) * STRIDE;
  const resume = from > 0 ? states.get(from) : undefined;
  if (resume === undefined) from = 0;
  const next = new Map();
  for (const [i, state] of states) if (i < from) next.set(i, state);
  const hash = resume !== undefined ? resume.copy() : createHash('sha256');
  for (let i = from; i < order.length; i++) {
    if (i % STRIDE === 0) next.set(i, i === from && resume !== undefined ? resume : hash.copy());
    hash.update(segments.get(order[i]));
  }
  parentPort.postMessage({ job, hex: hash.digest('hex') });
  states = next;
  last = order;
  const kept = new Map();
  for (const id of order) kept.set(id, segments.get(id));
  segments = kept;
});
`;

export interface BundleHasher {
  /** The hex SHA-256 of frame.head + pieces joined by ",\n" + frame.tail (hashPieces' bytes). */
  hash(frame: BundleFrame, pieces: readonly Buffer[]): Promise<string>;
  /** Stops the worker; pending jobs fail. */
  close(): Promise<void>;
}

export function createBundleHasher(): BundleHasher {
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  worker.unref();
  let failure: Error | undefined;
  // The last job's segments and their numbers: exactly what the worker holds.
  let last: { segments: (string | Buffer)[]; ids: Int32Array } = { segments: [], ids: new Int32Array(0) };
  let nextId = 1;
  let nextJob = 1;
  const waiting = new Map<number, { resolve: (hex: string) => void; reject: (e: Error) => void }>();
  const fail = (e: Error): void => {
    failure ??= e;
    for (const w of waiting.values()) w.reject(failure);
    waiting.clear();
  };
  worker.on('message', ({ job, hex }: { job: number; hex: string }) => {
    waiting.get(job)?.resolve(hex);
    waiting.delete(job);
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the bundle hash worker exited (code ${code})`)));

  return {
    hash(frame, pieces) {
      if (failure) return Promise.reject(failure);
      const segments: (string | Buffer)[] = [frame.head];
      pieces.forEach((p, i) => {
        if (i > 0) segments.push(PIECE_SEPARATOR);
        segments.push(p);
      });
      if (typeof frame.tail === 'string') segments.push(frame.tail);
      else for (const chunk of frame.tail) segments.push(chunk);
      const ids = sameAsLast(segments, last);
      // The segments the worker lacks, copied into one buffer that is handed over (not cloned):
      // posting thousands of small buffers (a first build: all of them) costs ~10 µs each.
      const fresh: Uint8Array[] = [];
      const freshIds: number[] = [];
      let bytes = 0;
      segments.forEach((s, i) => {
        if (ids[i] !== 0) return;
        ids[i] = nextId++;
        const b = typeof s === 'string' ? Buffer.from(s, 'utf8') : s;
        fresh.push(b);
        freshIds.push(ids[i]!);
        bytes += b.byteLength;
      });
      const packed = new Uint8Array(bytes);
      const freshEnds = new Int32Array(fresh.length);
      let at = 0;
      fresh.forEach((b, i) => {
        packed.set(b, at);
        freshEnds[i] = at += b.byteLength;
      });
      const job = nextJob++;
      return new Promise<string>((resolve, reject) => {
        waiting.set(job, { resolve, reject });
        try {
          worker.postMessage({ job, order: ids, freshIds: Int32Array.from(freshIds), freshEnds, packed }, [packed.buffer]);
          last = { segments, ids };
        } catch (e) {
          waiting.delete(job);
          reject(e as Error);
        }
      });
    },
    async close() {
      fail(new Error('the bundle hash worker was closed'));
      await worker.terminate();
    },
  };
}

/**
 * Each segment's number in the last job, or 0 for one it did not have: matched by position
 * from the start and from the end (a build changes a few segments in place), and the rest
 * by identity (a Buffer) or value (a string) among the last job's segments in between.
 */
function sameAsLast(segments: readonly (string | Buffer)[], last: { segments: readonly (string | Buffer)[]; ids: Int32Array }): Int32Array {
  const ids = new Int32Array(segments.length);
  const n = segments.length;
  const m = last.segments.length;
  let start = 0;
  while (start < n && start < m && segments[start] === last.segments[start]) ids[start] = last.ids[start++]!;
  let end = 0;
  while (end < n - start && end < m - start && segments[n - 1 - end] === last.segments[m - 1 - end]) {
    ids[n - 1 - end] = last.ids[m - 1 - end]!;
    end++;
  }
  if (start + end === n) return ids;
  const between = new Map<string | Buffer, number>();
  for (let i = start; i < m - end; i++) between.set(last.segments[i]!, last.ids[i]!);
  for (let i = start; i < n - end; i++) ids[i] = between.get(segments[i]!) ?? 0;
  return ids;
}
