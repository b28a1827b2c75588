/**
 * Watches a changing set of individual files anywhere on disk (the files the
 * config imports, which may lie outside the workspace's watched folders): one
 * non-recursive fs.watch per parent directory, filtered by name, so an atomic
 * save (temp + rename) is seen like an in-place write.
 *
 * Invariant: after `set(paths)`, a change to any of `paths` calls `onChange`
 * with that path at least once. Callers call `set` after every build, so a
 * directory deleted and recreated is watched again from the next build on.
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

export class FilesWatcher {
  private dirs = new Map<string, FSWatcher>();
  private closed = false;

  constructor(private readonly onChange: (path: string) => void) {}

  /**
   * Watches exactly these absolute paths from now on. Every call attaches fresh
   * watchers before closing the old ones (no gap): a directory deleted and made
   * again — even one that got its old inode back — is watched anew.
   */
  set(paths: readonly string[]): void {
    if (this.closed) return;
    const wanted = new Map<string, Set<string>>();
    for (const p of paths) {
      const dir = dirname(p);
      const names = wanted.get(dir) ?? new Set<string>();
      names.add(basename(p));
      wanted.set(dir, names);
    }
    const next = new Map<string, FSWatcher>();
    for (const [dir, names] of wanted) {
      if (!isDirectory(dir)) continue;
      try {
        const watcher = watch(dir, (_event, name) => {
          const n = String(name ?? '');
          if (names.has(n)) this.onChange(`${dir}/${n}`);
        });
        watcher.on('error', () => watcher.close());
        next.set(dir, watcher);
      } catch {
        // Gone between the check and the watch: the next set() tries again.
      }
    }
    for (const w of this.dirs.values()) w.close();
    this.dirs = next;
  }

  /** Directories watched now (tests). */
  watchedDirs(): string[] {
    return [...this.dirs.keys()].sort();
  }

  close(): void {
    this.closed = true;
    for (const w of this.dirs.values()) w.close();
    this.dirs.clear();
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
