/**
 * File-level helpers shared by the two ways writeOutput updates a directory
 * (directory swap, in-place replacement).
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  ftruncateSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  writevSync,
} from 'node:fs';
import * as nodeFs from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { FileContent } from './content.js';

/** The file operations writeOutput uses (a seam for failure tests). */
export type WriteFs = Pick<
  typeof nodeFs,
  'copyFile' | 'link' | 'lstat' | 'mkdir' | 'open' | 'readdir' | 'readFile' | 'realpath' | 'rename' | 'rm' | 'rmdir' | 'stat' | 'utimes' | 'writeFile'
>;

/**
 * Node's own file system through its synchronous calls, each wrapped in a promise (failures
 * reject, as the promise API's do). Watch rebuilds use it on the way to their output: a
 * rebuild makes a handful of small calls, and each costs a few microseconds of the kernel's
 * time this way, against a thread-pool round trip (tenths of a millisecond, more on a busy
 * machine) through the promise API. Work that must not hold up a build (freeing replaced
 * files) goes through the promise API (see write-in-place.ts).
 */
const SYNC_CALLS: Record<keyof WriteFs, (...args: never[]) => unknown> = {
  copyFile: copyFileSync,
  link: linkSync,
  lstat: lstatSync,
  mkdir: mkdirSync,
  open: () => {
    throw new Error('agentc bug: open through nodeFsSync (writeContent writes synchronously)');
  },
  readdir: readdirSync,
  readFile: readFileSync,
  realpath: realpathSync.native,
  rename: renameSync,
  rm: rmSync,
  rmdir: rmdirSync,
  stat: statSync,
  utimes: utimesSync,
  writeFile: writeFileSync,
};
export const nodeFsSync = Object.fromEntries(
  Object.entries(SYNC_CALLS).map(([name, call]) => [
    name,
    (...args: never[]): Promise<unknown> => {
      try {
        return Promise.resolve(call(...args));
      } catch (e) {
        return Promise.reject(e as Error);
      }
    },
  ]),
) as unknown as WriteFs;

/** Node's own file system, through either API. */
export function isNodeFs(fs: WriteFs): boolean {
  return fs === nodeFs || fs === nodeFsSync;
}

/** `.generated.agentc-tmp-…`: staging directories and temp files. */
export const STAGING_TAG = 'agentc-tmp';
/** `.generated.agentc-old-…`: the previous output during a directory swap (restored after a crash). */
export const BACKUP_TAG = 'agentc-old';
/** `.generated.agentc-gone-…`: second names of replaced files, freed in the background (garbage once made). */
export const GONE_TAG = 'agentc-gone';

/** A fresh name next to `target` (same directory, so the same file system). */
export function siblingPath(target: string, tag: string): string {
  return join(dirname(target), `.${basename(target)}.${tag}-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/**
 * Writes `content` to a new file; chunks go out in one gathered write (no joined copy, no
 * write per chunk). Through node's own file system (every real build) the file is opened,
 * written and closed synchronously: for a small file the three thread-pool round trips cost
 * more CPU than the kernel work they wrap (~0.1 ms of user time per file, a thousand prompt
 * files a build). An injected WriteFs (the failure tests' seam) is used through its promises.
 */
export async function writeContent(path: string, content: FileContent, fs: WriteFs): Promise<void> {
  if (isNodeFs(fs)) return writeContentSync(path, content);
  if (typeof content === 'string') return fs.writeFile(path, content, 'utf8');
  const handle = await fs.open(path, 'w');
  try {
    const { bytesWritten } = await handle.writev(content as Uint8Array[]);
    checkLength(path, bytesWritten, content);
  } finally {
    await handle.close();
  }
}

/**
 * The synchronous write. `over`: the file exists and is written over from its start (its pages
 * are reused, write-spares.ts), then cut to the new length.
 */
export function writeContentSync(path: string, content: FileContent, over = false): void {
  if (typeof content === 'string' && !over) return writeFileSync(path, content, 'utf8');
  const chunks = typeof content === 'string' ? [Buffer.from(content, 'utf8')] : (content as Uint8Array[]);
  const fd = openSync(path, over ? 'r+' : 'w');
  try {
    const length = checkLength(path, writevSync(fd, chunks, 0), chunks);
    if (over) ftruncateSync(fd, length);
  } finally {
    closeSync(fd);
  }
}

/** The content's length, after checking that it was all written. */
function checkLength(path: string, bytesWritten: number, content: readonly Uint8Array[]): number {
  const expected = content.reduce((n, c) => n + c.byteLength, 0);
  if (bytesWritten !== expected) throw new Error(`short write to ${path}: ${bytesWritten} of ${expected} bytes`);
  return expected;
}

/**
 * A pause for the event loop at most every `ms` of work that never waits (synchronous
 * writes), so that timers — the progress line — still run: `await pause()` in each
 * concurrent worker. While a pause is under way every caller gets it, so no worker runs
 * on in microtasks; it ends in the timers phase, after any timer already due.
 */
export function pauses(ms = 40): () => Promise<void> | undefined {
  let last = performance.now();
  let waiting: Promise<void> | undefined;
  return () => {
    if (waiting !== undefined || performance.now() - last < ms) return waiting;
    waiting = new Promise((done) =>
      setTimeout(() => {
        waiting = undefined;
        last = performance.now();
        done();
      }, 0),
    );
    return waiting;
  };
}

/**
 * `fn` over every item, at most `limit` at a time. After a failure no new item
 * starts; the call settles once those in flight have, rejecting with the first error
 * (so a caller's clean-up never races a write still under way).
 */
export async function forEachConcurrently<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  let first: unknown;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (error) {
        if (!failed) [failed, first] = [true, error];
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failed) throw first;
}

/** Whether a process with this pid exists (signal 0 checks without sending; EPERM means it exists). */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
