/**
 * Which generated files something else may have touched since the watcher last
 * took their stamps (`build --watch`): the folders that hold output files are
 * watched, one non-recursive fs.watch each, and every name an event reports is a
 * suspect. writeOutput then stats only the suspects and trusts the recorded
 * stamps of the rest (WriteCache.suspects, src/emit/write-in-place.ts): a thousand stats
 * saved per rebuild. The watcher's own writes are reported too and only cost
 * their files a stat on the next rebuild.
 *
 * Invariant: `take()` returns 'all' unless every folder watched is still the
 * one watched (same inode, and no event named it: a folder deleted and made
 * again may get the same inode number) and every watcher has been alive since
 * the last `take()`; in that case any file changed since then was named by an event that
 * has reached this process's event loop. (An event still in flight for a change
 * made a moment before a rebuild is seen at the next rebuild, which then repairs
 * the file.)
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, join } from 'node:path';

export class OutputWatcher {
  /** Watched folders by output-relative path ('' for the output folder itself). */
  private readonly dirs = new Map<string, { ino: number; watcher: FSWatcher }>();
  private suspects = new Set<string>();
  private broken = true;

  constructor(private readonly outDir: string) {}

  /**
   * The files to stat again (output-relative, '/'-separated), or 'all'; starts a new round.
   * `paths`: the output files about to be written (their folders are the ones watched).
   */
  take(paths: Iterable<string>): ReadonlySet<string> | 'all' {
    const live = inodes(this.outDir, foldersOf(paths));
    const same = !this.broken && live.size === this.dirs.size && [...live].every(([dir, ino]) => this.dirs.get(dir)?.ino === ino);
    if (!same) {
      this.attach(live);
      this.suspects = new Set();
      return 'all';
    }
    const taken = this.suspects;
    this.suspects = new Set();
    return taken;
  }

  close(): void {
    for (const d of this.dirs.values()) d.watcher.close();
    this.dirs.clear();
    this.broken = true;
  }

  private attach(live: Map<string, number>): void {
    this.close();
    this.broken = false;
    for (const [dir, ino] of live) {
      try {
        const self = basename(join(this.outDir, dir));
        const watcher = watch(join(this.outDir, dir), (_event, name) => {
          const n = String(name ?? '');
          const path = dir === '' ? n : `${dir}/${n}`;
          // The folder itself (deleted: its watcher is dead) or a watched sub-folder (replaced,
          // perhaps under a reused inode number): watched anew, every file stat'ed.
          if (n === '' || n === self || this.dirs.has(path)) this.broken = true;
          else this.suspects.add(path);
        });
        watcher.on('error', () => {
          this.broken = true;
          watcher.close();
        });
        this.dirs.set(dir, { ino, watcher });
      } catch {
        this.broken = true; // gone between the scan and the watch: the next take() sees it
      }
    }
  }
}

/** Each of `dirs` below `outDir` that is a folder now, with its inode. */
function inodes(outDir: string, dirs: Iterable<string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const dir of dirs) {
    try {
      const s = statSync(join(outDir, dir));
      if (s.isDirectory()) out.set(dir, s.ino);
    } catch {
      // not there (yet): not watched; the round after it appears returns 'all'
    }
  }
  return out;
}

/** The folders that hold the files ('' for the output folder itself). */
function foldersOf(paths: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const p of paths) {
    const at = p.lastIndexOf('/');
    out.add(at === -1 ? '' : p.slice(0, at));
  }
  return out;
}
