// Watch never goes stale: a real watcher on a real temp workspace, edited the way
// editors and git do (rename over, delete + recreate a folder, switch a branch).
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { watchCommand } from '../../src/cli/commands/watch.js';
import type { CliIO } from '../../src/cli/io.js';

const repo = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=agentc test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
  });

/** Resolves once a "<prefix>:" status line arrives after `check()` holds, re-checking at every status line. */
function statusLines(prefix: string): { io: CliIO; last: () => string; until: (check: () => Promise<boolean>, ms?: number) => Promise<string> } {
  let last = '';
  let wake: (() => void) | undefined;
  const io: CliIO = {
    stdout: (t) => {
      for (const line of t.split('\n').filter((l) => l.startsWith(`${prefix}:`))) last = line;
      wake?.();
    },
    stderr: () => {},
    cwd: '/',
    env: {},
    isTTY: false,
  };
  const until = async (check: () => Promise<boolean>, ms = 20_000): Promise<string> => {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (await check()) return last;
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, 200);
      });
    }
    throw new Error(`timed out; last status: ${last}`);
  };
  return { io, last: () => last, until };
}

const contains = (path: string, text: string) => async () => (await readFile(path, 'utf8').catch(() => '')).includes(text);
const lacks = (path: string, text: string) => async () => !(await readFile(path, 'utf8').catch(() => text)).includes(text);

test('build --watch survives atomic saves, a recreated folder and a branch switch', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agentc-watch-stale-'));
  dirs.push(dir);
  for (const p of ['cards', 'blocks', 'schemas/tools', 'agentc.config.ts']) await cp(join(repo, p), join(dir, p), { recursive: true });
  await writeFile(join(dir, '.gitignore'), 'generated/\n');
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'base');

  const { io, last, until } = statusLines('build');
  const ac = new AbortController();
  const done = watchCommand({ cwd: dir, signal: ac.signal, debounceMs: 30, format: 'text' }, io);
  const prompt = join(dir, 'generated', 'prompts', 'rewards.md');
  const blockDir = join(dir, 'blocks', 'rewards');
  const block = join(blockDir, 'persona-rewards.md');
  const original = await readFile(block, 'utf8');
  expect(await until(contains(prompt, 'points'))).toMatch(/^build: ok/);

  // 1. Atomic saves (write a temp file, rename it over the block), twice: the second must be seen too.
  for (const word of ['Saved-by-rename-one.', 'Saved-by-rename-two.']) {
    await writeFile(`${block}.tmp~`, `${original}\n${word}\n`);
    await rename(`${block}.tmp~`, block);
    expect(await until(contains(prompt, word))).toMatch(/^build: ok/);
  }

  // 2. Delete the block's folder (a build fails and keeps the output), recreate it, then edit inside it.
  const siblings = await readdir(blockDir);
  const saved = await Promise.all(siblings.map((n) => readFile(join(blockDir, n), 'utf8')));
  await rm(blockDir, { recursive: true });
  expect(await until(async () => /^build: \d+ errors?/.test(last()))).toMatch(/left as it was/);
  await mkdir(blockDir);
  for (const [i, n] of siblings.entries()) await writeFile(join(blockDir, n), saved[i]!);
  await writeFile(block, `${original}\nRecreated-folder.\n`);
  expect(await until(contains(prompt, 'Recreated-folder.'))).toMatch(/^build: ok/);
  await writeFile(block, `${original}\nEdited-in-recreated-folder.\n`);
  expect(await until(contains(prompt, 'Edited-in-recreated-folder.'))).toMatch(/^build: ok/);

  // 3. Branch switch: another branch changes the block; checking it out and back rebuilds each time.
  await writeFile(block, original);
  await until(lacks(prompt, 'Edited-in-recreated-folder.'));
  git(dir, 'checkout', '-qb', 'other');
  await writeFile(block, `${original}\nOn-the-other-branch.\n`);
  git(dir, 'commit', '-qam', 'other');
  expect(await until(contains(prompt, 'On-the-other-branch.'))).toMatch(/^build: ok/);
  git(dir, 'checkout', '-q', 'main');
  expect(await until(lacks(prompt, 'On-the-other-branch.'))).toMatch(/^build: ok/);
  git(dir, 'checkout', '-q', 'other');
  expect(await until(contains(prompt, 'On-the-other-branch.'))).toMatch(/^build: ok/);

  ac.abort();
  expect(await done).toBe(0);
}, 120_000);

test('check --watch reports on every atomic save and writes nothing', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agentc-watch-check-'));
  dirs.push(dir);
  for (const p of ['cards', 'blocks', 'schemas/tools', 'agentc.config.ts']) await cp(join(repo, p), join(dir, p), { recursive: true });
  const { io, last, until } = statusLines('check');
  const ac = new AbortController();
  const done = watchCommand({ cwd: dir, signal: ac.signal, debounceMs: 30, format: 'text', mode: 'check' }, io);
  expect(await until(async () => last().includes('initial check'))).toMatch(/^check: 0 errors, \d+ warnings? in [\d,]+ ms \(initial check\)/);
  const card = join(dir, 'cards', 'rewards.yaml');
  const text = await readFile(card, 'utf8');
  const saveByRename = async (t: string): Promise<void> => {
    await writeFile(`${card}.swp`, t);
    await rename(`${card}.swp`, card);
  };
  await saveByRename(text.replace('tools: [get_user_points', 'tools: [get_user_pionts'));
  expect(await until(async () => /^check: [1-9]\d* errors?/.test(last()))).toMatch(/changed\)\. Watching/);
  await saveByRename(text);
  expect(await until(async () => /^check: 0 errors/.test(last()))).toMatch(/changed\)\. Watching/);
  ac.abort();
  expect(await done).toBe(0);
  expect(await readdir(dir)).not.toContain('generated');
}, 60_000);
