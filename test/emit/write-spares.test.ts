/**
 * Spare inodes for big output files (watch mode, src/emit/write-spares.ts): a replaced big
 * file's inode is kept and written into by the rebuild after next, so pages are reused and
 * nothing is freed; every file stays complete; small files are replaced as before.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FileContent } from '../../src/emit/content.js';
import { createWriteCache, settled, writeOutput, type WriteCache } from '../../src/emit/write.js';
import { createSpares, dropSpares, sparesBase, sweepSpares, type Spares } from '../../src/emit/write-spares.js';
import { tempDir } from '../helpers/temp-dirs.js';

let parent: string;
let out: string;
let cache: WriteCache;
let spares: Spares;

const files = (entries: Record<string, FileContent>) => new Map(Object.entries(entries));
/** A "big" bundle.json (spares from 1 KB on in these tests) and a small prompt file. */
const version = (n: number, prompt = 'A\n') =>
  files({ 'bundle.json': [Buffer.from(`{"v":${n},"pad":"`), Buffer.alloc(2000 + n * 7, 120), Buffer.from('"}\n')], 'prompts/a.md': prompt });
const text = (n: number) => `{"v":${n},"pad":"${'x'.repeat(2000 + n * 7)}"}\n`;
const ino = (rel: string) => statSync(join(out, rel)).ino;

beforeEach(async () => {
  parent = tempDir('agentc-write-spares-');
  out = join(parent, 'generated');
  cache = createWriteCache();
  await writeOutput(out, version(0), undefined, cache);
  spares = createSpares(sparesBase(out, undefined), out, 1024)!;
  expect(spares).toBeDefined();
  cache.spares = spares;
});

describe('spare inodes for big files', () => {
  it('alternates a big file between two inodes, each write complete; small files get no spare; nothing is left to free', async () => {
    const inodes = new Set<number>();
    // Longer and shorter contents in turn: a spare is cut to the new length.
    for (const n of [1, 2, 1, 3, 0, 2]) {
      await writeOutput(out, version(n, `A${n}\n`), undefined, cache);
      expect(readFileSync(join(out, 'bundle.json'), 'utf8')).toBe(text(n));
      expect(readFileSync(join(out, 'prompts/a.md'), 'utf8')).toBe(`A${n}\n`);
      inodes.add(ino('bundle.json'));
      // The spare folder holds the one spare of bundle.json (the small prompt has none); the output folder only its files.
      expect(readdirSync(spares.dir)).toEqual([expect.stringMatching(/^bundle\.json\.[01]$/)]);
      expect(readdirSync(out).sort()).toEqual(['bundle.json', 'prompts']);
    }
    expect(inodes.size).toBe(2);
    await settled(cache);
    // Next to the output folder: only the output and the spares' folder (no second names to free).
    expect(readdirSync(parent).sort()).toEqual(['.generated.agentc-spare', 'generated']);
    dropSpares(spares);
    expect(readdirSync(parent)).toEqual(['generated']);
  });

  it('leaves a reader of the file it replaced the whole old content until the rebuild after next', async () => {
    await writeOutput(out, version(1), undefined, cache);
    const fd = openSync(join(out, 'bundle.json'), 'r');
    try {
      await writeOutput(out, version(2), undefined, cache);
      const buf = Buffer.alloc(text(1).length + 10);
      expect(buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8')).toBe(text(1));
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(join(out, 'bundle.json'), 'utf8')).toBe(text(2));
  });

  it('gives two watchers in one process folders of their own', () => {
    const other = createSpares(sparesBase(out, undefined), out, 1024)!;
    expect(other.dir).not.toBe(spares.dir);
    expect(readdirSync(join(parent, '.generated.agentc-spare')).sort()).toEqual([spares.dir, other.dir].map((d) => basename(d)).sort());
    dropSpares(other);
  });

  it('goes on without spares when their folder is removed', async () => {
    await writeOutput(out, version(1), undefined, cache);
    rmSync(spares.dir, { recursive: true, force: true });
    await writeOutput(out, version(2), undefined, cache);
    expect(readFileSync(join(out, 'bundle.json'), 'utf8')).toBe(text(2));
    expect(cache.spares).toBeUndefined();
    await writeOutput(out, version(3), undefined, cache);
    expect(readFileSync(join(out, 'bundle.json'), 'utf8')).toBe(text(3));
    await settled(cache);
    expect(readdirSync(parent).sort()).toEqual(['.generated.agentc-spare', 'generated']);
  });

  it('repairs a big file changed by hand (its stamp differs) through the spare', async () => {
    await writeOutput(out, version(1), undefined, cache);
    writeFileSync(join(out, 'bundle.json'), 'edited by hand');
    await writeOutput(out, version(1), undefined, cache);
    expect(readFileSync(join(out, 'bundle.json'), 'utf8')).toBe(text(1));
  });

  it('sweeps the spare folders of processes that no longer run, never a live one nor a folder it did not make', () => {
    const base = join(parent, 'spares');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const names = [`${dead}-0a1b2c3d`, `${process.pid}-0a1b2c3d`, 'notes', '12345'];
    for (const name of names) {
      mkdirSync(join(base, name), { recursive: true });
      writeFileSync(join(base, name, 'bundle.json.0'), 'x');
    }
    sweepSpares(base);
    expect(readdirSync(base).sort()).toEqual(names.slice(1).sort());
  });

  // A memory file system (/dev/shm) is never the output's.
  it.runIf(existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(tmpdir()).dev)(
    'makes no spares where the folder for them is on another file system',
    () => {
      const base = join('/dev/shm', `agentc-spares-test-${process.pid}`);
      try {
        expect(createSpares(base, out)).toBeUndefined();
        expect(existsSync(base) ? readdirSync(base) : []).toEqual([]);
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    },
  );
});
