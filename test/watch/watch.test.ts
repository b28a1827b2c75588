import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test, vi } from 'vitest';
import { watchCommand } from '../../src/cli/commands/watch.js';
import type { CliIO } from '../../src/cli/io.js';

const repo = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function workspace(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agentc-watch-'));
  dirs.push(dir);
  for (const p of ['cards', 'blocks', 'schemas/tools', 'agentc.config.ts']) await cp(join(repo, p), join(dir, p), { recursive: true });
  return dir;
}

/** Captures stdout and resolves waiters on each "build:" status line. */
function capture(): { io: CliIO; out: () => string; nextBuild: () => Promise<string> } {
  let out = '';
  let waiters: ((line: string) => void)[] = [];
  const io: CliIO = {
    stdout: (t) => {
      out += t;
      for (const line of t.split('\n').filter((l) => l.startsWith('build:'))) {
        const w = waiters;
        waiters = [];
        w.forEach((f) => f(line));
      }
    },
    stderr: () => {},
    cwd: '/',
    env: {},
    isTTY: false,
  };
  return { io, out: () => out, nextBuild: () => new Promise((r) => waiters.push(r)) };
}

test('watch: rebuilds on an edit, keeps output through an error, recovers', async () => {
  const dir = await workspace();
  const { io, out, nextBuild } = capture();
  const ac = new AbortController();
  const first = nextBuild();
  const done = watchCommand({ cwd: dir, signal: ac.signal, debounceMs: 30, format: 'text' }, io);
  expect(await first).toMatch(/^build: ok .*initial build.*wrote \d+ files/);
  const promptPath = join(dir, 'generated', 'prompts', 'rewards.md');
  const before = await readFile(promptPath, 'utf8');

  // 1. Edit one block: one rebuild, new text in the rewards prompt only.
  const blockPath = join(dir, 'blocks', 'rewards', 'persona-rewards.md');
  const block = await readFile(blockPath, 'utf8');
  let next = nextBuild();
  await writeFile(blockPath, `${block}\nAlways mention the points expiry policy.\n`);
  expect(await next).toMatch(/^build: ok .*persona-rewards\.md changed.*wrote [1-9]\d* files?/);
  const after = await readFile(promptPath, 'utf8');
  expect(after).toContain('Always mention the points expiry policy.');

  // 2. Introduce an error: diagnostics printed, generated/ untouched.
  const cardPath = join(dir, 'cards', 'rewards.yaml');
  const card = await readFile(cardPath, 'utf8');
  next = nextBuild();
  await writeFile(cardPath, card.replace('tools: [get_user_points', 'tools: [get_user_pionts'));
  expect(await next).toMatch(/^build: \d+ errors? .*left as it was/);
  expect(out()).toMatch(/unknown-tool/);
  expect(await readFile(promptPath, 'utf8')).toBe(after);

  // 3. Fix it: recovery.
  next = nextBuild();
  await writeFile(cardPath, card);
  expect(await next).toMatch(/^build: ok/);

  ac.abort();
  expect(await done).toBe(0);
  expect(before).not.toBe(after);
}, 60_000);

test('watch: the token counts builds added are saved once the watcher is idle, for the next run', async () => {
  const dir = await workspace();
  const cache = join(dir, 'node_modules', '.cache', 'agentc');
  await mkdir(join(dir, 'node_modules'));
  const saved = async (): Promise<string[]> => {
    const file = JSON.parse(await readFile(join(cache, 'tokens.json'), 'utf8').catch(() => '{"entries":{}}')) as { entries: Record<string, number> };
    return Object.keys(file.entries);
  };
  const { io, nextBuild } = capture();
  const ac = new AbortController();
  let next = nextBuild();
  const done = watchCommand({ cwd: dir, signal: ac.signal, debounceMs: 30, format: 'text' }, io);
  expect(await next).toMatch(/^build: ok .*initial build/);
  // The line comes first; the save follows once the watcher is idle.
  await vi.waitFor(async () => expect((await saved()).length).toBeGreaterThan(0), { timeout: 10_000 });
  const initial = new Set(await saved());

  const blockPath = join(dir, 'blocks', 'rewards', 'persona-rewards.md');
  next = nextBuild();
  await writeFile(blockPath, `${await readFile(blockPath, 'utf8')}\nA sentence no count was saved for yet.\n`);
  expect(await next).toMatch(/^build: ok .*persona-rewards\.md changed/);
  await vi.waitFor(async () => expect((await saved()).some((k) => !initial.has(k))).toBe(true), { timeout: 10_000 });
  ac.abort();
  expect(await done).toBe(0);
}, 60_000);

