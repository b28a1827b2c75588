/**
 * Golden-fixture workspaces: test/check/fixtures/_base is a small complete
 * workspace that passes every check; each fixture directory overlays it.
 *
 *   <fixture>/**             files that replace or add to the base
 *   <fixture>/_delete        base paths to remove, one per line
 *   <fixture>/_generate.json generated files, too large or too many to commit:
 *                            { "<path>": { "head": "...", "repeat": "...", "bytes": n } } (head + repeat up to n bytes)
 *                            { "<path with {i}>": { "count": n, "text": "... {i} ..." } } (n files, i = 1..n)
 *   <fixture>/expected.json  [{ rule, file, line, column, severity?, message?, hint? }]
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const CONTROL = new Set(['expected.json', '_delete', '_generate.json']);

interface GenSpec {
  head?: string;
  repeat?: string;
  bytes?: number;
  count?: number;
  text?: string;
}

export interface Expected {
  rule: string;
  file: string;
  line: number;
  column: number;
  severity?: 'error' | 'warning';
  /** Substring of the message. */
  message?: string;
  /** Substring of the hint. */
  hint?: string;
}

export async function fixtureNames(): Promise<string[]> {
  const entries = await readdir(FIXTURES, { withFileTypes: true });
  return entries.filter((e) => e.isDirectory() && !e.name.startsWith('_')).map((e) => e.name).sort();
}

export async function readExpected(name: string): Promise<Expected[]> {
  return JSON.parse(await readFile(join(FIXTURES, name, 'expected.json'), 'utf8')) as Expected[];
}

/** Copies the base and the fixture's overlay into a fresh temp directory; returns its path. */
export async function materialize(name: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), `agentc-fixture-${name}-`));
  await cp(join(FIXTURES, '_base'), root, { recursive: true });
  const dir = join(FIXTURES, name);
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const abs = join(entry.parentPath, entry.name);
    const rel = relative(dir, abs);
    if (CONTROL.has(rel)) continue;
    await mkdir(dirname(join(root, rel)), { recursive: true });
    await cp(abs, join(root, rel));
  }
  const del = join(dir, '_delete');
  if (existsSync(del)) {
    for (const line of (await readFile(del, 'utf8')).split('\n')) {
      const p = line.trim();
      if (p !== '') await rm(join(root, p), { recursive: true, force: true });
    }
  }
  const gen = join(dir, '_generate.json');
  if (existsSync(gen)) {
    const spec = JSON.parse(await readFile(gen, 'utf8')) as Record<string, GenSpec>;
    for (const [p, g] of Object.entries(spec)) {
      const files: [string, string][] =
        g.count !== undefined
          ? Array.from({ length: g.count }, (_, k) => [p.replaceAll('{i}', String(k + 1)), (g.text ?? '').replaceAll('{i}', String(k + 1))])
          : [[p, (g.head ?? '') + (g.repeat ?? '').repeat(Math.ceil(Math.max(0, (g.bytes ?? 0) - (g.head ?? '').length) / Math.max(1, (g.repeat ?? ' ').length)))]];
      for (const [path, text] of files) {
        await mkdir(dirname(join(root, path)), { recursive: true });
        await writeFile(join(root, path), text);
      }
    }
  }
  return root;
}

export async function cleanup(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true });
}
