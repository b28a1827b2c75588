import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { buildCommand } from '../../src/cli/commands/build.js';
import type { CliIO } from '../../src/cli/io.js';
import { TerminalProgress } from '../../src/cli/progress.js';

const repo = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

function terminal(isTTY: boolean): { io: CliIO; err: { at: number; text: string }[] } {
  const err: { at: number; text: string }[] = [];
  const io: CliIO = { stdout: () => {}, stderr: (text) => void err.push({ at: performance.now(), text }), cwd: '/', env: {}, isTTY };
  return { io, err };
}

async function workspace(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agentc-progress-'));
  dirs.push(dir);
  for (const p of ['cards', 'blocks', 'schemas/tools', 'agentc.config.ts']) await cp(join(repo, p), join(dir, p), { recursive: true });
  return dir;
}

test('on a terminal: a frame at once, phases and counts through the write phase, then a clean line', async () => {
  const dir = await workspace();
  const { io, err } = terminal(true);
  const t0 = performance.now();
  expect(await buildCommand({ cwd: dir, format: 'text' }, io)).toBe(0);
  const frames = err.filter((e) => e.text.includes('Building:'));
  expect(frames[0]!.at - t0).toBeLessThan(1000);
  expect(frames[0]!.text).toBe('\r\x1b[2K⠋ Building: reading files');
  const all = frames.map((f) => f.text).join('\n');
  // The phase is drawn as it starts; its per-agent counts at most once a frame (a fast compile may show none).
  expect(all).toMatch(/Building: compiling agents · \d+ files read/);
  expect(all).toMatch(/Building: writing \d+ files · \d+ files read · \d+ agents compiled/);
  expect(new Set(frames.map((f) => f.text.slice(5, 6))).size).toBeGreaterThan(1); // the spinner moves
  expect(err.at(-1)!.text).toBe('\r\x1b[2K');
});

test('not a terminal (or CI): no progress at all', async () => {
  const dir = await workspace();
  for (const [isTTY, env] of [
    [false, {}],
    [true, { CI: 'true' }],
  ] as const) {
    const { io, err } = terminal(isTTY);
    io.env = env;
    expect(await buildCommand({ cwd: dir, format: 'text' }, io)).toBe(0);
    expect(err.map((e) => e.text).join('')).toBe('');
  }
});

test('frames advance during synchronous work, at most one per frame interval', () => {
  let now = 0;
  const { io, err } = terminal(true);
  const p = new TerminalProgress(io, 'Checking workspace', () => now);
  p.start();
  p.phase('compiling agents');
  for (let i = 0; i < 100; i++) {
    now += 10; // 1 s of blocking work, reported per agent
    p.add('agents compiled');
  }
  p.stop();
  const frames = err.map((e) => e.text).filter((t) => t.includes('Checking workspace:'));
  expect(frames.length).toBeGreaterThanOrEqual(10);
  expect(frames.length).toBeLessThanOrEqual(14);
  expect(frames.at(-1)).toMatch(/compiling agents · 9\d agents compiled$/);
});