test('watch: refuses an output directory that is not agentc output', async () => {
  const dir = await workspace();
  const { io } = capture();
  let err = '';
  io.stderr = (t) => void (err += t);
  expect(await watchCommand({ cwd: dir, out: 'cards', debounceMs: 30, format: 'text' }, io)).toBe(2);
  expect(err).toMatch(/refusing to use .*cards\/ as the output directory/);
});

test('watch: after incremental rebuilds, the output is byte-identical to a one-shot build', async () => {
  const dir = await workspace();
  const { io, nextBuild } = capture();
  const ac = new AbortController();
  let next = nextBuild();
  const done = watchCommand({ cwd: dir, signal: ac.signal, debounceMs: 30, format: 'text' }, io);
  expect(await next).toMatch(/^build: ok/);
  const edits: [string, (t: string) => string][] = [
    ['blocks/rewards/persona-rewards.md', (t) => `${t}\nMention the expiry policy.\n`],
    ['cards/rewards.yaml', (t) => t.replace("The user's points:", "Changed. The user's points:")],
  ];
  for (const [rel, change] of edits) {
    next = nextBuild();
    await writeFile(join(dir, rel), change(await readFile(join(dir, rel), 'utf8')));
    expect(await next).toMatch(/^build: ok in [\d,]+ ms \(.*\): wrote [1-9]\d* files?, \d+ unchanged/);
  }
  ac.abort();
  expect(await done).toBe(0);

  const { buildCommand } = await import('../../src/cli/commands/build.js');
  expect(await buildCommand({ cwd: dir, out: 'oneshot', format: 'text' }, capture().io)).toBe(0);
  const watched = await tree(join(dir, 'generated'));
  expect(Object.keys(watched).length).toBeGreaterThan(3);
  expect(watched).toEqual(await tree(join(dir, 'oneshot')));
}, 60_000);

async function tree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(root, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out[join(e.parentPath, e.name).slice(root.length + 1)] = await readFile(join(e.parentPath, e.name), 'utf8');
  }
  return out;
}

test('watch: once idle after its first build, it rehearses rebuilds that print and write nothing; edits then build as usual', async () => {
  const dir = await workspace();
  const { io, out, nextBuild } = capture();
  const ac = new AbortController();
  let rehearsals = 0;
  const first = nextBuild();
  const done = watchCommand({ cwd: dir, signal: ac.signal, debounceMs: 30, format: 'text', onRehearsal: () => void rehearsals++ }, io);
  expect(await first).toMatch(/^build: ok .*initial build/);
  const stamp = async (): Promise<string> => {
    const files = await tree(join(dir, 'generated'));
    const stats = await Promise.all(Object.keys(files).map(async (f) => `${f}:${(await stat(join(dir, 'generated', f))).mtimeMs}`));
    return stats.sort().join('\n');
  };
  const written = await stamp();
  await vi.waitFor(() => expect(rehearsals).toBe(3), { timeout: 20_000, interval: 20 });
  expect(out().match(/^build:/gm)).toHaveLength(1);
  expect(await stamp()).toBe(written);

  const blockPath = join(dir, 'blocks', 'rewards', 'persona-rewards.md');
  const next = nextBuild();
  await writeFile(blockPath, `${await readFile(blockPath, 'utf8')}\nMention the expiry policy.\n`);
  expect(await next).toMatch(/^build: ok .*persona-rewards\.md changed.*wrote [1-9]\d* files?/);
  ac.abort();
  expect(await done).toBe(0);
  expect(rehearsals).toBe(3);
  const { buildCommand } = await import('../../src/cli/commands/build.js');
  expect(await buildCommand({ cwd: dir, out: 'oneshot', format: 'text' }, capture().io)).toBe(0);
  expect(await tree(join(dir, 'generated'))).toEqual(await tree(join(dir, 'oneshot')));
}, 60_000);

