/**
 * Watch mode's files for a build: the bundle is made with the session's EmitCache
 * and its hash on a worker thread (src/emit/hash-worker.ts), while this thread makes
 * the other files and takes the output's stamps (statAhead: only of the files the
 * output watcher names, src/cli/watch-output.ts); then bundle.json is made with
 * the hash. The same files, byte for byte, as emitFiles(createBundle(…)).
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
import { OutputWatcher } from './watch-output.js';

export interface WatchEmitter {
  /**
   * Every generated file of `program`'s bundle (emitFiles' map), with the output's stamps
   * taken for the write that follows. A rehearsal (`rehearsal`: nothing is written after it)
   * stats every file and leaves the output watcher's suspects for the next build.
   */
  files(program: Program, rehearsal?: boolean): Promise<Map<string, FileContent>>;
  close(): Promise<void>;
}

export interface WatchEmitterOptions {
  /** The output folder: watched (src/cli/watch-output.ts) so that only files something touched are stat'ed. */
  outDir?: string;
  /** Default: a worker thread (createBundleHasher). */
  hasher?: BundleHasher | undefined;
}

export function createWatchEmitter(cache: EmitCache, agentcVersion: string, warn: (message: string) => void, options: WatchEmitterOptions = {}): WatchEmitter {
  let worker = 'hasher' in options ? options.hasher : startHasher(warn);
  const output = options.outDir === undefined ? undefined : new OutputWatcher(options.outDir);
  return {
    async files(program, rehearsal = false) {
      const draft = draftBundle(program, agentcVersion, cache);
      const hashing = worker?.hash(draft.layout.frame, draft.layout.pieces);
      const files = emitFiles(draft.unhashed, cache);
      statAhead(cache.written, output === undefined || rehearsal ? 'all' : output.take(foldersOf(files.keys())));
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
      output?.close();
      await worker?.close();
    },
  };
}

/** The folders that hold the files ('' for the output folder itself). */
function foldersOf(paths: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const p of paths) {
    const at = p.lastIndexOf('/');
    out.add(at === -1 ? '' : p.slice(0, at));
  }
  return out;
}

function startHasher(warn: (message: string) => void): BundleHasher | undefined {
  try {
    return createBundleHasher();
  } catch (e) {
    warn(`agentc: could not start the bundle hash worker; hashing on the main thread: ${(e as Error).message}\n`);
    return undefined;
  }
}
