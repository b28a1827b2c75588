/**
 * writeOutput with a WriteCache (watch mode): files it wrote last time and that
 * are still as it left them are neither read nor rewritten; changed files are
 * replaced one by one; anything else on disk is still noticed.
 */
import * as fs from 'node:fs/promises';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FileContent } from '../../src/emit/content.js';
import { createWriteCache, settled, writeOutput, type WriteCache, type WriteFs } from '../../src/emit/write.js';
import { tempDir } from '../helpers/temp-dirs.js';

let parent: string;
let out: string;
let cache: WriteCache;

beforeEach(async () => {
  parent = tempDir('agentc-write-cache-');
  out = join(parent, 'generated');
  cache = createWriteCache();
});

const chunks = (...parts: string[]): Uint8Array[] => parts.map((p) => Buffer.from(p, 'utf8'));
const files = (entries: Record<string, FileContent>) => new Map(Object.entries(entries));
const V1 = files({ 'bundle.json': chunks('{', '"v":1', '}\n'), 'bundle.ts': 'export {};\n', 'prompts/a.md': 'A\n', 'prompts/b.md': 'B\n' });

async function tree(dir: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) result[join(e.parentPath, e.name).slice(dir.length + 1)] = await readFile(join(e.parentPath, e.name), 'utf8');
  }
  return result;
}

/** The real file system, counting calls per operation. */
function counting(): { fs: WriteFs; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const wrapped = Object.fromEntries(
    Object.entries(fs).map(([name, f]) => [
      name,
      typeof f === 'function'
        ? (...args: unknown[]) => {
            calls[name] = (calls[name] ?? 0) + 1;
            return (f as (...a: unknown[]) => unknown)(...args);
          }
        : f,
    ]),
  );
  return { fs: wrapped as unknown as WriteFs, calls };
}

