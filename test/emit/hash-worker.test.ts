/**
 * The bundle hash on a worker thread (src/emit/hash-worker.ts): after any sequence of
 * changes to the frame and pieces — pieces replaced, inserted, removed, the head and
 * tail changed, the tail as text or as chunks, chunks shared between places — its
 * digest is SHA-256 of the joined bytes, the same as hashPieces on this thread.
 */
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { hashPieces, type HashCheckpoints } from '../../src/emit/bundle-hash.js';
import type { BundleFrame } from '../../src/emit/cache.js';
import { createBundleHasher } from '../../src/emit/hash-worker.js';

const hasher = createBundleHasher();
afterAll(() => hasher.close());

function joined(frame: BundleFrame, pieces: readonly Buffer[]): Buffer {
  const tail = typeof frame.tail === 'string' ? [Buffer.from(frame.tail)] : frame.tail;
  return Buffer.concat([Buffer.from(frame.head), ...pieces.flatMap((p, i) => (i > 0 ? [Buffer.from(',\n'), p] : [p])), ...tail]);
}

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

describe('the bundle hash worker', () => {
  it('gives the digest of the joined bytes, round after round of random changes', async () => {
    let seed = 11;
    const rand = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const shared = Buffer.from('    "shared": {}');
    // Views into one big buffer, as emission makes them: only the view's bytes count.
    const big = Buffer.from('x'.repeat(4096) + '    "view": {"v": 1}' + 'y'.repeat(4096));
    const view = big.subarray(4096, 4096 + 20);
    let pieces: Buffer[] = Array.from({ length: 90 }, (_, i) => (i % 13 === 0 ? shared : i === 40 ? view : Buffer.from(`    "a${i}": {}`)));
    let frame: BundleFrame = { head: '{\n  "agents": {\n', tail: Array.from({ length: 50 }, (_, i) => Buffer.from(`,\n "t${i}": ${i}`)) };
    const memo: { hashCheckpoints?: HashCheckpoints } = {};
    for (let round = 0; round < 80; round++) {
      const expected = sha(joined(frame, pieces));
      expect(await hasher.hash(frame, pieces), `round ${round}`).toBe(expected);
      expect(hashPieces(frame, pieces, memo)).toBe(expected);
      const next = [...pieces];
      const at = rand(next.length + 1);
      const op = rand(6);
      if (op === 0 && at < next.length) next[at] = Buffer.from(`    "a${at}": {"r":${round}}`);
      else if (op === 1 || next.length < 2) next.splice(at, 0, rand(2) === 0 ? shared : Buffer.from(`    "n${round}": {}`));
      else if (op === 2) next.splice(Math.min(at, next.length - 1), 1);
      else if (op === 3) frame = { ...frame, head: `{\n  "r": ${round},\n  "agents": {\n` };
      else if (op === 4 && typeof frame.tail !== 'string') {
        const tail = [...frame.tail];
        tail[rand(tail.length)] = Buffer.from(`,\n "changed": ${round}`);
        frame = { ...frame, tail };
      } else frame = { ...frame, tail: round % 2 === 0 ? `\n  }\n}\n` : Array.from({ length: 30 + rand(30) }, (_, i) => Buffer.from(`,\n "t${i}": ${round}`)) };
      pieces = round % 23 === 22 ? next.slice(0, rand(next.length)) : next;
    }
    expect(await hasher.hash(frame, [])).toBe(sha(joined(frame, [])));
  });

  it('fails every job once closed (the caller then hashes on its own thread)', async () => {
    const closed = createBundleHasher();
    const frame: BundleFrame = { head: '{', tail: '}' };
    expect(await closed.hash(frame, [Buffer.from('1')])).toBe(sha(Buffer.from('{1}')));
    await closed.close();
    await expect(closed.hash(frame, [Buffer.from('1')])).rejects.toThrow(/closed/);
  });
});
