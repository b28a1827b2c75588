import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { compile } from '../src/compile.js';
import { emitFiles } from '../src/emit/files.js';

const repo = join(import.meta.dirname, '..');
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(p)));
    else out.push(p);
  }
  return out;
}

/** Copies the repo's workspace with every text file rewritten by `transform`, in reversed (or shuffled) creation order. */
async function copyWorkspace(transform: (text: string) => string, order: (files: string[]) => string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agentc-det-'));
  dirs.push(dir);
  const files = [
    join(repo, 'agentc.config.ts'),
    ...(await walk(join(repo, 'cards'))),
    ...(await walk(join(repo, 'blocks'))),
    ...(await walk(join(repo, 'schemas'))),
  ];
  for (const src of order(files)) {
    const dest = join(dir, relative(repo, src));
    await mkdir(dirname(dest), { recursive: true });
    await writeFile(dest, transform(await readFile(src, 'utf8')));
  }
  return dir;
}

async function buildFiles(root: string): Promise<Map<string, string>> {
  const r = await compile({ root, bundle: true });
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return emitFiles(r.bundle!);
}

test('byte-identical output from CRLF + BOM files in another file-system order, equal to the committed generated/', async () => {
  const crlf = await copyWorkspace(
    (t) => `\uFEFF${t.replace(/\n/g, '\r\n')}`,
    (f) => [...f].reverse(),
  );
  const shuffled = await copyWorkspace(
    (t) => t,
    (f) => [...f].sort((a, b) => ((a.length * 7919) % 13) - ((b.length * 7919) % 13) || (a < b ? 1 : -1)),
  );
  const [a, b] = await Promise.all([buildFiles(crlf), buildFiles(shuffled)]);
  expect([...a.keys()]).toEqual([...b.keys()]);
  for (const [path, content] of a) {
    expect(content, path).toBe(b.get(path));
    expect(content.includes('\r'), `${path} has no CR`).toBe(false);
    // The committed generated/ is exactly what this build makes.
    expect(await readFile(join(repo, 'generated', path), 'utf8'), `generated/${path}`).toBe(content);
  }
});