describe('writeOutput with a WriteCache', () => {
  it('writes chunked content byte for byte', async () => {
    const r = await writeOutput(out, V1, undefined, cache);
    expect(r.written).toEqual(['bundle.json', 'bundle.ts', 'prompts/a.md', 'prompts/b.md']);
    expect(await tree(out)).toEqual({ 'bundle.json': '{"v":1}\n', 'bundle.ts': 'export {};\n', 'prompts/a.md': 'A\n', 'prompts/b.md': 'B\n' });
  });

  it('reads nothing back and touches nothing when nothing changed', async () => {
    await writeOutput(out, V1, undefined, cache);
    const { fs: seam, calls } = counting();
    const r = await writeOutput(out, V1, seam, cache);
    expect(r).toEqual({ written: [], unchanged: ['bundle.json', 'bundle.ts', 'prompts/a.md', 'prompts/b.md'], removed: [] });
    expect(calls.readFile ?? 0).toBe(0);
    expect(calls.writeFile ?? 0).toBe(0);
  });

  it('replaces only the changed files, in place, without reading the others', async () => {
    await writeOutput(out, V1, undefined, cache);
    const dirInode = (await stat(out)).ino;
    const keptInode = (await stat(join(out, 'prompts/b.md'))).ino;
    const { fs: seam, calls } = counting();
    const next = files({ ...Object.fromEntries(V1), 'bundle.json': chunks('{"v":2}\n'), 'prompts/a.md': 'A2\n' });
    const r = await writeOutput(out, next, seam, cache);
    expect(r).toEqual({ written: ['bundle.json', 'prompts/a.md'], unchanged: ['bundle.ts', 'prompts/b.md'], removed: [] });
    expect(calls.readFile ?? 0).toBe(0);
    expect((await stat(out)).ino).toBe(dirInode); // no directory swap
    expect((await stat(join(out, 'prompts/b.md'))).ino).toBe(keptInode);
    expect(await tree(out)).toMatchObject({ 'bundle.json': '{"v":2}\n', 'prompts/a.md': 'A2\n', 'prompts/b.md': 'B\n' });
    await settled(cache); // replaced files' old inodes are freed in the background
    expect((await readdir(parent)).sort()).toEqual(['generated']);
    expect((await readdir(join(out, 'prompts'))).sort()).toEqual(['a.md', 'b.md']); // no temp files left
  });

  it('notices a file edited by hand, a file added by hand and a deleted directory', async () => {
    await writeOutput(out, V1, undefined, cache);
    await writeFile(join(out, 'prompts/a.md'), 'edited\n');
    await writeFile(join(out, 'extra.txt'), 'x');
    let r = await writeOutput(out, V1, undefined, cache);
    expect(r.written).toEqual(['prompts/a.md']);
    expect(r.removed).toEqual(['extra.txt']);
    expect(await readFile(join(out, 'prompts/a.md'), 'utf8')).toBe('A\n');

    await fs.rm(out, { recursive: true });
    r = await writeOutput(out, V1, undefined, cache);
    expect(r.written).toEqual(['bundle.json', 'bundle.ts', 'prompts/a.md', 'prompts/b.md']);
    expect(Object.keys(await tree(out)).sort()).toEqual(['bundle.json', 'bundle.ts', 'prompts/a.md', 'prompts/b.md']);
  });

  it('removes files no longer emitted, and directories that leaves empty', async () => {
    await writeOutput(out, V1, undefined, cache);
    const r = await writeOutput(out, files({ 'bundle.json': chunks('{}\n'), 'bundle.ts': 'export {};\n' }), undefined, cache);
    expect(r.removed).toEqual(['prompts/a.md', 'prompts/b.md']);
    expect((await readdir(out)).sort()).toEqual(['bundle.json', 'bundle.ts']);
  });

  it('falls back to the directory swap when an in-place replacement fails', async () => {
    await writeOutput(out, V1, undefined, cache);
    let renames = 0;
    const flaky: WriteFs = {
      ...fs,
      rename: async (from, to) => {
        if (++renames === 1) throw Object.assign(new Error('simulated rename failure'), { code: 'EIO' });
        return fs.rename(from, to);
      },
    };
    const next = files({ ...Object.fromEntries(V1), 'prompts/a.md': 'A2\n', 'prompts/b.md': 'B2\n' });
    const r = await writeOutput(out, next, flaky, cache);
    expect(r.written).toEqual(['prompts/a.md', 'prompts/b.md']);
    expect(await tree(out)).toMatchObject({ 'prompts/a.md': 'A2\n', 'prompts/b.md': 'B2\n', 'bundle.json': '{"v":1}\n' });
    await settled(cache);
    expect((await readdir(parent)).sort()).toEqual(['generated']);
    expect((await readdir(join(out, 'prompts'))).sort()).toEqual(['a.md', 'b.md']);
    // And the cache is valid again afterwards.
    const { fs: seam, calls } = counting();
    expect((await writeOutput(out, next, seam, cache)).written).toEqual([]);
    expect(calls.readFile ?? 0).toBe(0);
  });

  it('sweeps second names a killed process left next to the output directory', async () => {
    await writeFile(join(parent, '.generated.agentc-gone-123-abcd'), 'old bytes');
    await writeOutput(out, V1, undefined, cache);
    expect((await readdir(parent)).sort()).toEqual(['generated']);
  });

  it('never waits for earlier background work (freeing replaced files) on the way to the output', async () => {
    await writeOutput(out, V1, undefined, cache);
    cache.freeing = new Promise<void>(() => undefined); // still under way, and never done
    const r = await writeOutput(out, files({ ...Object.fromEntries(V1), 'prompts/a.md': 'A2\n' }), undefined, cache);
    expect(r.written).toEqual(['prompts/a.md']);
    expect(await readFile(join(out, 'prompts/a.md'), 'utf8')).toBe('A2\n');
  });

  it("sweeps a killed build's staging directory in the background of a rebuild; settled() waits for it", async () => {
    await writeOutput(out, V1, undefined, cache);
    // A pid no process has (above Linux's pid_max): its build was killed.
    const dead = join(parent, '.generated.agentc-tmp-2147483646-abcd');
    await fs.mkdir(join(dead, 'prompts'), { recursive: true });
    await writeFile(join(dead, 'prompts/a.md'), 'half written');
    await writeOutput(out, files({ ...Object.fromEntries(V1), 'prompts/b.md': 'B2\n' }), undefined, cache);
    await settled(cache);
    expect((await readdir(parent)).sort()).toEqual(['generated']);
    expect(await tree(out)).toMatchObject({ 'prompts/a.md': 'A\n', 'prompts/b.md': 'B2\n' });
  });

  it('keeps a reader of the old file unharmed and frees it afterwards', async () => {
    await writeOutput(out, V1, undefined, cache);
    const before = await fs.open(join(out, 'prompts/a.md'), 'r');
    await writeOutput(out, files({ ...Object.fromEntries(V1), 'prompts/a.md': 'A2\n' }), undefined, cache);
    expect(await before.readFile('utf8')).toBe('A\n');
    await before.close();
    await settled(cache);
    expect((await readdir(parent)).sort()).toEqual(['generated']);
    expect(await readFile(join(out, 'prompts/a.md'), 'utf8')).toBe('A2\n');
  });
});