test('watch: a generated file changed by hand (same size) is put right by the next rebuild; the others are not stat’ed again', async () => {
  const dir = await workspace();
  const { io, nextBuild } = capture();
  const ac = new AbortController();
  let next = nextBuild();
  const done = watchCommand({ cwd: dir, signal: ac.signal, debounceMs: 30, format: 'text' }, io);
  expect(await next).toMatch(/^build: ok .*initial build/);
  const blockPath = join(dir, 'blocks', 'rewards', 'persona-rewards.md');
  const block = await readFile(blockPath, 'utf8');
  // Two rebuilds: the output watcher is attached and past its first ("all") round.
  for (const extra of ['\nFirst note.\n', '\nSecond note.\n']) {
    next = nextBuild();
    await writeFile(blockPath, `${block}${extra}`);
    expect(await next).toMatch(/^build: ok/);
  }
  // By hand, same size: bundle.ts (which the next edit does not change) and orchestrator.ts.
  for (const rel of ['bundle.ts', 'orchestrator.ts']) {
    const path = join(dir, 'generated', rel);
    const text = await readFile(path, 'utf8');
    await writeFile(
      path,
      text.replace(/[a-z]/, (c) => (c === 'a' ? 'b' : 'a')),
    );
  }
  await new Promise((r) => setTimeout(r, 100));
  next = nextBuild();
  await writeFile(blockPath, `${block}\nThird note.\n`);
  expect(await next).toMatch(/^build: ok .*wrote [1-9]\d* files?/);
  ac.abort();
  expect(await done).toBe(0);
  const { buildCommand } = await import('../../src/cli/commands/build.js');
  expect(await buildCommand({ cwd: dir, out: 'oneshot', format: 'text' }, capture().io)).toBe(0);
  expect(await tree(join(dir, 'generated'))).toEqual(await tree(join(dir, 'oneshot')));
}, 60_000);

test('watch: with spare inodes for every file, rebuilds write into them; the output equals a one-shot build; the spares go when it stops', async () => {
  const dir = await workspace();
  await mkdir(join(dir, 'node_modules'));
  const base = join(dir, 'node_modules', '.cache', 'agentc', 'watch-spares');
  const { io, nextBuild } = capture();
  const ac = new AbortController();
  let next = nextBuild();
  const done = watchCommand({ cwd: dir, signal: ac.signal, debounceMs: 30, format: 'text', spareMinBytes: 0 }, io);
  expect(await next).toMatch(/^build: ok .*initial build/);
  const blockPath = join(dir, 'blocks', 'rewards', 'persona-rewards.md');
  const block = await readFile(blockPath, 'utf8');
  const inodes = new Set<number>();
  for (const extra of ['\nFirst note.\n', '\nA second, longer note to change the length.\n', '', '\nFourth.\n']) {
    next = nextBuild();
    await writeFile(blockPath, `${block}${extra}`);
    expect(await next).toMatch(/^build: ok .*wrote [1-9]\d* files?/);
    inodes.add((await stat(join(dir, 'generated', 'bundle.json'))).ino);
    // Each file written has one spare: the copy it replaced.
    const [own] = await readdir(base);
    expect((await readdir(join(base, own!))).some((n) => n.startsWith('bundle.json.'))).toBe(true);
  }
  expect(inodes.size).toBe(2);
  ac.abort();
  expect(await done).toBe(0);
  expect(await readdir(join(dir, 'node_modules', '.cache', 'agentc'))).not.toContain('watch-spares');
  const { buildCommand } = await import('../../src/cli/commands/build.js');
  expect(await buildCommand({ cwd: dir, out: 'oneshot', format: 'text' }, capture().io)).toBe(0);
  expect(await tree(join(dir, 'generated'))).toEqual(await tree(join(dir, 'oneshot')));
}, 60_000);
