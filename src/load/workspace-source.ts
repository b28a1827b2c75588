/**
 * Where the load phase reads a workspace from: the disk (`compile({ root })`) or a
 * map of texts (`compile({ files, config })`, no disk at all). Unsaved editor buffers
 * (the overlay) are laid over either by loadWorkspace.
 *
 * Invariant: both sources answer in the same shapes (errno-style errors with a
 * `code`, sizes in bytes), so everything the load phase decides — which paths are
 * workspace files, what is too large or not text — is decided once, for both.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** One entry of a folder listing (the subset of fs.Dirent the load phase reads). */
export type DirEntry = { name: string; isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean; isFIFO?(): boolean; isSocket?(): boolean };

/** What identifies one version of a file on disk (watch mode re-reads a file only when it changes). */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

export interface WorkspaceSource {
  /** The root as named in fatal messages (an absolute path on disk). */
  readonly root: string;
  /** Undefined when the root is a readable folder, else the fatal message. */
  checkRoot(): Promise<string | undefined>;
  /** Entries of a workspace-relative folder ('' is the root); rejects like fs.readdir (an error with `code`). */
  readDir(rel: string): Promise<DirEntry[]>;
  /** What a symlink leads to: 'file', 'dir', a special file's kind, or undefined (dangling, looping). */
  // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- the literals name the two answers callers branch on
  linkTarget(rel: string): Promise<'file' | 'dir' | string | undefined>;
  /** The file's bytes, or its size when over `max` (then nothing is read); throws like fs (an error with `code`). */
  read(rel: string, max: number): Uint8Array | number;
  /** The file's stamp, or undefined when it has none (a memory file, a vanished file). */
  stamp(rel: string): FileStamp | undefined;
}

/** The workspace on disk under `root`. */
export function diskSource(root: string): WorkspaceSource {
  return {
    root,
    async checkRoot() {
      try {
        const s = await stat(root);
        return s.isDirectory() ? undefined : `${root} is not a directory`;
      } catch {
        return `cannot read workspace directory ${root}`;
      }
    },
    readDir: (rel) => readdir(join(root, rel), { withFileTypes: true }),
    async linkTarget(rel) {
      const s = await stat(join(root, rel)).catch(() => undefined);
      if (s === undefined) return undefined;
      return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : specialKind(s);
    },
    read: (rel, max) => readBounded(join(root, rel), max),
    stamp(rel) {
      try {
        const s = statSync(join(root, rel));
        return { size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino };
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * A workspace held in memory: workspace-relative `/`-separated paths → text (or
 * bytes, to test what is not text). Folders are implied by the paths.
 */
export function memorySource(files: ReadonlyMap<string, string | Uint8Array>): WorkspaceSource {
  const dirs = new Map<string, Map<string, 'file' | 'dir'>>([['', new Map()]]);
  for (const path of files.keys()) {
    const parts = path.split('/');
    let dir = '';
    parts.forEach((name, i) => {
      const kind = i === parts.length - 1 ? 'file' : 'dir';
      dirs.get(dir)!.set(name, kind);
      dir = dir === '' ? name : `${dir}/${name}`;
      if (kind === 'dir' && !dirs.has(dir)) dirs.set(dir, new Map());
    });
  }
  const enoent = (rel: string): Error => Object.assign(new Error(`ENOENT: no such file or directory '${rel}'`), { code: 'ENOENT' });
  return {
    root: '(in-memory workspace)',
    checkRoot: () => Promise.resolve(undefined),
    readDir(rel) {
      const entries = dirs.get(rel.split(/[\\/]/).filter(Boolean).join('/'));
      if (!entries) return Promise.reject(enoent(rel));
      return Promise.resolve(
        [...entries].map(([name, kind]) => ({ name, isFile: () => kind === 'file', isDirectory: () => kind === 'dir', isSymbolicLink: () => false })),
      );
    },
    linkTarget: () => Promise.resolve(undefined),
    read(rel, max) {
      const content = files.get(rel);
      if (content === undefined) throw enoent(rel);
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      return bytes.length > max ? bytes.length : bytes;
    },
    stamp: () => undefined,
  };
}

/**
 * The file's bytes, or its size when over `max` (then nothing is read).
 * Synchronous on purpose: thousands of small files read faster without a
 * promise and a thread-pool round trip each.
 */
function readBounded(abs: string, max: number): Buffer | number {
  const fd = openSync(abs, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > max) return size;
    const buf = Buffer.allocUnsafe(size);
    let off = 0;
    while (off < size) {
      const n = readSync(fd, buf, off, size - off, off);
      if (n === 0) break;
      off += n;
    }
    return off === size ? buf : buf.subarray(0, off);
  } finally {
    closeSync(fd);
  }
}

export function specialKind(e: { isFIFO?(): boolean; isSocket?(): boolean }): string {
  if (e.isFIFO?.()) return 'a named pipe';
  if (e.isSocket?.()) return 'a socket';
  return 'a device';
}
