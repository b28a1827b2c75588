import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheDir, PersistentTokenStore } from '../../src/cache/token-store.js';
import { compile } from '../../src/compile.js';
import { TokenCounter } from '../../src/tokenize/counter.js';
import { countTokens } from '../../src/tokenize/index.js';
import { AGENTC_VERSION } from '../../src/version.js';

const repo = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function temp(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** Every token count the program holds, as one comparable list. */
async function counts(root: string, persistent = true): Promise<number[]> {
  const r = await compile({ root, persistentCache: persistent });
  const out: number[] = [];
  for (const a of [...r.program!.agents.values()]) {
    out.push(a.descriptionTokens);
    for (const c of a.cohorts) out.push(c.tokens, ...c.blocks.map((b) => b.tokens));
  }
  return out;
}

describe('persistent token cache', () => {
  it('lives under node_modules/.cache/agentc, or AGENTC_CACHE_DIR, or nowhere', () => {
    expect(cacheDir(repo, {})).toBe(join(repo, 'node_modules', '.cache', 'agentc'));
    expect(cacheDir(repo, { AGENTC_CACHE_DIR: '/x/y' })).toBe('/x/y');
    expect(cacheDir(repo, { AGENTC_CACHE_DIR: '' })).toBeUndefined();
    expect(cacheDir(join(repo, 'cards'), {})).toBeUndefined();
  });

  it('a warm counter answers from the store without tokenizing, with the same counts', async () => {
    const dir = await temp('agentc-cache-');
    const texts = ['Hello, world.\n\n', 'Refunds over $50 need approval.\n\nAsk first.\n\n'];
    const cold = PersistentTokenStore.open(dir, AGENTC_VERSION);
    const c1 = new TokenCounter(cold);
    const first = texts.map((t) => c1.countByParagraph(t, 'o200k_base'));
    expect(c1.misses).toBeGreaterThan(0);
    expect(cold.save()).toBe(true);
    const c2 = new TokenCounter(PersistentTokenStore.open(dir, AGENTC_VERSION));
    expect(texts.map((t) => c2.countByParagraph(t, 'o200k_base'))).toEqual(first);
    expect(c2.misses).toBe(0);
    expect(first).toEqual(texts.map((t) => countTokens(t, 'o200k_base')));
  });

  it('ignores a cache written by another agentc version', async () => {
    const dir = await temp('agentc-cache-');
    const s = PersistentTokenStore.open(dir, '0.0.0-other');
    new TokenCounter(s).count('Hello there', 'o200k_base');
    s.save();
    const c = new TokenCounter(PersistentTokenStore.open(dir, AGENTC_VERSION));
    c.count('Hello there', 'o200k_base');
    expect(c.misses).toBe(1);
  });

  it('ignores a corrupted file: a tampered count, a truncated file, garbage', async () => {
    const dir = await temp('agentc-cache-');
    const s = PersistentTokenStore.open(dir, AGENTC_VERSION);
    const truth = new TokenCounter(s).count('Hello there, general Kenobi', 'cl100k_base');
    s.save();
    const path = join(dir, 'tokens.json');
    const good = await readFile(path, 'utf8');
    const file = JSON.parse(good) as { entries: Record<string, number> };
    const key = Object.keys(file.entries)[0]!;
    const damaged = [
      good.replace(`"${key}":${truth}`, `"${key}":${truth + 7}`), // valid JSON, wrong count, stale sha256
      good.slice(0, Math.floor(good.length / 2)),
      '\u0000\u0001not json',
      JSON.stringify({ ...file, entries: { [key]: -1 } }),
    ];
    for (const text of damaged) {
      await writeFile(path, text);
      const c = new TokenCounter(PersistentTokenStore.open(dir, AGENTC_VERSION));
      expect(c.count('Hello there, general Kenobi', 'cl100k_base')).toBe(truth);
      expect(c.misses).toBe(1);
    }
  });

  it('compile gives the same counts cold, warm, and with a poisoned cache', async () => {
    const ws = await temp('agentc-cache-ws-');
    for (const p of ['cards', 'blocks', 'schemas/tools', 'agentc.config.ts']) await cp(join(repo, p), join(ws, p), { recursive: true });
    const cache = join(ws, 'node_modules', '.cache', 'agentc');
    const truth = await counts(ws, false);
    await cp(join(repo, 'package.json'), join(ws, 'node_modules', 'x', 'package.json'), { recursive: true });
    expect(await counts(ws)).toEqual(truth); // cold: writes the cache
    expect(await counts(ws)).toEqual(truth); // warm
    const raw = JSON.parse(await readFile(join(cache, 'tokens.json'), 'utf8')) as { entries: Record<string, number> };
    for (const k of Object.keys(raw.entries)) raw.entries[k] = 1;
    await writeFile(join(cache, 'tokens.json'), JSON.stringify(raw)); // sha256 no longer matches
    expect(await counts(ws)).toEqual(truth);
  });

  it('a warm `agentc check` does not load the tokenizer', async () => {
    const cache = await temp('agentc-cache-cli-');
    const script = `
      const { compile } = await import(${JSON.stringify(join(repo, 'dist', 'compile.js'))});
      const { createRequire } = await import('node:module');
      await compile({ root: ${JSON.stringify(repo)} });
      const loaded = Object.keys(createRequire(import.meta.url).cache).some((p) => p.includes('gpt-tokenizer'));
      process.stdout.write(String(loaded));`;
    const run = (): string =>
      spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, AGENTC_CACHE_DIR: cache }, encoding: 'utf8' }).stdout;
    expect(run()).toBe('true'); // cold: counts, and fills the cache
    expect(run()).toBe('false'); // warm: every count is cached
  });
});
