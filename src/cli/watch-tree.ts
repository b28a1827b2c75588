/**
 * A directory-tree watcher that does not go stale: one non-recursive fs.watch
 * per directory (inotify/FSEvents watch directories, so a file replaced by
 * rename — vim, JetBrains safe-write, `sed -i`, `git checkout` — is still seen),
 * and the set of watched directories is re-synced with the disk after every
 * event that names a directory (one that is a directory now or was one when last
 * synced; a file's event cannot change the set). A directory deleted and recreated has a new inode: its dead watcher is
 * closed and a new one attached, and the attach itself reports a change so a
 * file written before the watcher existed is not missed.
 *
 * Invariant: after any change under a watched top, `onChange` is called at
 * least once after the change (the caller rebuilds from disk, so one call after
 * the last change is enough).
 */
import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

export class TreeWatcher {
  private readonly dirs = new Map<string, { ino: number; watcher: FSWatcher }>();
  private syncTimer: NodeJS.Timeout | undefined;
  private closed = false;

  /**
   * @param tops directories (workspace-relative, '/'-separated) watched recursively
   * @param rootNames file names directly in the root that matter (the config)
   */
  constructor(
    private readonly root: string,
    private readonly tops: readonly string[],
    private readonly rootNames: readonly string[],
    private readonly onChange: (path: string) => void,
  ) {
    this.sync(false);
  }

  close(): void {
    this.closed = true;
    if (this.syncTimer) clearTimeout(this.syncTimer);
    for (const d of this.dirs.values()) d.watcher.close();
    this.dirs.clear();
  }

  /** Directories that lead to a top ('schemas' for 'schemas/tools'), plus the root. */
  private ancestors(): Set<string> {
    const out = new Set<string>(['']);
    for (const top of this.tops) {
      const parts = top.split('/');
      for (let i = 1; i < parts.length; i++) out.add(parts.slice(0, i).join('/'));
    }
    return out;
  }

  /** Whether an event for `name` in directory `dir` can matter to a build. */
  private relevant(dir: string, name: string): boolean {
    const path = dir === '' ? name : `${dir}/${name}`;
    if (this.tops.some((t) => path === t || path.startsWith(`${t}/`))) return true;
    if (dir === '' && this.rootNames.includes(name)) return true;
    return this.tops.some((t) => t.startsWith(`${path}/`));
  }

  /**
   * Whether an event for `path` can change the set of folders: it is a folder now or was
   * one when last synced. A file's event (the common case: a save) needs no re-sync.
   */
  private mayBeDirectory(path: string): boolean {
    return this.dirs.has(path) || inode(join(this.root, path)) !== undefined;
  }

  private scheduleSync(): void {
    if (this.closed || this.syncTimer) return;
    this.syncTimer = setTimeout(() => {
      this.syncTimer = undefined;
      this.sync(true);
    }, 5);
  }

  private sync(reportNew: boolean): void {
    if (this.closed) return;
    const live = new Map<string, number>();
    for (const dir of this.ancestors()) {
      const ino = inode(join(this.root, dir));
      if (ino !== undefined) live.set(dir, ino);
    }
    for (const top of this.tops) walk(this.root, top, live);
    for (const [dir, d] of this.dirs) {
      if (live.get(dir) !== d.ino) {
        d.watcher.close();
        this.dirs.delete(dir);
      }
    }
    for (const [dir, ino] of live) {
      if (this.dirs.has(dir)) continue;
      try {
        const watcher = watch(join(this.root, dir), (_event, name) => {
          const n = String(name ?? '');
          if (!this.relevant(dir, n)) return;
          const path = dir === '' ? n : `${dir}/${n}`;
          this.onChange(path);
          if (n === '' || this.mayBeDirectory(path)) this.scheduleSync();
        });
        watcher.on('error', () => {
          watcher.close();
          if (this.dirs.get(dir)?.watcher === watcher) this.dirs.delete(dir);
          this.scheduleSync();
        });
        this.dirs.set(dir, { ino, watcher });
        if (reportNew && dir !== '') this.onChange(`${dir}/`);
      } catch {
        // Gone between the scan and the watch: the event that removed it schedules another sync.
      }
    }
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

/** Adds `dir` and every directory below it (not following symlinks) with their inodes. */
function walk(root: string, dir: string, out: Map<string, number>): void {
  const ino = inode(join(root, dir));
  if (ino === undefined) return;
  out.set(dir, ino);
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) if (e.isDirectory()) walk(root, `${dir}/${e.name}`, out);
}
