/**
 * Writing the starter workspace. Invariant: nothing is written unless every
 * target can be written — existing files that differ from the starter are
 * conflicts (overwritten only with `force`), and paths blocked by a file or a
 * directory in the way are errors even with `force`. Files already identical to
 * the starter are left alone, so running init twice is harmless. A file whose
 * content was merged from the existing one (package.json) is an update, never a
 * conflict.
 */
import { lstatSync, readFileSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { makeDirsSync } from '../make-dirs.js';
import { dirname, join } from 'node:path';
import type { StarterFile } from './template.js';

export type FileAction = 'create' | 'overwrite' | 'update' | 'unchanged';

export interface PlannedFile extends StarterFile {
  action: FileAction;
}

export type InitPlan =
  | { ok: true; files: PlannedFile[] }
  /** `conflicts`: differing files (a --force would overwrite them); `blocked`: paths nothing can fix. */
  | { ok: false; conflicts: string[]; blocked: { path: string; reason: string }[] };

export function planInit(root: string, files: readonly StarterFile[], force: boolean): InitPlan {
  const conflicts: string[] = [];
  const blocked: { path: string; reason: string }[] = [];
  const planned: PlannedFile[] = [];
  const checkedDirs = new Map<string, string | undefined>();

  const blockingAncestor = (path: string): string | undefined => {
    const parts = path.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (!checkedDirs.has(dir)) {
        const st = stat(join(root, dir));
        checkedDirs.set(dir, st !== undefined && !st.isDirectory() ? dir : undefined);
      }
      const hit = checkedDirs.get(dir);
      if (hit !== undefined) return hit;
    }
    return undefined;
  };

  for (const file of files) {
    const ancestor = blockingAncestor(file.path);
    if (ancestor !== undefined) {
      blocked.push({ path: file.path, reason: `${ancestor} is a file, not a directory` });
      continue;
    }
    const target = join(root, file.path);
    const st = stat(target);
    if (st === undefined) {
      planned.push({ ...file, action: 'create' });
    } else if (st.isDirectory()) {
      blocked.push({ path: file.path, reason: 'a directory is in the way' });
    } else if (st.isFile() && readText(target) === file.content) {
      planned.push({ ...file, action: 'unchanged' });
    } else if (st.isFile() && file.merged) {
      planned.push({ ...file, action: 'update' });
    } else {
      conflicts.push(file.path);
      planned.push({ ...file, action: 'overwrite' });
    }
  }
  if (blocked.length > 0 || (conflicts.length > 0 && !force)) return { ok: false, conflicts, blocked };
  return { ok: true, files: planned };
}

export type WriteResult = { ok: true } | { ok: false; message: string; written: string[] };

export function writePlan(root: string, files: readonly PlannedFile[]): WriteResult {
  const written: string[] = [];
  for (const file of files) {
    if (file.action === 'unchanged') continue;
    const target = join(root, file.path);
    try {
      makeDirsSync(dirname(target));
      // Replace rather than write through: an existing symlink must not redirect the write.
      if (file.action === 'overwrite' || file.action === 'update') unlinkSync(target);
      writeFileSync(target, file.content, { flag: 'wx' });
      written.push(file.path);
    } catch (e) {
      const detail = e instanceof Error ? e.message : String(e);
      return { ok: false, message: `could not write ${file.path}: ${detail}`, written };
    }
  }
  return { ok: true };
}

function stat(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
