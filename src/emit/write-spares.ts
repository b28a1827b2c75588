/**
 * Spare inodes for big output files in watch mode: a replaced bundle.json is not freed but
 * kept, and the next rebuild writes its new content into it and renames it into place. The
 * file's pages are reused instead of being freed and allocated again for each rebuild.
 *
 * Why: at 1,000 cards bundle.json is 12 MB and a one-block edit rewrites all of it. On the
 * machines agentc is measured on (virtual, ext4), allocating 12 MB of new page cache and
 * freeing the old file's 12 MB take ~5 and ~8 ms of kernel time per rebuild, and a save
 * made while the old file is being freed waits for it (~7 ms). Writing into a spare's pages
 * takes ~2.5 ms and frees nothing.
 *
 * Invariants:
 * - Each file keeps at most two inodes: the one its path names and one spare, under one of
 *   two slot names in this process's own folder (`slotPath`). A spare is written in full
 *   (then cut to the new length) before it is renamed over the file, so the path always
 *   names a complete file, as with a fresh temp file.
 * - The inode a spare is made from stopped being the file at the rebuild before the one
 *   that writes into it: a reader that opened the file before that rebuild and still reads
 *   it when the next one writes would see it change. Readers that read the file at once
 *   (the runtime's readBundle, editors, git) never see a partial file.
 * - Only files of at least SPARE_MIN_BYTES get spares (prompt files are kilobytes: freeing
 *   them costs next to nothing), only through node's own file system, and only where the
 *   folder is on the output's file system (else every file is replaced as before).
 * - The folder is removed when the watcher stops (`dropSpares`); one left by a killed
 *   process is removed by the next watcher that uses the same base folder (`sweepSpares`).
 */
import { linkSync, readdirSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { makeDirsSync } from '../make-dirs.js';
import { contentByteLength, type FileContent } from './content.js';
import { processRuns, writeContentSync } from './write-files.js';

/** `.generated.agentc-spare`: the folder of spares next to an output directory without a cache folder. */
export const SPARE_TAG = 'agentc-spare';

/** Files smaller than this are replaced by a fresh temp file, their old inode freed. */
export const SPARE_MIN_BYTES = 1 << 20;

export interface Spares {
  /** This process's folder of spare files. */
  dir: string;
  /** By output path ('/'-separated): the slot (0 or 1) whose name holds the file's spare. */
  slots: Map<string, 0 | 1>;
  /** Files of at least this many bytes get spares (SPARE_MIN_BYTES; tests use less). */
  minBytes: number;
}

/**
 * Spares in a new folder `base`/<pid>-<random> (one per watcher, even two in one process) for an
 * output directory `outDir` (which must exist), or undefined when `base` is not on its file system
 * (a rename cannot move a spare into place) or cannot be made.
 */
export function createSpares(base: string, outDir: string, minBytes = SPARE_MIN_BYTES): Spares | undefined {
  try {
    sweepSpares(base);
    const dir = join(base, `${process.pid}-${randomBytes(4).toString('hex')}`);
    makeDirsSync(dir);
    if (statSync(dir).dev !== statSync(outDir).dev) {
      rmSync(dir, { recursive: true, force: true });
      return undefined;
    }
    return { dir, slots: new Map(), minBytes };
  } catch {
    return undefined;
  }
}

/** Whether a file with this content is written through a spare. */
export function usesSpare(spares: Spares | undefined, content: FileContent): spares is Spares {
  if (spares === undefined) return false;
  return contentByteLength(content) >= spares.minBytes;
}

/**
 * Writes `content` into the file's spare (a new file in its slot when it has none) and returns
 * the spare's path, to be renamed over the file by `replaceWithSpare`.
 */
export function fillSpare(spares: Spares, rel: string, content: FileContent): string {
  const slot = spares.slots.get(rel);
  const path = slotPath(spares, rel, slot ?? 0);
  // An existing spare is written over in place (its pages are reused), then cut to the new length.
  writeContentSync(path, content, slot !== undefined);
  spares.slots.set(rel, slot ?? 0);
  return path;
}

/**
 * Renames the spare filled for `rel` over `dest`; the inode `dest` named before gets the other
 * slot's name and is the next spare. When it cannot get one (no old file), the file has no spare
 * until the next rebuild makes one.
 */
export function replaceWithSpare(spares: Spares, rel: string, dest: string): void {
  const slot = spares.slots.get(rel) ?? 0;
  const other = slot === 0 ? 1 : 0;
  const next = slotPath(spares, rel, other);
  rmSync(next, { force: true });
  let kept = true;
  try {
    linkSync(dest, next);
  } catch {
    kept = false;
  }
  renameSync(slotPath(spares, rel, slot), dest);
  if (kept) spares.slots.set(rel, other);
  else spares.slots.delete(rel);
}

/** Forgets the file's spare (after a failed write: its content is unknown). */
export function dropSpare(spares: Spares, rel: string): void {
  const slot = spares.slots.get(rel);
  spares.slots.delete(rel);
  if (slot !== undefined) rmSync(slotPath(spares, rel, slot), { force: true });
}

/** Removes this process's folder of spares, and the folder it is in once that is empty (the watcher stops). */
export function dropSpares(spares: Spares): void {
  spares.slots.clear();
  try {
    rmSync(spares.dir, { recursive: true, force: true });
    rmdirSync(dirname(spares.dir));
  } catch {
    // another watcher's spares are in it, or it is gone already
  }
}

/** A watcher's spares for `outDir`: in the cache folder when it is on the output's file system, else next to the output folder. */
export function openSpares(outDir: string, cacheDir: string | undefined, minBytes?: number): Spares | undefined {
  const inCache = cacheDir !== undefined ? createSpares(sparesBase(outDir, cacheDir), outDir, minBytes) : undefined;
  return inCache ?? createSpares(sparesBase(outDir, undefined), outDir, minBytes);
}

/**
 * Where a watcher keeps its spares for `outDir`: the persistent cache's folder when there is one,
 * else a hidden folder next to the output directory (as its staging directories are).
 */
export function sparesBase(outDir: string, cacheDir: string | undefined): string {
  return cacheDir !== undefined ? join(cacheDir, 'watch-spares') : join(dirname(outDir), `.${basename(outDir)}.${SPARE_TAG}`);
}

/** Removes the folders of spares left by processes that no longer run. */
export function sweepSpares(base: string): void {
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^(\d+)-[0-9a-f]+$/.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || processRuns(pid)) continue;
    try {
      rmSync(join(base, name), { recursive: true, force: true });
    } catch {
      // litter at worst; the next sweep tries again
    }
  }
}

/** The name of one of the file's two slots: the path with its separators escaped, so every output file has its own. */
function slotPath(spares: Spares, rel: string, slot: 0 | 1): string {
  return join(spares.dir, `${encodeURIComponent(rel)}.${slot}`);
}
