/**
 * CLI conventions (issue 8): workspace discovery upward, --cwd on every
 * workspace command (rules and init's target included), -V/--version,
 * --no-color / FORCE_COLOR / NO_COLOR, `check [FILES…]`, and `rules` showing
 * the severities in effect for the workspace.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findWorkspaceRoot } from '../../src/load/root.js';
import { copyExample, edit, REPO, removeTempDirs, runCli, tempDir } from '../robustness/workspace.js';
import { failingWorkspace } from './fixtures.js';

afterAll(removeTempDirs);

const ESC = '\u001b[';

describe('workspace discovery', () => {
  it('finds the nearest directory up with an agentc config, else keeps the start', async () => {
    const ws = await copyExample('disc');
    expect(findWorkspaceRoot(join(ws, 'blocks', 'rewards'))).toBe(ws);
    expect(findWorkspaceRoot(ws)).toBe(ws);
    const bare = await tempDir('bare');
    mkdirSync(join(bare, 'a', 'b'), { recursive: true });
    expect(findWorkspaceRoot(join(bare, 'a', 'b'))).toBe(join(bare, 'a', 'b'));
  });

  it('check, prompt, graph and build run from a folder inside the workspace', async () => {
    const ws = await failingWorkspace();
    const inside = join(ws, 'cards');
    const fromInside = await runCli(['check', '--format', 'json'], { cwd: inside });
    const fromRoot = await runCli(['check', '--format', 'json', '--cwd', ws]);
    expect(fromInside.code).toBe(1);
    expect(fromInside.stdout).toBe(fromRoot.stdout);
    expect((await runCli(['check', '--cwd', 'blocks/rewards', '--format', 'json'], { cwd: ws })).stdout).toBe(fromRoot.stdout);

    const clean = await copyExample('disc-clean');
    expect((await runCli(['prompt', 'rewards'], { cwd: join(clean, 'blocks') })).code).toBe(0);
    expect((await runCli(['graph'], { cwd: join(clean, 'schemas', 'tools') })).stdout).toContain('rewards');
    const build = await runCli(['build'], { cwd: join(clean, 'cards') });
    expect(build.code).toBe(0);
    expect(existsSync(join(clean, 'generated', 'bundle.json'))).toBe(true);
    expect(existsSync(join(clean, 'cards', 'generated'))).toBe(false);
  });
});

describe('--cwd on rules and init', () => {
  it('rules --cwd shows the severities the workspace config sets, marked', async () => {
    const ws = await copyExample('rules');
    await edit(ws, 'agentc.config.ts', (t) =>
      t.replace('export default defineConfig({', "export default defineConfig({\n  rules: { 'unused-block': 'error', 'volatile-in-prefix': 'off' },"),
    );
    const text = await runCli(['rules', '--cwd', ws]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/AGC7001 {2}unused-block +error\* /);
    expect(text.stdout).toMatch(/AGC6004 {2}volatile-in-prefix +off\* /);
    expect(text.stdout).toMatch(/AGC7002 {2}unused-tool +warning /);
    expect(text.stdout).toContain('Severities in effect for this workspace; * marks one its agentc.config.ts sets');
    const json = JSON.parse((await runCli(['rules', '--format', 'json'], { cwd: join(ws, 'cards') })).stdout) as {
      rules: { rule: string; severity: string; defaultSeverity: string; configured: boolean }[];
    };
    expect(json.rules.find((r) => r.rule === 'unused-block')).toMatchObject({ severity: 'error', defaultSeverity: 'warning', configured: true });
    expect(json.rules.find((r) => r.rule === 'unknown-tool')).toMatchObject({ severity: 'error', defaultSeverity: 'error', configured: false });
    const outside = await runCli(['rules', '--cwd', await tempDir('norules')]);
    expect(outside.stdout).toContain('Severities are defaults.');
  });

  it('init --cwd resolves the target directory against it', async () => {
    const base = await tempDir('initcwd');
    const r = await runCli(['init', 'team-agents', '--cwd', base]);
    expect(r.code).toBe(0);
    expect(existsSync(join(base, 'team-agents', 'agentc.config.ts'))).toBe(true);
  });
});

describe('check [FILES…]', () => {
  it('reports only diagnostics in the given files, resolving the whole workspace', async () => {
    const ws = await failingWorkspace();
    const all = JSON.parse((await runCli(['check', '--cwd', ws, '--format', 'json'])).stdout) as { diagnostics: { file: string; rule: string }[] };
    expect(new Set(all.diagnostics.map((d) => d.file)).size).toBeGreaterThan(1);

    const one = await runCli(['check', 'cards/rewards.yaml', '--format', 'json'], { cwd: ws });
    expect(one.code).toBe(1);
    const report = JSON.parse(one.stdout) as { errorCount: number; diagnostics: { file: string; rule: string }[] };
    expect(report.diagnostics.length).toBeGreaterThan(0);
    expect(report.diagnostics.every((d) => d.file === 'cards/rewards.yaml')).toBe(true);
    expect(report.diagnostics).toEqual(all.diagnostics.filter((d) => d.file === 'cards/rewards.yaml'));
    expect(report.errorCount).toBe(1);

    // Relative to the current directory, absolute, and a clean file: exit 0.
    const fromCards = await runCli(['check', 'rewards.yaml', '--format', 'json'], { cwd: join(ws, 'cards') });
    expect(JSON.parse(fromCards.stdout).diagnostics).toEqual(report.diagnostics);
    const clean = await runCli(['check', join(ws, 'cards', 'shop.yaml')], { cwd: ws });
    expect(clean.code).toBe(0);
  });

  it('ignores a file outside the workspace with a note on stderr', async () => {
    const ws = await failingWorkspace();
    const elsewhere = join(await tempDir('elsewhere'), 'x.yaml');
    const r = await runCli(['check', elsewhere, '--format', 'json'], { cwd: ws });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/x\.yaml is not a file of the workspace at .*; ignored\.\n$/);
    expect(JSON.parse(r.stdout).diagnostics).toEqual([]);
  });
});

describe('-V/--version and colour', () => {
  it('-V, --version and -v print the version', async () => {
    for (const flag of ['-V', '--version', '-v']) expect((await runCli([flag])).stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('FORCE_COLOR colours piped output, --no-color and NO_COLOR turn it off', async () => {
    const ws = await failingWorkspace();
    const args = ['check', '--cwd', ws, '--format', 'pretty'];
    expect((await runCli(args, { env: { FORCE_COLOR: '1' } })).stdout).toContain(ESC);
    expect((await runCli(args, { env: { FORCE_COLOR: '1' } })).code).toBe(1);
    expect((await runCli([...args, '--no-color'], { env: { FORCE_COLOR: '1' } })).stdout).not.toContain(ESC);
    expect((await runCli(['--no-color', ...args], { isTTY: true })).stdout).not.toContain(ESC);
    expect((await runCli(args, { isTTY: true })).stdout).toContain(ESC);
    expect((await runCli(args, { isTTY: true, env: { NO_COLOR: '1' } })).stdout).not.toContain(ESC);
    expect((await runCli(args, { isTTY: true, env: { FORCE_COLOR: '0' } })).stdout).not.toContain(ESC);
  });
});

describe('a closed pipe', () => {
  it('`agentc rules | true` ends quietly with exit 0 instead of crashing with EPIPE', async () => {
    const child = spawn(process.execPath, [join(REPO, 'bin', 'agentc.js'), 'rules'], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
