import * as fs from 'node:fs/promises';
import { readdir, readFile, stat, utimes, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { OutputFiles } from '../../src/emit/content.js';
import { forEachConcurrently, pauses } from '../../src/emit/write-files.js';
import { checkOutput, writeOutput, type WriteFs } from '../../src/emit/write.js';
import { tempDir } from '../helpers/temp-dirs.js';

let parent: string;
let out: string;

beforeEach(async () => {
  parent = tempDir('agentc-write-');
  out = join(parent, 'generated');
});

const files = (entries: Record<string, string>) => new Map(Object.entries(entries));

async function tree(dir: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) result[join(e.parentPath, e.name).slice(dir.length + 1)] = await readFile(join(e.parentPath, e.name), 'utf8');
  }
  return result;
}

/** Only the output directory may be left next to it: no staging or backup litter. */
async function siblings(): Promise<string[]> {
  return (await readdir(parent)).sort();
}

/** A file system that fails on the n-th call of one operation. */
function failing(op: 'writeFile' | 'rename' | 'link' | 'mkdir', onCall: number): WriteFs {
  let calls = 0;
  return {
    ...fs,
    [op]: async (...args: unknown[]) => {
      calls++;
      if (calls === onCall) throw Object.assign(new Error(`simulated ${op} failure`), { code: 'EIO' });
      return (fs[op] as (...a: unknown[]) => Promise<unknown>)(...args);
    },
  } as WriteFs;
}

const V1 = files({ 'bundle.json': '{}\n', 'bundle.ts': 'export {};\n', 'prompts/a.md': 'A\n', 'prompts/b.md': 'B\n' });
const V2 = files({ 'bundle.json': '{"v":2}\n', 'bundle.ts': 'export {};\n', 'prompts/a.md': 'A2\n', 'prompts/c.md': 'C\n' });

