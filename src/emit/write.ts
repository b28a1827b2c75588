/**
 * Writing the output directory, atomically.
 *
 * Strategy: build the complete new directory in a staging directory next to
 * `outDir` (same parent, so the same file system and `rename` is atomic), then
 * swap: rename outDir → backup, staging → outDir, delete the backup. Any failure
 * before the swap deletes the staging directory and leaves `outDir` untouched; a
 * failure of the second rename renames the backup back. A process killed between
 * the two renames leaves the previous output in the backup, which the next
 * `writeOutput` restores before it starts. An output directory that cannot be
 * renamed at all (a mount point) is updated file by file instead, each file
 * replaced atomically (see updateInPlace).
 *
 * Unchanged files keep their bytes, inode and mtime: they are hard-linked from
 * the old directory into the staging directory (copied with their timestamps
 * where the file system has no hard links). When nothing changed at all, nothing
 * is touched: no staging directory, no swap.
 *
 * With a WriteCache (watch mode), files the previous call wrote and that are
 * still as it left them are neither read nor rewritten, and only the changed
 * files are replaced, each atomically, without swapping the directory (see
 * write-in-place.ts). Should that fail, the directory swap makes it right.
 */
import * as nodeFs from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { compareCodeUnits } from '../bundle/canonical-json.js';
import { makeDirs } from '../make-dirs.js';
import { contentByteLength, contentEquals, contentToString, sameContent, type FileContent, type OutputFiles } from './content.js';
import { BACKUP_TAG, forEachConcurrently, nodeFsSync, pauses, processRuns, siblingPath, STAGING_TAG, writeContent, type WriteFs } from './write-files.js';
import { knownListing, knownStamps, remember, stampsOf, sweepGone, updateInPlace, type WriteCache } from './write-in-place.js';

export type { WriteFs } from './write-files.js';
export { createWriteCache, settled, type WriteCache } from './write-in-place.js';

/** Files written at once into a staging directory (libuv's pool has 4 threads by default). */
const WRITE_CONCURRENCY = 8;

export interface WriteResult {
  /** New or changed files (relative paths, sorted). */
  written: string[];
  /** Files whose content was already up to date (kept as they were). */
  unchanged: string[];
  /** Files in the old directory that the new output does not have. */
  removed: string[];
}

export interface CheckResult {
  /** Present but with different content. */
  stale: string[];
  /** Expected but absent. */
  missing: string[];
  /** Present but not part of the output. */
  extra: string[];
}

