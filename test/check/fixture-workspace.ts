/**
 * Golden-fixture workspaces: test/check/fixtures/_base is a small complete
 * workspace that passes every check; each fixture directory overlays it.
 *
 *   <fixture>/**             files that replace or add to the base
 *   <fixture>/_delete        base paths to remove, one per line
 *   <fixture>/_generate.json generated files, too large or too many to commit:
 *                            { "<path>": { "head": "...", "repeat": "...", "bytes": n } } (head + repeat up to n bytes)
 *                            { "<path with {i}>": { "count": n, "text": "... {i} ..." } } (n files, i = 1..n)
 *   <fixture>/expected.json  every diagnostic the fixture reports, whole (see Expected);
 *                            UPDATE_GOLDEN=1 rewrites it from what is reported — read the diff.
 *
 * Fixtures compile in memory (fixtureFiles + fixtureConfig → compile({ files, config }));
 * materialize writes the same workspace to disk for the end-to-end tests of the loader.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compile, type CompileResult } from '../../src/compile.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const CONTROL = new Set(['expected.json', '_delete', '_generate.json']);

interface GenSpec {
  head?: string;
  repeat?: string;
  bytes?: number;
  count?: number;
  text?: string;
}

/** A diagnostic as expected.json writes it: the whole public shape, ranges as `line:col-line:col`. */
export interface Expected {
  rule: string;
  code: string;
  severity: 'error' | 'warning';
  file?: string;
  range?: string;
  message: string;
  hint?: string;
  related?: { file: string; range?: string; message: string }[];
}

function span(r: NonNullable<Diagnostic['range']>): string {
  return `${r.start.line}:${r.start.column}-${r.end.line}:${r.end.column}`;
}

/** The Expected form of a reported diagnostic (what the fixtures compare, whole). */
export function toExpected(d: Diagnostic): Expected {
  return {
    rule: d.rule,
    code: d.code,
    severity: d.severity,
    ...(d.file !== undefined ? { file: d.file } : {}),
    ...(d.range ? { range: span(d.range) } : {}),
    message: d.message,
    ...(d.hint !== undefined ? { hint: d.hint } : {}),
    ...(d.related ? { related: d.related.map((r) => ({ file: r.file, ...(r.range ? { range: span(r.range) } : {}), message: r.message })) } : {}),
  };
}

export async function writeExpected(name: string, ds: readonly Diagnostic[]): Promise<void> {
  await writeFile(join(FIXTURES, name, 'expected.json'), `${JSON.stringify(ds.map(toExpected), null, 2)}\n`);
}

export async function fixtureNames(): Promise<string[]> {
  const entries = await readdir(FIXTURES, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('_'))
    .map((e) => e.name)
    .sort();
}

export async function readExpected(name: string): Promise<Expected[]> {
  return JSON.parse(await readFile(join(FIXTURES, name, 'expected.json'), 'utf8')) as Expected[];
}

let base: Promise<Map<string, Buffer>> | undefined;

async function readTree(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const abs = join(entry.parentPath, entry.name);
    out.set(relative(dir, abs).split('\\').join('/'), await readFile(abs));
  }
  return out;
}

/** The fixture's workspace as files (base, overlay, deletions, generated files), config included; the base is read once. */
export async function fixtureFiles(name: string): Promise<Map<string, string | Buffer>> {
  base ??= readTree(join(FIXTURES, '_base'));
  const files = new Map<string, string | Buffer>(await base);
  const dir = join(FIXTURES, name);
  for (const [rel, bytes] of await readTree(dir)) if (!CONTROL.has(rel)) files.set(rel, bytes);
  const del = join(dir, '_delete');
  if (existsSync(del)) {
    for (const line of (await readFile(del, 'utf8')).split('\n')) {
      const p = line.trim();
      if (p === '') continue;
      for (const k of [...files.keys()]) if (k === p || k.startsWith(`${p}/`)) files.delete(k);
    }
  }
  const gen = join(dir, '_generate.json');
  if (existsSync(gen)) for (const [path, text] of generated(JSON.parse(await readFile(gen, 'utf8')) as Record<string, GenSpec>)) files.set(path, text);
  return files;
}

/** The fixture's config value, evaluated in this process (its own config, else the base's). */
export async function fixtureConfig(name: string): Promise<unknown> {
  const own = join(FIXTURES, name, 'agentc.config.ts');
  const path = existsSync(own) ? own : join(FIXTURES, '_base', 'agentc.config.ts');
  return ((await import(pathToFileURL(path).href)) as { default: unknown }).default;
}

/** Fixtures whose config must be evaluated by the config worker (it fails while loading): compiled on disk. */
export const DISK_ONLY = new Set(['config-load']);

/**
 * The fixture compiled in memory (its config evaluated in this process), or on disk
 * for DISK_ONLY fixtures (then `roots` collects the temp directory, to clean up).
 */
export async function compileFixture(name: string, roots: string[]): Promise<CompileResult> {
  if (DISK_ONLY.has(name)) {
    const root = await materialize(name);
    roots.push(root);
    return compile({ root, persistentCache: false });
  }
  const files = await fixtureFiles(name);
  // The config's text comes from `files` (for ranges into it); its value from evaluating it here.
  return compile({ files, ...(files.has('agentc.config.ts') ? { config: { value: await fixtureConfig(name) } } : {}) });
}

function generated(spec: Record<string, GenSpec>): [string, string][] {
  return Object.entries(spec).flatMap(([p, g]): [string, string][] =>
    g.count !== undefined
      ? Array.from({ length: g.count }, (_, k): [string, string] => [p.replaceAll('{i}', String(k + 1)), (g.text ?? '').replaceAll('{i}', String(k + 1))])
      : [[p, (g.head ?? '') + (g.repeat ?? '').repeat(Math.ceil(Math.max(0, (g.bytes ?? 0) - (g.head ?? '').length) / Math.max(1, (g.repeat ?? ' ').length)))]],
  );
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
    for (const [path, text] of generated(spec)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
  }
  return root;
}

export async function cleanup(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true });
}