describe('writeOutput', () => {
  it('creates the directory with every file', async () => {
    const r = await writeOutput(out, V1);
    expect(r).toEqual({ written: ['bundle.json', 'bundle.ts', 'prompts/a.md', 'prompts/b.md'], unchanged: [], removed: [] });
    expect(await tree(out)).toEqual(Object.fromEntries(V1));
    expect(await siblings()).toEqual(['generated']);
  });

  it('replaces changed files, removes stale ones and keeps unchanged ones byte-for-byte with their mtime', async () => {
    await writeOutput(out, V1);
    const old = new Date('2001-02-03T04:05:06Z');
    await utimes(join(out, 'bundle.ts'), old, old);
    const inode = (await stat(join(out, 'bundle.ts'))).ino;
    const r = await writeOutput(out, V2);
    expect(r).toEqual({ written: ['bundle.json', 'prompts/a.md', 'prompts/c.md'], unchanged: ['bundle.ts'], removed: ['prompts/b.md'] });
    expect(await tree(out)).toEqual(Object.fromEntries(V2));
    const s = await stat(join(out, 'bundle.ts'));
    expect(s.mtime.getTime()).toBe(old.getTime());
    expect(s.ino).toBe(inode);
    expect(await siblings()).toEqual(['generated']);
  });

  it('touches nothing when nothing changed', async () => {
    await writeOutput(out, V1);
    const before = await stat(out);
    const r = await writeOutput(out, V1);
    expect(r).toEqual({ written: [], unchanged: ['bundle.json', 'bundle.ts', 'prompts/a.md', 'prompts/b.md'], removed: [] });
    expect((await stat(out)).ino).toBe(before.ino);
  });

  it('rewrites a file that only differs in line endings', async () => {
    await writeOutput(out, V1);
    await writeFile(join(out, 'prompts/a.md'), 'A\r\n');
    const r = await writeOutput(out, V1);
    expect(r.written).toEqual(['prompts/a.md']);
    expect(await readFile(join(out, 'prompts/a.md'), 'utf8')).toBe('A\n');
  });

  it('leaves the previous output intact when a write fails midway', async () => {
    await writeOutput(out, V1);
    await expect(writeOutput(out, V2, failing('writeFile', 2))).rejects.toThrow(/simulated writeFile failure/);
    expect(await tree(out)).toEqual(Object.fromEntries(V1));
    expect(await siblings()).toEqual(['generated']);
  });

  it('restores the previous output when the final rename fails', async () => {
    await writeOutput(out, V1);
    // First rename moves the old directory aside; the second (staging → out) fails.
    await expect(writeOutput(out, V2, failing('rename', 2))).rejects.toThrow(/simulated rename failure/);
    expect(await tree(out)).toEqual(Object.fromEntries(V1));
    expect(await siblings()).toEqual(['generated']);
  });

  it('leaves nothing behind when the first build fails', async () => {
    await expect(writeOutput(out, V1, failing('writeFile', 3))).rejects.toThrow();
    expect(await siblings()).toEqual([]);
  });

  it('copies unchanged files (with their mtime) where hard links are not available', async () => {
    await writeOutput(out, V1);
    const old = new Date('2001-02-03T04:05:06Z');
    await utimes(join(out, 'bundle.ts'), old, old);
    const noLinks: WriteFs = { ...fs, link: async () => Promise.reject(Object.assign(new Error('EPERM'), { code: 'EPERM' })) };
    await writeOutput(out, V2, noLinks);
    expect((await stat(join(out, 'bundle.ts'))).mtime.getTime()).toBe(old.getTime());
    expect(await tree(out)).toEqual(Object.fromEntries(V2));
  });

  it('restores the backup of a run that died between its two renames', async () => {
    await writeOutput(out, V1);
    await fs.rename(out, join(parent, '.generated.agentc-old-123-abcd'));
    const r = await writeOutput(out, V2);
    expect(r.unchanged).toEqual(['bundle.ts']);
    expect(await tree(out)).toEqual(Object.fromEntries(V2));
    expect(await siblings()).toEqual(['generated']);
  });

  it('rejects paths that escape the output directory (an agentc bug)', async () => {
    await expect(writeOutput(out, files({ '../x': 'x' }))).rejects.toThrow(/not a plain relative path/);
    await expect(writeOutput(out, files({ '/abs': 'x' }))).rejects.toThrow(/not a plain relative path/);
  });
});

describe('checkOutput', () => {
  it('reports stale, missing and extra files', async () => {
    await writeOutput(out, V1);
    await mkdir(join(out, 'prompts', 'old'), { recursive: true });
    await writeFile(join(out, 'prompts', 'old', 'x.md'), 'x');
    expect(await checkOutput(out, V2)).toEqual({
      stale: ['bundle.json', 'prompts/a.md'],
      missing: ['prompts/c.md'],
      extra: ['prompts/b.md', 'prompts/old/x.md'],
    });
  });

  it('is clean for an up-to-date directory, also when checked out with CRLF line endings', async () => {
    await writeOutput(out, V1);
    expect(await checkOutput(out, V1)).toEqual({ stale: [], missing: [], extra: [] });
    await writeFile(join(out, 'prompts/a.md'), 'A\r\n');
    expect(await checkOutput(out, V1)).toEqual({ stale: [], missing: [], extra: [] });
  });

  it('reports everything missing when the directory does not exist', async () => {
    expect(await checkOutput(out, V1)).toEqual({ stale: [], missing: [...V1.keys()], extra: [] });
  });
});

describe('writeOutput on an output directory that cannot be renamed (a mount point)', () => {
  it('updates it file by file', async () => {
    await writeOutput(out, V1);
    const busy: WriteFs = {
      ...fs,
      rename: async (from, to) => {
        if (String(from) === out) throw Object.assign(new Error('EBUSY: resource busy'), { code: 'EBUSY' });
        return fs.rename(from, to);
      },
    };
    const r = await writeOutput(out, V2, busy);
    expect(r).toEqual({ written: ['bundle.json', 'prompts/a.md', 'prompts/c.md'], unchanged: ['bundle.ts'], removed: ['prompts/b.md'] });
    expect(await tree(out)).toEqual(Object.fromEntries(V2));
    expect(await siblings()).toEqual(['generated']);
    expect((await readdir(join(out, 'prompts'))).sort()).toEqual(['a.md', 'c.md']);
  });
});

