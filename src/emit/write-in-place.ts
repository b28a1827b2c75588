/**
 * Watch mode's side of writeOutput: what the previous call left in the output
 * directory (WriteCache), and replacing only the changed files in place.
 *
 * Invariants:
 * - A cached file is trusted (neither read nor rewritten when its new content is
 *   the same) only while its stat stamp — inode, size, mtime, ctime — is the one
 *   recorded right after it was written; anything else on disk is compared by
 *   reading, as without a cache. (A same-size edit within one timestamp tick of
 *   our own write would go unnoticed; the next differing write repairs it.) With
 *   an output watcher (WriteCache.suspects), only the files it names are stat'ed
 *   again; the others keep their recorded stamps, and the directory is not listed
 *   again (`knownListing`) unless a suspect is a folder.
 * - Each changed file is replaced atomically: written in full to a temp file in
 *   its own directory, then renamed over the old one, so its path always names a
 *   complete file. Files are not replaced as a set: a reader may briefly see new
 *   prompts next to the old bundle.json (bundle.json is renamed last).
 * - A big file with a spare (WriteCache.spares, write-spares.ts) is written into the spare,
 *   which is renamed over it; its old inode becomes the next spare, nothing is freed.
 * - Any other replaced file's old inode is freed in the background: it gets a second name
 *   next to the output directory before the rename, removed afterwards without
 *   waiting. (Freeing an inode whose data the kernel is still writing back waits
 *   for that I/O: tens of ms per 36 MB bundle on ext4.) A next call with the
 *   directory as this one left it does not wait for them (nor for sweeping killed
 *   builds' leftovers, which it adds to the same background work); any other call
 *   awaits them before it starts, and sweeps any left by a killed process.
 *   `settled` waits for all of it.
 */
import { lstatSync, statSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import type { FileContent, OutputFiles } from './content.js';
import { makeDirs } from '../make-dirs.js';
import * as nodeFs from 'node:fs/promises';
import { GONE_TAG, nodeFsSync, siblingPath, STAGING_TAG, writeContent, type WriteFs } from './write-files.js';
import { dropSpare, fillSpare, replaceWithSpare, usesSpare, type Spares } from './write-spares.js';

/** What writeOutput last left in an output directory (one watch session). */
export interface WriteCache {
  /** Real path of that directory; undefined when nothing is known. */
  dir: string | undefined;
  /** Each file it holds: the content written and the stat stamp it had afterwards. */
  files: Map<string, { content: FileContent; stamp: string }>;
  /** Background removal of replaced files' second names. */
  freeing: Promise<void>;
  /**
   * The files something may have touched since the last call (an output watcher's names,
   * src/cli/watch-output.ts): only those are stat'ed, the others keep their recorded stamps;
   * 'all' stats every one. Each call reads it and sets it back to 'all'.
   */
  suspects: ReadonlySet<string> | 'all';
  /** Spare inodes for big files (watch mode sets them, write-spares.ts); none: every replaced file is freed. */
  spares?: Spares | undefined;
}

export function createWriteCache(): WriteCache {
  return { dir: undefined, files: new Map(), freeing: Promise.resolve(), suspects: 'all' };
}

/** Waits for the background work of earlier calls (tests and shutdown). */
export async function settled(cache: WriteCache): Promise<void> {
  await cache.freeing;
}

/**
 * Stat stamps of files below `dir` (a real path; `rels` are '/'-separated and
 * normalized, writeOutput checks them); a file that cannot be stat'ed gets none (it
 * is then compared by reading). Synchronous on purpose and outside the WriteFs
 * seam: a thousand stats take ~7 ms this way and ~30 ms through the thread pool,
 * and a missing stamp only costs a read, never correctness. Times are taken as
 * numbers (milliseconds, to a fraction of a microsecond): a stat with BigInts makes
 * a dozen of them per file, garbage a watch rebuild would collect for nothing.
 */
export function stampsOf(dir: string, rels: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const path = pathsIn(dir);
  for (const rel of rels) {
    const s = statSync(path(rel), { throwIfNoEntry: false });
    if (s?.isFile()) out.set(rel, `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`);
  }
  return out;
}

/**
 * Stamps of `rels` (files the last call left, see stampsOf): stat'ed when `suspects` is 'all' or
 * names them, otherwise the stamp recorded when they were written.
 */
export function knownStamps(dir: string, rels: readonly string[], known: WriteCache['files'], suspects: ReadonlySet<string> | 'all'): Map<string, string> {
  if (suspects === 'all') return stampsOf(dir, rels);
  const stamps = stampsOf(
    dir,
    rels.filter((rel) => suspects.has(rel)),
  );
  for (const rel of rels) if (!suspects.has(rel)) stamps.set(rel, known.get(rel)!.stamp);
  return stamps;
}

/**
 * The files below `dir` (a real path) when the last call left `known` there and only `suspects`
 * may have changed since (the output watcher names every change in the folders it watches,
 * src/cli/watch-output.ts): the known files, each suspect as it is now. Undefined (list the
 * directory) when a suspect is a folder: what is inside it was never watched.
 */
export function knownListing(dir: string, known: WriteCache['files'], suspects: ReadonlySet<string>): Map<string, 'file' | 'other'> | undefined {
  const out = new Map<string, 'file' | 'other'>();
  for (const rel of known.keys()) out.set(rel, 'file');
  const path = pathsIn(dir);
  for (const rel of suspects) {
    let s;
    try {
      s = lstatSync(path(rel), { throwIfNoEntry: false });
    } catch {
      return undefined; // a folder on its path replaced by a file, say: the listing says what is there
    }
    if (s === undefined) out.delete(rel);
    else if (s.isDirectory()) return undefined;
    else out.set(rel, s.isFile() ? 'file' : 'other');
  }
  return out;
}

/** The path of a '/'-separated relative path below `dir`, made by concatenation (no path.join per file). */
function pathsIn(dir: string): (rel: string) => string {
  const base = dir.endsWith(sep) ? dir : `${dir}${sep}`;
  return sep === '/' ? (rel) => `${base}${rel}` : (rel) => `${base}${rel.split('/').join(sep)}`;
}

/** Records what `dir` now holds; files without a stamp are left out (compared by reading next time). */
export function remember(cache: WriteCache, dir: string, files: OutputFiles, stamps: Map<string, string>, known?: WriteCache['files']): void {
  cache.dir = dir;
  for (const [rel, content] of files) {
    const stamp = stamps.get(rel);
    if (stamp === undefined || stamp === '') continue;
    // An unchanged file keeps its record (no new object per file and rebuild).
    const last = known?.get(rel);
    cache.files.set(rel, last !== undefined && last.content === content && last.stamp === stamp ? last : { content, stamp });
  }
}

/** Removes second names left by a killed process (they are garbage from the moment they are made). */
export async function sweepGone(target: string, fs: WriteFs): Promise<void> {
  const parent = dirname(target);
  const prefix = `.${basename(target)}.${GONE_TAG}-`;
  const names = await fs.readdir(parent).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => n.startsWith(prefix)).map((n) => fs.rm(join(parent, n), { force: true }).catch(() => undefined)));
}

