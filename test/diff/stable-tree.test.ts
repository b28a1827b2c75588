/**
 * `agentc diff` keeps the "before" tree of a commit at a stable path under
 * node_modules/.cache (issue 14: the config loader's cache is keyed by path, and a
 * commit's tree never changes), reuses it on the next diff against that commit,
 * and never leaves a half-written tree behind.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diffCommand } from '../../src/cli/commands/diff.js';
import { createFixture, memoryIO, type Fixture } from './workspace-fixture.js';

const fixtures: Fixture[] = [];
afterAll(() => fixtures.forEach((f) => f.cleanup()));

describe('agentc diff: the before tree', () => {
  it('is made once per commit under node_modules/.cache and reused', async () => {
    const f = createFixture();
    fixtures.push(f);
    mkdirSync(join(f.repo, 'node_modules'));
    f.edit('cards/shop.yaml', 'model: mini', 'model: nano');
    const parent = join(f.repo, 'node_modules', '.cache', 'agentc-diff');
    const io1 = memoryIO(f.ws, {});
    expect(await diffCommand({ cwd: '.', format: 'json', failOn: 'none' }, io1)).toBe(0);
    const trees = readdirSync(parent).sort();
    expect(trees).toHaveLength(2);
    expect(trees[0]).toMatch(/^before-[0-9a-f]{40}$/);
    expect(trees[1]).toBe(`${trees[0]}.done`);
    const card = join(parent, trees[0]!, 'cards', 'shop.yaml');
    const made = statSync(card).mtimeMs;

    const io2 = memoryIO(f.ws, {});
    expect(await diffCommand({ cwd: '.', format: 'json', failOn: 'none' }, io2)).toBe(0);
    expect(io2.out).toBe(io1.out);
    expect(statSync(card).mtimeMs).toBe(made);
    expect(readdirSync(parent).sort()).toEqual(trees);

    // A tree whose directory went away (someone cleaned the cache) is made again, not mistaken for "no workspace".
    rmSync(join(parent, trees[0]!), { recursive: true, force: true });
    const io3 = memoryIO(f.ws, {});
    expect(await diffCommand({ cwd: '.', format: 'json', failOn: 'none' }, io3)).toBe(0);
    expect(io3.out).toBe(io1.out);
    expect(existsSync(card)).toBe(true);
  });
});
