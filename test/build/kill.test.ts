import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

// A build killed at any moment (SIGKILL: no cleanup code runs) never leaves a
// half-written generated/: what is there is the previous output or the new one,
// complete. Needs dist/ (npm test builds it first).
const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'agentc.js');
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (rel: string): Promise<void> => {
    for (const e of await readdir(join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(p);
      else out.set(p, await readFile(join(dir, p), 'utf8'));
    }
  };
  await walk('');
  return out;
}

function build(cwd: string): number {
  return spawnSync(process.execPath, [bin, 'build', '--cwd', cwd], { encoding: 'utf8' }).status ?? -1;
}

test('SIGKILL at any point of a build leaves the previous or the new generated/, complete', async () => {
  const ws = await mkdtemp(join(tmpdir(), 'agentc-kill-'));
  dirs.push(ws);
  for (const p of ['cards', 'blocks', 'schemas', 'agentc.config.ts']) await cp(join(repo, p), join(ws, p), { recursive: true });
  const started = performance.now();
  expect(build(ws)).toBe(0);
  // How long a whole build takes here (process start included): a kill later than that would find the
  // build finished (a whole build's CPU for nothing), so the delays stop there, and one kill lands at its end.
  const buildMs = performance.now() - started;
  const before = await snapshot(join(ws, 'generated'));
  const beforeDir = await mkdtemp(join(tmpdir(), 'agentc-kill-old-'));
  dirs.push(beforeDir);
  await cp(join(ws, 'generated'), beforeDir, { recursive: true });

  // The next build changes every agent's prompt (a required platform block).
  const block = join(ws, 'blocks', 'platform', 'safety-base.md');
  await writeFile(block, `${await readFile(block, 'utf8')}\nNever share another member's receipts.\n`);
  const scratch = await mkdtemp(join(tmpdir(), 'agentc-kill-new-'));
  dirs.push(scratch);
  expect(spawnSync(process.execPath, [bin, 'build', '--cwd', ws, '--out', scratch], { encoding: 'utf8' }).status).toBe(0);
  const after = await snapshot(scratch);
  expect(after).not.toEqual(before);

  const delays = [40, 150, 300, 450, 520, 580, 640, 700, 780, 900, 1100, 1400].filter((ms) => ms < buildMs);
  for (const delay of [...delays, Math.round(buildMs)]) {
    const child = spawn(process.execPath, [bin, 'build', '--cwd', ws], { stdio: 'ignore' });
    const exited = new Promise((r) => child.once('exit', r));
    await new Promise((r) => setTimeout(r, delay));
    child.kill('SIGKILL');
    await exited;
    // A kill between the two renames of the swap leaves the old output in a
    // backup; the next writer restores it before doing anything else.
    const entries = await readdir(ws);
    let now: Map<string, string>;
    if (entries.includes('generated')) now = await snapshot(join(ws, 'generated'));
    else {
      expect(build(ws)).toBe(0);
      now = await snapshot(join(ws, 'generated'));
    }
    const same = (m: Map<string, string>) => m.size === now.size && [...m].every(([k, v]) => now.get(k) === v);
    expect(same(before) || same(after), `after a kill at ${delay} ms`).toBe(true);
    // Back to the previous output for the next round.
    await rm(join(ws, 'generated'), { recursive: true, force: true });
    await cp(beforeDir, join(ws, 'generated'), { recursive: true });
  }
}, 120_000);
