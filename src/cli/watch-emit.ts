/**
 * Watch mode's files for a build: the bundle made with the session's EmitCache,
 * its files, and the output's stamps taken for the write that follows — only of
 * the files the output watcher names (src/cli/watch-output.ts); the others keep
 * the stamps recorded when they were written. The same files, byte for byte, as
 * emitFiles(createBundle(…)).
 */
import { createBundle } from '../emit/bundle.js';
import type { EmitCache } from '../emit/cache.js';
import type { FileContent } from '../emit/content.js';
import { emitFiles } from '../emit/files.js';
import { statAhead } from '../emit/write.js';
import type { Program } from '../resolve/types.js';
import { OutputWatcher } from './watch-output.js';

export interface WatchEmitter {
  /**
   * Every generated file of `program`'s bundle (emitFiles' map), with the output's stamps
   * taken for the write that follows. A rehearsal (`rehearsal`: nothing is written after it)
   * stats every file and leaves the output watcher's suspects for the next build.
   */
  files(program: Program, rehearsal?: boolean): Map<string, FileContent>;
  close(): void;
}

/** `outDir`: the output folder, watched so that only files something touched are stat'ed; none: every file is. */
export function createWatchEmitter(cache: EmitCache, agentcVersion: string, outDir?: string): WatchEmitter {
  const output = outDir === undefined ? undefined : new OutputWatcher(outDir);
  return {
    files(program, rehearsal = false) {
      const files = emitFiles(createBundle(program, agentcVersion, cache), cache);
      statAhead(cache.written, output === undefined || rehearsal ? 'all' : output.take(foldersOf(files.keys())));
      return files;
    },
    close() {
      output?.close();
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
