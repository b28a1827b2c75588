/**
 * The real executable: `node bin/agentc.js` in a child process (needs dist/:
 * `npm test` builds first; alone, run `npm run build`). What in-process tests
 * cannot see: process exit codes, the shebang entry, a piped (non-TTY) stdout.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExample, removeTempDirs, REPO, runCli, STACK_FRAME, tempDir } from '../robustness/workspace.js';
import { failingWorkspace } from './fixtures.js';

const BIN = join(REPO, 'bin', 'agentc.js');

interface Proc {
  code: number | null;
  stdout: string;
  stderr: string;
}

function agentc(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<Proc> {
  return new Promise((resolve, reject) => {
    // A clean environment: no NO_COLOR/CI/FORCE_COLOR leaking in from the test runner.
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...opts.env };
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(() => {
  if (!existsSync(join(REPO, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does it first).');
});
afterAll(removeTempDirs);

describe('node bin/agentc.js', () => {
  it('clean workspace → exit 0', async () => {
    const r = await agentc(['check', '--cwd', await copyExample('spawn')]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/No problems found/);
  });

  it('errors → exit 1; --format json prints only JSON on a pipe', async () => {
    const dir = await failingWorkspace();
    const r = await agentc(['check', '--cwd', dir, '--format', 'json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ formatVersion: '1', valid: false, errorCount: 2 });
  });

  it('piped stdout: default format is text, no colour even without NO_COLOR', async () => {
    const dir = await failingWorkspace();
    const r = await agentc(['check'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^cards\/rewards\.yaml:11:9 - error AGC2001 unknown-tool: /m);
    expect(r.stdout).not.toMatch(/\x1b\[/);
  });

  it('usage errors → exit 2, message on stderr, nothing on stdout', async () => {
    // One real process proves the exit status; the other kinds take the same path (commander's
    // error → exit 2) and run in-process (test/cli/exit-codes.test.ts has every usage error).
    const r = await agentc(['check', '--nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: /);
    expect(r.stdout).toBe('');
    for (const args of [['frobnicate'], ['check', '--format', 'yaml']]) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stdout).toBe('');
    }
  });

  it('nonexistent --cwd → exit 2, one line, no stack', async () => {
    const missing = join(await tempDir('spawn'), 'missing');
    const r = await agentc(['check', '--cwd', missing]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });

  it('a config that prints (console.log) does not corrupt --format json: its output goes to stderr', async () => {
    const dir = await copyExample('spawn');
    const { writeFile, readFile } = await import('node:fs/promises');
    const config = join(dir, 'agentc.config.ts');
    await writeFile(
      config,
      (await readFile(config, 'utf8')).replace(
        'export default',
        "console.log('debug: loading config');\nconsole.info('info');\nconsole.table([1]);\nexport default",
      ),
    );
    for (const format of ['json', 'sarif']) {
      const r = await agentc(['check', '--cwd', dir, '--format', format]);
      expect(r.code).toBe(0);
      expect(() => JSON.parse(r.stdout), format).not.toThrow();
      expect(r.stderr).toContain('debug: loading config');
    }
  });

  it('--version → exit 0', async () => {
    const r = await agentc(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
  });

  it('a broken workspace never crashes the process (binary card, alias bomb, broken config)', async () => {
    const dir = await copyExample('spawn');
    const { writeFile, readFile } = await import('node:fs/promises');
    await writeFile(join(dir, 'cards', 'rewards.yaml'), Buffer.from([0, 159, 146, 150, 0xff]));
    await writeFile(
      join(dir, 'cards', 'shop.yaml'),
      'a: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n',
    );
    const config = join(dir, 'agentc.config.ts');
    await writeFile(config, (await readFile(config, 'utf8')).replace('models: {', 'models: { ...(() => { throw new TypeError("bad registry"); })(),'));
    // The real process for json (stdout must stay one JSON document); every other renderer
    // in-process, where a crash would surface as an internal error or a thrown main().
    const proc = await agentc(['check', '--cwd', dir, '--format', 'json']);
    expect(proc.code).toBe(1);
    expect(proc.stderr).not.toMatch(/internal error/);
    expect(proc.stdout + proc.stderr).not.toMatch(STACK_FRAME);
    expect(JSON.parse(proc.stdout)).toMatchObject({ valid: false });
    for (const format of ['pretty', 'text', 'github', 'sarif']) {
      const r = await runCli(['check', '--cwd', dir, '--format', format]);
      expect(r.code, format).toBe(1);
      expect(r.stderr, format).not.toMatch(/internal error/);
      expect(r.stdout + r.stderr, format).not.toMatch(STACK_FRAME);
    }
  });
});
