/**
 * `mkdir -p` without Node's recursive mode, which never returns on some kernel file systems
 * (under /proc it loops forever: Node 20). Each missing folder is made in turn, from the
 * outermost, so the work is bounded by the path's depth; a path that cannot be made fails
 * with mkdir's own error (ENOENT, EACCES, EEXIST for a file in the way…).
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The file operations `makeDirs` uses (node:fs/promises, or a test seam). */
export interface DirFs {
  stat(path: string): Promise<{ isDirectory(): boolean }>;
  mkdir(path: string): Promise<unknown>;
}

export function makeDirsSync(path: string): void {
  for (const dir of missingFrom(resolve(path), (p) => statSync(p, { throwIfNoEntry: false }))) {
    try {
      mkdirSync(dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(dir).isDirectory()) throw e;
    }
  }
}

export async function makeDirs(path: string, fs: DirFs): Promise<void> {
  const missing: string[] = [];
  for (let p = resolve(path); ; p = dirname(p)) {
    const s = await fs.stat(p).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw e;
    });
    if (s?.isDirectory()) break;
    missing.push(p);
    if (s !== undefined || dirname(p) === p) break;
  }
  for (const dir of missing.reverse()) {
    try {
      await fs.mkdir(dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !(await fs.stat(dir)).isDirectory()) throw e;
    }
  }
}

/** The folders to make for `path`, outermost first: up to the first existing one (a file in the way is included, so mkdir reports it). */
function missingFrom(path: string, stat: (p: string) => { isDirectory(): boolean } | undefined): string[] {
  const missing: string[] = [];
  for (let p = path; ; p = dirname(p)) {
    const s = stat(p);
    if (s?.isDirectory()) break;
    missing.push(p);
    if (s !== undefined || dirname(p) === p) break;
  }
  return missing.reverse();
}