/**
 * Replaces `written` files in place and removes `removed` ones. Throws on any
 * failure, having removed its temp files: files renamed before the failure stay
 * new, the others old — each complete.
 */
export async function updateInPlace(
  target: string,
  files: OutputFiles,
  change: { written: readonly string[]; removed: readonly string[] },
  fs: WriteFs,
  cache?: WriteCache,
): Promise<void> {
  const temps = new Map<string, string>();
  const gone: string[] = [];
  // Spares only through node's own file system, whose calls here are synchronous (the failure tests' seam gets none).
  const spares = cache !== undefined && fs === nodeFsSync ? cache.spares : undefined;
  const spared = new Set<string>();
  const replace = async (rel: string): Promise<void> => {
    const dest = join(target, rel);
    if (spared.has(rel)) return replaceWithSpare(spares!, rel, dest);
    if (cache) {
      const second = siblingPath(target, GONE_TAG);
      // No second name (no hard links, another file system, no old file): the rename frees the old inode itself.
      if (
        await fs.link(dest, second).then(
          () => true,
          () => false,
        )
      )
        gone.push(second);
    }
    await fs.rename(temps.get(rel)!, dest);
  };
  try {
    for (const dir of new Set(change.written.map((rel) => dirname(join(target, rel))))) await makeDirs(dir, fs);
    // Every new file is complete on disk before the first rename.
    await Promise.all(
      change.written.map(async (rel) => {
        const content = files.get(rel)!;
        if (usesSpare(spares, content)) {
          try {
            temps.set(rel, fillSpare(spares, rel, content));
            spared.add(rel);
            return;
          } catch {
            // Its folder was removed, say: this file (and from now on every file) is replaced as without spares.
            dropSpare(spares, rel);
            cache!.spares = undefined;
          }
        }
        const tmp = siblingPath(join(target, rel), STAGING_TAG);
        temps.set(rel, tmp);
        await writeContent(tmp, content, fs);
      }),
    );
    // bundle.json last: once it is new, every other file already is.
    await Promise.all(change.written.filter((rel) => rel !== 'bundle.json').map(replace));
    if (change.written.includes('bundle.json')) await replace('bundle.json');
  } catch (error) {
    for (const rel of spared) dropSpare(spares!, rel);
    await Promise.all([...temps.entries()].filter(([rel]) => !spared.has(rel)).map(([, p]) => fs.rm(p, { force: true }).catch(() => undefined)));
    throw error;
  } finally {
    if (cache && gone.length > 0) {
      const previous = cache.freeing;
      // Through the thread pool even when the build's own calls are synchronous: freeing is never waited for
      // (a plain unlink: the promise API's rm checks its path synchronously, on this thread).
      const free = (p: string): Promise<void> => (fs === nodeFsSync ? nodeFs.unlink(p) : fs.rm(p, { force: true }));
      cache.freeing = Promise.all([previous, ...gone.map((p) => free(p).catch(() => undefined))]).then(() => undefined);
    }
  }
  for (const rel of change.removed) await fs.rm(join(target, rel), { force: true });
  // Directories the removals emptied go too (a fresh build would not have them).
  const dirs = new Set(
    change.removed.flatMap((rel) =>
      rel
        .split('/')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
    ),
  );
  for (const dir of [...dirs].sort((a, b) => b.length - a.length)) await fs.rmdir(join(target, dir)).catch(() => undefined);
}
