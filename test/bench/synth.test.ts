/**
 * Smoke test of the benchmark generator (bench/synth.mjs): a tiny variant must
 * compile cleanly, keep the graph's shape, and be deterministic — so that
 * `npm run bench` never measures a workspace full of errors.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
// @ts-expect-error: plain ESM script without type declarations
import { planWorkspace, synthesize } from '../../bench/synth.mjs';
import { compile } from '../../src/compile.js';

const TINY = { cards: 20, blocks: 60, tools: 8, orchestrators: 1, seed: 7 };
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'agentc-synth-'));
  dirs.push(d);
  return d;
}

async function snapshot(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const e of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const p = join(e.parentPath, e.name);
    files.set(p.slice(root.length), await readFile(p, 'utf8'));
  }
  return files;
}

test('a tiny synthetic workspace compiles with zero errors', async () => {
  const root = join(await tempDir(), 'ws');
  const stats = synthesize({ out: root, ...TINY });
  expect(stats).toMatchObject({ cards: 20, blocks: 60, tools: 8 });
  const result = await compile({ root, bundle: true });
  expect(result.fatal).toBeUndefined();
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  expect(errors.map((d) => `${d.file}: ${d.rule}: ${d.message}`)).toEqual([]);
  expect(result.bundle).toBeDefined();
  expect(result.program?.cards.size).toBe(20);
  expect(result.program?.blocks.size).toBe(60);
  expect(result.program?.tools.size).toBe(8);
}, 60_000);

test('the graph: acyclic, at most 9 sub-agents, every specialist reachable, depth policy exact', () => {
  const plan = planWorkspace({ cards: 200, blocks: 600, seed: 3 });
  const byId = new Map(plan.cards.map((c: { id: string }) => [c.id, c]));
  const parents = new Set(plan.cards.flatMap((c: { subs: string[] }) => c.subs));
  for (const c of plan.cards) {
    expect(c.subs.length).toBeLessThanOrEqual(9);
    if (c.subs.length === 0) expect(parents.has(c.id)).toBe(true);
    const depth = (id: string, seen: string[]): number => {
      expect(seen).not.toContain(id);
      const card = byId.get(id) as { subs: string[] };
      return card.subs.length === 0 ? 0 : 1 + Math.max(...card.subs.map((s) => depth(s, [...seen, id])));
    };
    expect(depth(c.id, [])).toBe(c.depth);
  }
  expect(plan.blocks.length).toBe(600);
});

test('deterministic: the same options write byte-identical files', async () => {
  const a = join(await tempDir(), 'a');
  const b = join(await tempDir(), 'b');
  synthesize({ out: a, ...TINY });
  synthesize({ out: b, ...TINY });
  expect(await snapshot(b)).toEqual(await snapshot(a));
});
