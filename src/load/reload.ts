/**
 * Watch mode's load: the last load's listing, with only the files the watcher
 * named as changed stamped and, if changed, read again (src/cli/watch-tree.ts
 * reports every change under the watched folders). Every other file is taken as
 * it was: its SourceFile object is kept (so later caches keyed by identity hit).
 *
 * Invariant: the result equals a full `loadWorkspace` of the same disk whenever
 * it is not undefined. It is undefined — the caller loads in full — unless the
 * last load reported nothing (no diagnostic, unreadable folder or non-file), every
 * changed path either cannot be listed (see cannotBeListed) or is a file that load
 * read and is still a regular file, its re-read
 * reports nothing, and the change is small (a burst of changes, such as a branch
 * switch, may have lost events: it gets a full scan).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { DiagnosticBag } from '../diagnostics/diagnostic.js';
import { WORKSPACE_LAYOUT } from './layout.js';
import type { SourceFile } from './source.js';
import { readCached, type FileCache, type LoadResult, type Workspace } from './workspace.js';
import { diskSource } from './workspace-source.js';

/** More changed paths than this in one build: a full scan (cheap next to re-compiling that much). */
export const MAX_TRUSTED_CHANGES = 32;

/** A listing that can stand for the disk next time: the last load, when it reported nothing. */
export function trustedListing(loaded: LoadResult): Workspace | undefined {
  const ws = loaded.workspace;
  const clean = loaded.fatal === undefined && loaded.diagnostics.items.length === 0 && (ws.unreadDirs ?? []).length === 0 && (ws.notFiles ?? []).length === 0;
  return clean ? ws : undefined;
}

export async function reloadChanged(root: string, last: Workspace, reported: readonly string[], cache: FileCache): Promise<LoadResult | undefined> {
  if (reported.length > MAX_TRUSTED_CHANGES) return undefined;
  const changed = reported.filter((p) => !cannotBeListed(root, p, cache));
  if (!changed.every((p) => cache.has(p) && isFile(join(root, p)))) return undefined;
  const source = diskSource(root);
  const bag = new DiagnosticBag();
  const replaced = new Map<string, SourceFile>();
  for (const path of changed) {
    const kind = path.startsWith(`${WORKSPACE_LAYOUT.blocks.dir}/`) ? 'block' : 'yaml';
    const file = await readCached(source, path, kind, bag, cache);
    if (file === undefined || bag.items.length > 0) return undefined;
    replaced.set(path, file);
  }
  const swap = (files: readonly SourceFile[]): SourceFile[] => files.map((f) => replaced.get(f.path) ?? f);
  const workspace: Workspace = {
    ...last,
    cards: swap(last.cards),
    blocks: swap(last.blocks),
    tools: swap(last.tools),
    ...(last.evals ? { evals: swap(last.evals) } : {}),
  };
  return { workspace, diagnostics: bag, fatal: undefined };
}

/** Endings a workspace file can have (src/load/layout.ts), any case; a name with none only matters as a folder. */
const LISTED_EXTENSIONS = [WORKSPACE_LAYOUT.cards, WORKSPACE_LAYOUT.blocks, WORKSPACE_LAYOUT.tools, WORKSPACE_LAYOUT.evals].flatMap((d) => d.extensions);

/**
 * A path whose change cannot change the listing: hidden (the load skips hidden files and
 * folders at every level), or named like no workspace file while it is not a folder now
 * and no listed file was under it (an editor's backup or probe file: `x.md~`, `4913`).
 * Names in the root (the config) always count.
 */
function cannotBeListed(root: string, path: string, cache: FileCache): boolean {
  if (!path.includes('/')) return false;
  if (path.split('/').some((part) => part.startsWith('.'))) return true;
  const lower = path.toLowerCase();
  if (path.endsWith('/') || LISTED_EXTENSIONS.some((e) => lower.endsWith(e)) || isDirectory(join(root, path))) return false;
  const below = `${path}/`;
  for (const known of cache.keys()) if (known.startsWith(below)) return false;
  return true;
}

function isDirectory(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

function isFile(abs: string): boolean {
  try {
    return statSync(abs).isFile();
  } catch {
    return false;
  }
}
