/** Exit codes of docs/cli.md#exit-codes, exactly: 0 clean, 1 findings, 2 agentc could not do its job. */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyExample, removeTempDirs, runCli, STACK_FRAME, tempDir } from '../robustness/workspace.js';
import { failingWorkspace, warningsWorkspace } from './fixtures.js';

afterAll(removeTempDirs);

describe('agentc check: exit codes', () => {
  it('0 on a clean workspace', async () => {
    const r = await runCli(['check', '--cwd', await copyExample('cli')]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/No problems/);
  });

  it('1 when there are errors', async () => {
    const r = await runCli(['check', '--cwd', await failingWorkspace()]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Found 2 errors and \d+ warnings? in \d+ files\./);
  });

  describe('warnings and --max-warnings', async () => {
    const dir = await warningsWorkspace();
    it('0 with warnings and no --max-warnings', async () => {
      const r = await runCli(['check', '--cwd', dir]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/1 warning/);
    });
    it('0 when the warnings are within --max-warnings', async () => {
      expect((await runCli(['check', '--cwd', dir, '--max-warnings', '1'])).code).toBe(0);
      expect((await runCli(['check', '--cwd', dir, '--max-warnings', '5'])).code).toBe(0);
    });
    it('1 when there are more warnings than --max-warnings, and says so on stderr', async () => {
      const r = await runCli(['check', '--cwd', dir, '--max-warnings', '0']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/1 warning, more than --max-warnings 0/);
    });
    it('errors are 1 whatever --max-warnings says', async () => {
      expect((await runCli(['check', '--cwd', await failingWorkspace(), '--max-warnings', '100'])).code).toBe(1);
    });
  });

  describe('2 for bad usage or an unreadable workspace, with a message and no stack', () => {
    const cases: [string, string[], RegExp][] = [
      ['an unknown command', ['chek'], /unknown command 'chek'/],
      ['an unknown option', ['check', '--frmat', 'json'], /unknown option '--frmat'/],
      ['a bad --format value', ['check', '--format', 'xml'], /'xml' is invalid.*pretty, text, json, github, sarif/],
      ['a --max-warnings that is not a number', ['check', '--max-warnings', 'lots'], /expected a whole number/],
      ['a missing option argument', ['check', '--format'], /argument missing/],
    ];
    for (const [name, argv, message] of cases) {
      it(name, async () => {
        const r = await runCli(argv);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(message);
        expect(r.stderr).not.toMatch(STACK_FRAME);
        expect(r.stdout).toBe('');
      });
    }

    it('a nonexistent --cwd', async () => {
      const missing = join(await tempDir('cli'), 'does-not-exist');
      const r = await runCli(['check', '--cwd', missing, '--format', 'json']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(missing);
      expect(r.stdout).toBe('');
    });

    it('a --cwd that is not an agentc workspace (an empty directory): 2, and build writes nothing there', async () => {
      const empty = await tempDir('cli-empty');
      const check = await runCli(['check', '--cwd', empty]);
      expect(check.code).toBe(2);
      expect(check.stderr).toMatch(/is not an agentc workspace.*agentc init/);
      expect(check.stdout).toBe('');
      const build = await runCli(['build', '--cwd', empty]);
      expect(build.code).toBe(2);
      const { readdir } = await import('node:fs/promises');
      expect(await readdir(empty)).toEqual([]);
    });

    it('a nonexistent --cwd is 2 for every command that reads a workspace', async () => {
      const missing = join(await tempDir('cli'), 'missing');
      for (const argv of [['check'], ['build'], ['build', '--check'], ['prompt', 'rewards'], ['graph'], ['diff']]) {
        const r = await runCli([...argv, '--cwd', missing]);
        expect(r.code, argv.join(' ')).toBe(2);
        expect(r.stderr, argv.join(' ')).toMatch(/cannot read workspace directory/);
        expect(r.stderr).not.toMatch(STACK_FRAME);
      }
    });

    it('a --cwd that is a file', async () => {
      const dir = await copyExample('cli');
      const r = await runCli(['check', '--cwd', join(dir, 'agentc.config.ts')]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/not a directory/);
    });
  });
});

describe('exit codes of the other commands', () => {
  it('--version and --help exit 0', async () => {
    expect((await runCli(['--version'])).code).toBe(0);
    expect((await runCli(['--help'])).code).toBe(0);
    expect((await runCli(['check', '--help'])).code).toBe(0);
  });

  it('rules exits 0', async () => {
    expect((await runCli(['rules'])).code).toBe(0);
  });

  it('build on a failing workspace exits 1 and writes nothing', async () => {
    const dir = await failingWorkspace();
    const r = await runCli(['build', '--cwd', dir, '--format', 'json']);
    expect(r.code).toBe(1);
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(dir, 'generated'))).toBe(false);
  });

  it('prompt of an unknown agent is not a crash', async () => {
    const r = await runCli(['prompt', 'nobody', '--cwd', await copyExample('cli')]);
    expect([1, 2]).toContain(r.code);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(r.stderr).toMatch(/nobody/);
  });
});