/** `entries` as files made on demand (like emitOutput's prompt files), counting how often each is made. */
function onDemand(entries: Map<string, string>): { files: OutputFiles; made: Map<string, number> } {
  const made = new Map<string, number>();
  const get = (rel: string) => {
    const text = entries.get(rel);
    if (text === undefined) return undefined;
    made.set(rel, (made.get(rel) ?? 0) + 1);
    return [Buffer.from(text, 'utf8')];
  };
  const files: OutputFiles = {
    size: entries.size,
    keys: () => entries.keys(),
    has: (rel) => entries.has(rel),
    get,
    *[Symbol.iterator]() {
      for (const rel of entries.keys()) yield [rel, get(rel)!];
    },
  };
  return { files, made };
}

describe('writeOutput and checkOutput with files made on demand', () => {
  it('make each file once: into a fresh directory, over a changed one, over an unchanged one, and when checking', async () => {
    const once = (made: Map<string, number>, of: Map<string, string>) =>
      expect(Object.fromEntries(made)).toEqual(Object.fromEntries([...of.keys()].map((k) => [k, 1])));
    let lazy = onDemand(V1);
    expect((await writeOutput(out, lazy.files)).written).toEqual([...V1.keys()]);
    once(lazy.made, V1);
    expect(await tree(out)).toEqual(Object.fromEntries(V1));

    lazy = onDemand(V2);
    expect(await writeOutput(out, lazy.files)).toEqual({
      written: ['bundle.json', 'prompts/a.md', 'prompts/c.md'],
      unchanged: ['bundle.ts'],
      removed: ['prompts/b.md'],
    });
    once(lazy.made, V2);
    expect(await tree(out)).toEqual(Object.fromEntries(V2));
    expect(await siblings()).toEqual(['generated']);

    const before = (await stat(join(out, 'bundle.json'))).mtimeMs;
    lazy = onDemand(V2);
    expect(await writeOutput(out, lazy.files)).toEqual({ written: [], unchanged: [...V2.keys()], removed: [] });
    once(lazy.made, V2);
    expect((await stat(join(out, 'bundle.json'))).mtimeMs).toBe(before);
    expect(await siblings()).toEqual(['generated']);

    lazy = onDemand(V1);
    expect(await checkOutput(out, lazy.files)).toEqual({ stale: ['bundle.json', 'prompts/a.md'], missing: ['prompts/b.md'], extra: ['prompts/c.md'] });
    once(lazy.made, V1);
  });

  it('a change found after unchanged files still keeps those (hard-linked) and leaves no staging directory', async () => {
    await writeOutput(out, V1);
    const kept = (await stat(join(out, 'bundle.ts'))).ino;
    const next = new Map(V1);
    next.set('prompts/b.md', 'B2\n');
    const r = await writeOutput(out, onDemand(next).files);
    expect(r).toEqual({ written: ['prompts/b.md'], unchanged: ['bundle.json', 'bundle.ts', 'prompts/a.md'], removed: [] });
    expect(await tree(out)).toEqual(Object.fromEntries(next));
    expect((await stat(join(out, 'bundle.ts'))).ino).toBe(kept);
    expect(await siblings()).toEqual(['generated']);
  });
});

describe('pauses (synchronous writes keep the progress line moving)', () => {
  it('lets timers run between items of work that never waits, across concurrent workers', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const busy = (ms: number) => {
      for (const end = performance.now() + ms; performance.now() < end;);
    };
    try {
      const pause = pauses(20);
      await forEachConcurrently(
        Array.from({ length: 40 }, (_, i) => i),
        8,
        async () => {
          await pause();
          busy(5);
        },
      );
    } finally {
      clearInterval(timer);
    }
    // 200 ms of work: about one tick per 20 ms pause; none at all without the pauses.
    expect(ticks).toBeGreaterThanOrEqual(4);
  });
});
