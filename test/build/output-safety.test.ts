/**
 * Nothing lost (issue 9, item 5): the out-dir guard compares real paths, so no
 * `--out` can name a directory that holds the workspace; the next build sweeps
 * the staging and backup folders that killed builds left behind, and never the
 * live staging folder of a build still running.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdir, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isWithin } from '../../src/cli/commands/build.js';
import { removeTempDirs, REPO, runCli, tempDir } from '../robustness/workspace.js';

afterAll(removeTempDirs);

const BASE = join(REPO, 'test', 'check', 'fixtures', '_base');

async function workspaceAt(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  await cp(BASE, dir, { recursive: true });
  return dir;
}

describe('the out-dir guard', () => {
  it('a workspace at out/..ws is inside out: `build --out ..` is refused and the workspace survives', async () => {
    const top = await tempDir('outdir');
    const ws = await workspaceAt(join(top, 'out', '..ws'));
    // out/ looks like earlier agentc output: the old guard (a string test of relative()) replaced it wholesale.
    await writeFile(join(top, 'out', 'bundle.json'), '{}\n');
    const r = await runCli(['build', '--cwd', ws, '--out', '..']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refusing to use .* as the output directory: it contains the workspace itself/);
    expect((await stat(join(ws, 'cards', 'billing.yaml'))).isFile()).toBe(true);
  });

  it('a symlink that leads to a folder holding the workspace is refused too', async () => {
    const top = await tempDir('outdir');
    const ws = await workspaceAt(join(top, 'real', 'ws'));
    await symlink(join(top, 'real'), join(ws, 'link-to-parent'));
    const r = await runCli(['build', '--cwd', ws, '--out', 'link-to-parent']);
    expect(r.code).toBe(2);
    expect((await stat(join(ws, 'cards', 'billing.yaml'))).isFile()).toBe(true);
  });

  it('isWithin compares by path segment, not by string prefix', () => {
    expect(isWithin('/a/out/..ws', '/a/out')).toBe(true);
    expect(isWithin('/a/out', '/a/out')).toBe(true);
    expect(isWithin('/a/output', '/a/out')).toBe(false);
    expect(isWithin('/a', '/a/out')).toBe(false);
  });

  it('a sibling output directory is still fine', async () => {
    const top = await tempDir('outdir');
    const ws = await workspaceAt(join(top, 'ws'));
    const r = await runCli(['build', '--cwd', ws, '--out', '../..out']);
    expect(r.code, r.stderr).toBe(0);
    expect((await stat(join(top, '..out', 'bundle.json'))).isFile()).toBe(true);
  });
});

describe('leftovers of killed builds', () => {
  /** A pid that no process has now: one that just exited. */
  function deadPid(): number {
    const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    return Number(r.stdout);
  }

  it('the next build removes stale staging and backup folders; a live build’s staging folder stays', async () => {
    const ws = await workspaceAt(await tempDir('sweep'));
    expect((await runCli(['build', '--cwd', ws])).code).toBe(0);
    const dead = deadPid();
    const stale = [`.generated.agentc-tmp-${dead}-0badf00d`, `.generated.agentc-old-${dead}-0badf00d`];
    for (const name of stale) {
      await mkdir(join(ws, name, 'prompts'), { recursive: true });
      await writeFile(join(ws, name, 'prompts', 'big.md'), 'x'.repeat(100_000));
    }
    // Another build, still running: its pid is alive.
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      const liveName = `.generated.agentc-tmp-${live.pid}-0000beef`;
      await mkdir(join(ws, liveName));
      // Change something, so the build stages a new output.
      await writeFile(
        join(ws, 'blocks', 'billing', 'instructions-billing.md'),
        '---\ncategory: instructions\nowner: billing\n---\nAnswer about invoices with {{#each tools}}{{name}}{{/each}}.\n',
      );
      const r = await runCli(['build', '--cwd', ws]);
      expect(r.code, r.stderr).toBe(0);
      const names = (await readdir(ws)).filter((n) => n.startsWith('.generated.'));
      expect(names).toEqual([liveName]);
    } finally {
      live.kill('SIGKILL');
    }
  });

  it('also when nothing changed (no staging of its own)', async () => {
    const ws = await workspaceAt(await tempDir('sweep'));
    expect((await runCli(['build', '--cwd', ws])).code).toBe(0);
    const name = `.generated.agentc-tmp-${deadPid()}-12345678`;
    await mkdir(join(ws, name));
    expect((await runCli(['build', '--cwd', ws])).code).toBe(0);
    expect((await readdir(ws)).filter((n) => n.startsWith('.generated.'))).toEqual([]);
  });
});
