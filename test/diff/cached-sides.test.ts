/**
 * `agentc diff` answers both sides from the persistent bundle cache (through the
 * built CLI: the cache is keyed by dist/build-id.json, so only a built agentc uses
 * it). The report is the same byte for byte with the cache off, cold, warm, and
 * with damaged entries; a damaged entry is recompiled, never believed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from './workspace-fixture.js';

const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'agentc.js');
const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((c) => c()));

/** The OS temp dir of the spawned diffs (an uncached diff keeps its private before-* tree there): not the one other test files look at. */
let childTmp: string | undefined;

function diff(f: Fixture, cacheDir: string): { code: number; out: string; err: string } {
  if (childTmp === undefined) {
    const dir = (childTmp = mkdtempSync(join(tmpdir(), 'agentc-diff-tmp-')));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  }
  const r = spawnSync(process.execPath, [bin, 'diff', '--format', 'json', '--fail-on', 'none'], {
    cwd: f.ws,
    encoding: 'utf8',
    env: { ...process.env, AGENTC_CACHE_DIR: cacheDir, NO_COLOR: '1', CI: '1', TMPDIR: childTmp },
  });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

describe('agentc diff: both sides from the persistent cache (built CLI)', () => {
  it('gives the same report with the cache off, cold, warm and damaged', () => {
    const f = createFixture();
    const cache = mkdtempSync(join(tmpdir(), 'agentc-diff-cache-'));
    cleanups.push(f.cleanup, () => rmSync(cache, { recursive: true, force: true }));
    f.edit('cards/shop.yaml', 'model: mini', 'model: nano');
    f.edit('blocks/platform/persona-base.md', 'friendly, brief', 'friendly, very brief');

    const uncached = diff(f, '');
    expect(uncached.err).toBe('');
    expect(JSON.parse(uncached.out)).toMatchObject({ changes: expect.arrayContaining([expect.objectContaining({ agent: 'shop' })]) as unknown });

    const cold = diff(f, cache);
    expect(cold.out).toBe(uncached.out);
    const bundles = join(cache, 'bundles');
    const entries = readdirSync(bundles).sort();
    // The base commit's tree, with each agent's inputs digest; the working tree is built only where it differs, and not stored.
    expect(entries).toHaveLength(1);
    const stored = readFileSync(join(bundles, entries[0]!), 'utf8').trimEnd().split('\n');
    expect(Object.keys(JSON.parse(stored[stored.length - 1]!) as object).sort()).toEqual(['assistant', 'rewards', 'shop']);
    // The working tree's result went to the result cache too: a check after the diff is warm.
    expect(JSON.parse(readFileSync(join(cache, 'check-result.json'), 'utf8'))).toMatchObject({ result: { diagnostics: [] } });

    // The base commit's kept tree records its key (for this build), so a warm diff does not read the tree again.
    const trees = join(cache, 'agentc-diff');
    const marker = readdirSync(trees).find((n) => n.endsWith('.done'))!;
    const recorded = (JSON.parse(readFileSync(join(trees, marker), 'utf8')) as { key: { key: string } }).key.key;
    expect(entries).toContain(`${recorded}.json`);

    // Warm: both sides are answered from the entries (a hit marks its entry as used).
    const past = Date.now() / 1000 - 3600;
    for (const e of entries) utimesSync(join(bundles, e), past, past);
    const warm = diff(f, cache);
    expect(warm.out).toBe(uncached.out);
    for (const e of entries) expect(statSync(join(bundles, e)).mtimeMs / 1000).toBeGreaterThan(past + 60);

    // Damaged entries (truncated; body edited; a digest edited) are recompiled, never believed.
    const entry = join(bundles, entries[0]!);
    const good = readFileSync(entry, 'utf8');
    const index = good.lastIndexOf('\n', good.length - 2) + 1;
    const digest = /[0-9a-f]{64}/.exec(good.slice(index))!;
    const flipped = `${digest[0].slice(0, 63)}${digest[0].endsWith('0') ? '1' : '0'}`;
    for (const bad of [good.slice(0, 200), good.replace('"nano"', '"mini"'), good.slice(0, index) + good.slice(index).replace(digest[0], flipped)]) {
      writeFileSync(entry, bad);
      const damaged = diff(f, cache);
      expect(damaged.out).toBe(uncached.out);
      expect(damaged.code).toBe(uncached.code);
      // Not believed: the base commit was compiled again and its entry stored afresh.
      expect(readFileSync(entry, 'utf8')).toBe(good);
    }

    // A new edit: the working tree's key changes, the base commit's entry still serves.
    f.edit('cards/shop.yaml', 'model: nano', 'model: mini');
    const reverted = diff(f, cache);
    expect(reverted.err).toBe('');
    expect(JSON.parse(reverted.out)).not.toMatchObject({ changes: expect.arrayContaining([expect.objectContaining({ path: 'model' })]) as unknown });
  });
  it('builds only the changed agents of the working tree, with the same report as without a cache, for each kind of edit', () => {
    const f = createFixture();
    const cache = mkdtempSync(join(tmpdir(), 'agentc-diff-cache-'));
    cleanups.push(f.cleanup, () => rmSync(cache, { recursive: true, force: true }));
    const same = (): void => {
      const warm = diff(f, cache); // the base commit's entry (with digests) serves; the working tree is built in part
      expect(warm.err).toBe('');
      expect(warm.out).toBe(diff(f, '').out);
      expect(readdirSync(join(cache, 'bundles'))).toHaveLength(1);
    };
    f.edit('blocks/rewards/instructions-rewards.md', 'Quote exact numbers.', 'Quote exact numbers, never rounded.');
    same();
    f.edit('schemas/tools/get_points.yaml', "The signed-in user's points balance.", "The signed-in user's points balance, in points.");
    same();
    f.edit('cards/shop.yaml', 'Product search across stores', 'Product search across all stores');
    same();
    f.edit('agentc.config.ts', 'fanOutCap: 2', 'fanOutCap: 3');
    same();
  });
});
