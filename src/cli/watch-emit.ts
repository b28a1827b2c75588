/**
 * Watch mode's files for a build: the bundle is made with the session's EmitCache
 * and its hash on a worker thread (src/emit/hash-worker.ts), while this thread makes
 * the other files and takes the output's stamps (statAhead); then bundle.json is
 * made with the hash. The same files, byte for byte, as emitFiles(createBundle(…)).
 *
 * Invariant: a worker that cannot start or fails is reported once on stderr (a
 * developer's message) and the hash is made on this thread from then on.
 */
import { draftBundle, sealBundle } from '../emit/bundle.js';
import { hashPieces } from '../emit/bundle-hash.js';
import type { EmitCache } from '../emit/cache.js';
import type { FileContent } from '../emit/content.js';
import { emitFiles } from '../emit/files.js';
import { bundleJsonChunks } from '../emit/fragments.js';
import { createBundleHasher, type BundleHasher } from '../emit/hash-worker.js';
import { statAhead } from '../emit/write.js';
import type { Program } from '../resolve/types.js';

export interface WatchEmitter {
  /** Every generated file of `program`'s bundle (emitFiles' map). */
  files(program: Program): Promise<Map<string, FileContent>>;
  close(): Promise<void>;
}

export function createWatchEmitter(cache: EmitCache, agentcVersion: string, warn: (message: string) => void, hasher = startHasher(warn)): WatchEmitter {
  let worker = hasher;
  return {
    async files(program) {
      const draft = draftBundle(program, agentcVersion, cache);
      const hashing = worker?.hash(draft.layout.frame, draft.layout.pieces);
      const files = emitFiles(draft.unhashed, cache);
      statAhead(cache.written);
      let hash: string | undefined;
      if (hashing) {
        hash = await hashing.catch((e: unknown) => {
          warn(`agentc: the bundle hash worker failed; hashing on the main thread from now on: ${(e as Error).message}\n`);
          worker = undefined;
          return undefined;
        });
      }
      hash ??= hashPieces(draft.layout.frame, draft.layout.pieces, cache);
      files.set('bundle.json', bundleJsonChunks(sealBundle(draft.unhashed, hash, cache), cache));
      return files;
    },
    async close() {
      await worker?.close();
    },
  };
}

function startHasher(warn: (message: string) => void): BundleHasher | undefined {
  try {
    return createBundleHasher();
  } catch (e) {
    warn(`agentc: could not start the bundle hash worker; hashing on the main thread: ${(e as Error).message}\n`);
    return undefined;
  }
}
