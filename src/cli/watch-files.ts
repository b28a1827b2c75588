/**
 * Watches a changing set of individual files anywhere on disk (the files the
 * config imports, which may lie outside the workspace's watched folders): one
 * non-recursive fs.watch per parent directory, filtered by name, so an atomic
 * save (temp + rename) is seen like an in-place write.
 *
 * Invariant: after `set(paths)`, a change to any of `paths` calls `onChange`
 * with that path at least once. A directory that is deleted and recreated
 * gets a new watcher on the next `set` (callers call it after every build).
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

export class FilesWatcher {
  private readonly dirs = new Map<string, { ino: number; names: Set<string>; watcher: FSWatcher }>();
  private closed = false;

  constructor(private readonly onChange: (path: string) => void) {}

  /** Watches exactly these absolute paths from now on. */
  set(paths: readonly string[]): void {
    if (this.closed) return;
    const wanted = new Map<string, Set<string>>();
    for (const p of paths) {
      const dir = dirname(p);
      const names = wanted.get(dir) ?? new Set<string>();
      names.add(basename(p));
      wanted.set(dir, names);
    }
    for (const [dir, d] of this.dirs) {
      if (!wanted.has(dir) || inode(dir) !== d.ino) {
        d.watcher.close();
        this.dirs.delete(dir);
      }
    }
    for (const [dir, names] of wanted) {
      const have = this.dirs.get(dir);
      if (have) {
        have.names = names;
        continue;
      }
      const ino = inode(dir);
      if (ino === undefined) continue;
      try {
        const entry = { ino, names, watcher: undefined as unknown as FSWatcher };
        entry.watcher = watch(dir, (_event, name) => {
          const n = String(name ?? '');
          if (entry.names.has(n)) this.onChange(`${dir}/${n}`);
        });
        entry.watcher.on('error', () => {
          entry.watcher.close();
          if (this.dirs.get(dir) === entry) this.dirs.delete(dir);
        });
        this.dirs.set(dir, entry);
      } catch {
        // Gone between the stat and the watch: the next set() tries again.
      }
    }
  }

  /** Directories watched now (tests). */
  watchedDirs(): string[] {
    return [...this.dirs.keys()].sort();
  }

  close(): void {
    this.closed = true;
    for (const d of this.dirs.values()) d.watcher.close();
    this.dirs.clear();
  }
}

function inode(path: string): number | undefined {
  try {
    const s = statSync(path);
    return s.isDirectory() ? s.ino : undefined;
  } catch {
    return undefined;
  }
}
