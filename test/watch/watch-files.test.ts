/** FilesWatcher (the files the config imports): in-place writes, atomic saves, other names ignored, re-targeting. */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { FilesWatcher } from '../../src/cli/watch-files.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Resolves when `seen` holds `path`, or rejects after `ms`. */
function waitFor(seen: string[], path: string, ms = 5000): Promise<void> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      if (seen.includes(path)) resolve();
      else if (Date.now() - t0 > ms) reject(new Error(`no change reported for ${path}; got ${JSON.stringify(seen)}`));
      else setTimeout(tick, 10);
    };
    tick();
  });
}

test('reports in-place writes and atomic saves of the watched files only', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentc-watch-files-'));
  dirs.push(dir);
  const shared = join(dir, 'shared');
  mkdirSync(shared);
  const a = join(shared, 'models.ts');
  const other = join(shared, 'other.ts');
  writeFileSync(a, 'export const a = 1;\n');
  writeFileSync(other, '');
  const seen: string[] = [];
  const w = new FilesWatcher((p) => seen.push(p));
  try {
    w.set([a]);
    expect(w.watchedDirs()).toEqual([shared]);
    writeFileSync(other, 'x');
    writeFileSync(a, 'export const a = 2;\n');
    await waitFor(seen, a);
    expect(seen).not.toContain(other);

    seen.length = 0;
    writeFileSync(`${a}.tmp`, 'export const a = 3;\n');
    renameSync(`${a}.tmp`, a);
    await waitFor(seen, a);

    // A folder deleted and made again: the next set() watches the new one.
    rmSync(shared, { recursive: true });
    mkdirSync(shared);
    w.set([a]);
    seen.length = 0;
    writeFileSync(a, 'export const a = 4;\n');
    await waitFor(seen, a);

    w.set([]);
    expect(w.watchedDirs()).toEqual([]);
  } finally {
    w.close();
  }
}, 30_000);