export async function writeOutput(outDir: string, files: OutputFiles, fs: WriteFs = nodeFs, cache?: WriteCache): Promise<WriteResult> {
  for (const rel of files.keys()) assertRelative(rel);
  let target = resolve(outDir);
  // Watch, after a call that succeeded, with the directory still there: nothing to restore; killed
  // builds' leftovers and the last calls' replaced files are removed in the background, never on
  // the way to this build's output (settled() waits for them).
  const background = fs;
  // Watch, through node's own file system: the calls on the way to the output are made synchronously (nodeFsSync).
  if (cache?.dir !== undefined && fs === nodeFs) fs = nodeFsSync;
  let exists = cache?.dir !== undefined && (await isDirectory(target, fs));
  if (exists) {
    cache!.freeing = Promise.all([cache!.freeing, sweepAbandoned(target, background).catch(() => undefined)]).then(() => undefined);
  } else {
    await restoreInterrupted(target, fs);
    await sweepAbandoned(target, fs);
    if (cache) await cache.freeing;
    if (cache?.dir === undefined) await sweepGone(target, fs);
    exists = await isDirectory(target, fs);
  }
  if (exists) target = await fs.realpath(target);
  const known = exists && cache?.dir === target ? cache.files : undefined;
  const suspects = cache?.suspects ?? 'all';
  // With an output watcher's suspects, the directory holds what the last call left but for them (write-in-place.ts knownListing).
  const existing = exists
    ? ((known && suspects !== 'all' ? knownListing(target, known, suspects) : undefined) ?? (await listFiles(target, fs)))
    : new Map<string, 'file' | 'other'>();
  if (cache) {
    cache.dir = undefined; // until this call has succeeded
    cache.files = new Map();
    cache.suspects = 'all';
  }
  if (known) return writeKnown(target, files, existing, known, suspects, fs, cache!);

  // One pass over the files, each made (files.get) once: compared with the old file, then
  // written into the staging directory, which is made at the first change. Unchanged files
  // are hard-linked into it at the end; when nothing changed, nothing is touched.
  const removed = [...existing.keys()].filter((rel) => !files.has(rel));
  const written: string[] = [];
  const unchanged: string[] = [];
  const paths = [...files.keys()];
  const staging = siblingPath(target, STAGING_TAG);
  let staged: Promise<void> | undefined;
  const stage = (): Promise<void> => (staged ??= makeStaging(staging, paths, fs));
  try {
    if (!exists || removed.length > 0) await stage();
    // Several files in flight: creating and filling a file is mostly the kernel's work, which the thread pool overlaps.
    const pause = pauses();
    await forEachConcurrently(paths, WRITE_CONCURRENCY, async (rel) => {
      await pause();
      const content = files.get(rel)!;
      if (existing.get(rel) === 'file' && contentEquals(content, await fs.readFile(join(target, rel)))) {
        unchanged.push(rel);
        return;
      }
      written.push(rel);
      await stage();
      await writeContent(join(staging, rel), content, fs);
    });
    if (staged !== undefined) await forEachConcurrently(unchanged, WRITE_CONCURRENCY, (rel) => keepFile(join(target, rel), join(staging, rel), fs));
  } catch (error) {
    if (staged !== undefined) await fs.rm(staging, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
  const result = { written: written.sort(compareCodeUnits), unchanged: unchanged.sort(compareCodeUnits), removed: removed.sort(compareCodeUnits) };
  if (staged === undefined) {
    if (cache) remember(cache, target, files, stampsOf(target, paths));
    return result;
  }
  const swapped = await swap(target, staging, exists, fs);
  if (!swapped) await updateInPlace(target, files, result, fs);
  if (cache) {
    const final = await fs.realpath(target);
    remember(cache, final, files, stampsOf(final, paths));
  }
  return result;
}

/** A new staging directory with every folder the files go in. */
async function makeStaging(staging: string, paths: readonly string[], fs: WriteFs): Promise<void> {
  await makeDirs(dirname(staging), fs);
  await fs.mkdir(staging);
  for (const dir of new Set(paths.map((rel) => dirname(join(staging, rel))))) await makeDirs(dir, fs);
}

/**
 * Watch mode, with the output directory as this WriteCache last left it: a file it wrote
 * whose stat stamp is unchanged is compared with what was written, not read; only the
 * changed files are replaced, each atomically (write-in-place.ts). Should that fail, the
 * directory swap makes the whole directory right.
 */
async function writeKnown(
  target: string,
  files: OutputFiles,
  existing: Map<string, 'file' | 'other'>,
  known: WriteCache['files'],
  suspects: WriteCache['suspects'],
  fs: WriteFs,
  cache: WriteCache,
): Promise<WriteResult> {
  const stamps = knownStamps(
    target,
    [...files.keys()].filter((rel) => known.has(rel) && existing.get(rel) === 'file'),
    known,
    suspects,
  );
  const written: string[] = [];
  const unchanged: string[] = [];
  const same = new Set<string>();
  for (const [rel, content] of files) {
    if (existing.get(rel) !== 'file') {
      written.push(rel);
      continue;
    }
    const before = known.get(rel);
    const isSame =
      before !== undefined && before.stamp === stamps.get(rel)
        ? sameContent(before.content, content)
        : contentEquals(content, await fs.readFile(join(target, rel)));
    if (isSame) {
      same.add(rel);
      unchanged.push(rel);
    } else {
      written.push(rel);
    }
  }
  const removed = [...existing.keys()].filter((rel) => !files.has(rel));
  const result = { written: written.sort(compareCodeUnits), unchanged: unchanged.sort(compareCodeUnits), removed: removed.sort(compareCodeUnits) };
  if (written.length === 0 && removed.length === 0) {
    remember(cache, target, files, stamps.size === files.size ? stamps : stampsOf(target, [...files.keys()]), known);
    return result;
  }
  // Only the changed files, each replaced atomically. Should that fail, the swap below
  // still makes the whole directory right (it rewrites every file this touched; the
  // others it hard-links are untouched).
  try {
    await updateInPlace(target, files, result, fs, cache);
    const fresh = stampsOf(target, result.written);
    for (const rel of result.unchanged) fresh.set(rel, stamps.get(rel) ?? '');
    remember(cache, target, files, fresh, known);
    return result;
  } catch {
    // fall through to the swap
  }
  const staging = siblingPath(target, STAGING_TAG);
  try {
    await makeStaging(staging, [...files.keys()], fs);
    await forEachConcurrently([...files], WRITE_CONCURRENCY, async ([rel, content]) => {
      const dest = join(staging, rel);
      if (same.has(rel)) await keepFile(join(target, rel), dest, fs);
      else await writeContent(dest, content, fs);
    });
  } catch (error) {
    await fs.rm(staging, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
  const swapped = await swap(target, staging, true, fs);
  if (!swapped) await updateInPlace(target, files, result, fs);
  const final = await fs.realpath(target);
  remember(cache, final, files, stampsOf(final, [...files.keys()]));
  return result;
}

/** What `build --check` reports. Line endings are compared loosely (CRLF = LF): a checkout with autocrlf is not stale. */
export async function checkOutput(outDir: string, files: OutputFiles, fs: WriteFs = nodeFs): Promise<CheckResult> {
  const target = resolve(outDir);
  const existing = (await isDirectory(target, fs)) ? await listFiles(target, fs) : new Map<string, 'file' | 'other'>();
  const stale: string[] = [];
  const missing: string[] = [];
  const scratch = Buffer.allocUnsafe(COMPARE_CHUNK_BYTES);
  for (const [rel, content] of files) {
    const kind = existing.get(rel);
    if (kind === undefined) missing.push(rel);
    else if (kind !== 'file' || !(await sameOnDisk(join(target, rel), content, fs, scratch))) stale.push(rel);
  }
  const extra = [...existing.keys()].filter((rel) => !files.has(rel));
  return { stale: stale.sort(compareCodeUnits), missing: missing.sort(compareCodeUnits), extra: extra.sort(compareCodeUnits) };
}

/** Bytes compared per read by `checkOutput`. */
const COMPARE_CHUNK_BYTES = 1 << 20;

/**
 * Whether the file holds `content` (a checkout's CRLF line ends count as LF). Streams:
 * the file is read a megabyte at a time into one scratch buffer and compared with the
 * content's chunks in place, so neither side is ever joined into one buffer or
 * string. Only a file that differs is read whole, to compare it without its CRs.
 */
async function sameOnDisk(path: string, content: FileContent, fs: WriteFs, scratch: Buffer): Promise<boolean> {
  const chunks = typeof content === 'string' ? [Buffer.from(content, 'utf8')] : content;
  if (await sameBytes(path, chunks, fs, scratch)) return true;
  const bytes = await fs.readFile(path);
  if (!bytes.includes(0x0d)) return false;
  return bytes.toString('utf8').replace(/\r\n/g, '\n') === contentToString(content);
}

async function sameBytes(path: string, chunks: readonly Uint8Array[], fs: WriteFs, scratch: Buffer): Promise<boolean> {
  const handle = await fs.open(path, 'r');
  try {
    if ((await handle.stat()).size !== contentByteLength(chunks)) return false;
    let position = 0;
    for (const chunk of chunks) {
      for (let at = 0; at < chunk.byteLength;) {
        const n = Math.min(scratch.byteLength, chunk.byteLength - at);
        const { bytesRead } = await handle.read(scratch, 0, n, position);
        if (bytesRead !== n || Buffer.compare(scratch.subarray(0, n), chunk.subarray(at, at + n)) !== 0) return false;
        at += n;
        position += n;
      }
    }
    return true;
  } finally {
    await handle.close();
  }
}

/**
 * Directory swap. Returns false (staging removed, nothing changed) when the
 * output directory itself cannot be moved — a mount point (EBUSY, EXDEV), e.g. a
 * container volume: the caller then updates it file by file.
 */
async function swap(target: string, staging: string, exists: boolean, fs: WriteFs): Promise<boolean> {
  if (!exists) {
    try {
      await fs.rename(staging, target);
    } catch (error) {
      await fs.rm(staging, { recursive: true, force: true }).catch(() => undefined);
      throw error;
    }
    return true;
  }
  const backup = siblingPath(target, BACKUP_TAG);
  try {
    await fs.rename(target, backup);
  } catch (error) {
    await fs.rm(staging, { recursive: true, force: true }).catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EBUSY' || code === 'EXDEV') return false;
    throw error;
  }
  try {
    await fs.rename(staging, target);
  } catch (error) {
    await fs.rename(backup, target);
    await fs.rm(staging, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
  // The new output is in place; a backup that cannot be removed is only litter.
  await fs.rm(backup, { recursive: true, force: true }).catch(() => undefined);
  return true;
}

/** Same bytes, same inode and mtime when possible. */
async function keepFile(from: string, to: string, fs: WriteFs): Promise<void> {
  try {
    await fs.link(from, to);
  } catch {
    await fs.copyFile(from, to);
    const s = await fs.stat(from);
    await fs.utimes(to, s.atime, s.mtime);
  }
}

/** If a previous run died between its two renames, put its backup back. */
async function restoreInterrupted(target: string, fs: WriteFs): Promise<void> {
  if (await exists(target, fs)) return;
  const parent = dirname(target);
  let names: string[];
  try {
    names = await fs.readdir(parent);
  } catch {
    return;
  }
  const prefix = `.${basename(target)}.${BACKUP_TAG}-`;
  const backups = names.filter((n) => n.startsWith(prefix));
  if (backups.length === 0) return;
  const withTimes = await Promise.all(backups.map(async (n) => ({ n, t: (await fs.stat(join(parent, n))).mtimeMs })));
  withTimes.sort((a, b) => b.t - a.t || compareCodeUnits(a.n, b.n));
  await fs.rename(join(parent, withTimes[0]!.n), target);
}

/**
 * Removes the staging and backup directories of builds that were killed: their
 * names carry the pid of the process that made them (see siblingPath), and that
 * process no longer runs. A live build's (another process's, or this one's) is
 * left alone; a reused pid only delays the sweep. Runs after restoreInterrupted,
 * so a backup that is the only copy of the output has been put back already.
 */
async function sweepAbandoned(target: string, fs: WriteFs): Promise<void> {
  const parent = dirname(target);
  let names: string[];
  try {
    names = await fs.readdir(parent);
  } catch {
    return;
  }
  const prefixes = [STAGING_TAG, BACKUP_TAG].map((tag) => `.${basename(target)}.${tag}-`);
  const dead = names.filter((n) => {
    const prefix = prefixes.find((p) => n.startsWith(p));
    if (prefix === undefined) return false;
    const pid = Number(/^(\d+)-/.exec(n.slice(prefix.length))?.[1]);
    return Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && !processRuns(pid);
  });
  await Promise.all(dead.map((n) => fs.rm(join(parent, n), { recursive: true, force: true }).catch(() => undefined)));
}

/** Every entry below `dir` that is not a directory, by `/`-separated relative path. */
async function listFiles(dir: string, fs: WriteFs): Promise<Map<string, 'file' | 'other'>> {
  const out = new Map<string, 'file' | 'other'>();
  const walk = async (abs: string, rel: string): Promise<void> => {
    const entries = await fs.readdir(abs, { withFileTypes: true });
    for (const e of entries) {
      const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) await walk(join(abs, e.name), childRel);
      else out.set(childRel, e.isFile() ? 'file' : 'other');
    }
  };
  await walk(dir, '');
  return out;
}

async function isDirectory(path: string, fs: WriteFs): Promise<boolean> {
  try {
    return (await fs.stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function exists(path: string, fs: WriteFs): Promise<boolean> {
  try {
    await fs.lstat(path);
    return true;
  } catch {
    return false;
  }
}

function assertRelative(rel: string): void {
  if (rel === '' || rel.startsWith('/') || rel.includes('\\') || rel.split('/').some((s) => s === '' || s === '.' || s === '..')) {
    throw new Error(`agentc bug: output path "${rel}" is not a plain relative path`);
  }
}
