/**
 * Eval suites are inputs of `agentc check` like cards: with the persistent
 * result cache on (a built agentc), editing a suite is seen on the next run —
 * a warm check never answers from a result computed before the edit.
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

it('a changed suite is re-checked, not answered from the result cache', async () => {
  const ws = await mkdtemp(join(tmpdir(), 'agentc-eval-cache-'));
  const cacheDir = await mkdtemp(join(tmpdir(), 'agentc-eval-cache-dir-'));
  dirs.push(ws, cacheDir);
  await cp(join(repo, 'test', 'check', 'fixtures', '_base'), ws, { recursive: true });
  await mkdir(join(ws, 'evals'));
  const suite = (agent: string) => `agent: ${agent}\ncases:\n  - message: "What do I owe?"\n    expect: { agents: [billing] }\n`;
  const check = () =>
    spawnSync(process.execPath, [join(repo, 'bin', 'agentc.js'), 'check', '--format', 'text'], {
      cwd: ws,
      encoding: 'utf8',
      env: { ...process.env, AGENTC_CACHE_DIR: cacheDir, NO_COLOR: '1', CI: '1' },
    });
  await writeFile(join(ws, 'evals', 'routing.yaml'), suite('concierge'));
  expect(check().status).toBe(0);
  expect(check().status).toBe(0); // warm
  await writeFile(join(ws, 'evals', 'routing.yaml'), suite('concierg'));
  const broken = check();
  expect(broken.status).toBe(1);
  expect(broken.stdout).toContain('evals/routing.yaml:1:8 - error AGC8001 eval-agent');
  await writeFile(join(ws, 'evals', 'routing.yaml'), suite('concierge'));
  expect(check().status).toBe(0);
}, 60_000);
