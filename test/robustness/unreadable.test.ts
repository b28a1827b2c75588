/**
 * An unreadable workspace folder is never read as "empty" (issue 9, item 2):
 * cards/, blocks/ or schemas/tools/ → exit 2 naming it; a blocks/ sub-folder →
 * a diagnostic naming it, with no cascade of unknown-block errors.
 *
 * Permissions do not stop root, and tests run as root: the CLI then runs as
 * `nobody` (setpriv), for real. As any other user it runs as that user.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmod, mkdir, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkJson, copyExample, removeTempDirs, REPO, STACK_FRAME, summarize } from './workspace.js';

const BIN = join(REPO, 'bin', 'agentc.js');
const isRoot = process.getuid?.() === 0;
const dirs: string[] = [];

afterAll(async () => {
  // Readable again, so the temp directories can be removed.
  for (const d of dirs) await chmod(d, 0o755).catch(() => undefined);
  await removeTempDirs();
});

function agentcAsUser(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const [cmd, argv] = isRoot
    ? ['setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, BIN, ...args]]
    : [process.execPath, [BIN, ...args]];
  const r = spawnSync(cmd as string, argv as string[], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: '/tmp' } });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A copy of the example everyone can read (the unprivileged user must reach it). */
async function readableCopy(): Promise<string> {
  const dir = await copyExample('unreadable');
  spawnSync('chmod', ['-R', 'a+rX', dir]);
  return dir;
}

async function lock(dir: string): Promise<void> {
  await chmod(dir, 0o000);
  dirs.push(dir);
}

describe('unreadable workspace folders', () => {
  it('the CLI runs unprivileged here (else these tests prove nothing)', async () => {
    const ws = await readableCopy();
    const r = agentcAsUser(['check', '--cwd', ws]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  for (const folder of ['cards', 'blocks', join('schemas', 'tools')]) {
    it(`${folder}/ unreadable: exit 2 naming it, never "0 agents"`, async () => {
      const ws = await readableCopy();
      await lock(join(ws, folder));
      for (const args of [
        ['check', '--cwd', ws, '--format', 'json'],
        ['build', '--cwd', ws],
      ]) {
        const r = agentcAsUser(args);
        expect(r.code, `${args[0]}: ${r.stdout}${r.stderr}`).toBe(2);
        expect(r.stderr).toContain(`cannot read ${folder.split('\\').join('/')}/ (EACCES)`);
        expect(r.stderr).not.toMatch(STACK_FRAME);
        expect(r.stdout).toBe('');
      }
    });
  }

  it('an unreadable blocks/ sub-folder: one diagnostic naming it, no unknown-block cascade', async () => {
    const ws = await readableCopy();
    await lock(join(ws, 'blocks', 'rewards'));
    await mkdir(join(ws, 'blocks', 'empty-and-locked'));
    await lock(join(ws, 'blocks', 'empty-and-locked'));
    const r = agentcAsUser(['check', '--cwd', ws, '--format', 'json']);
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as { diagnostics: { rule: string; file?: string; message: string; severity: string }[] };
    const errors = report.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => [d.file, d.message])).toEqual([
      ['blocks/empty-and-locked', 'Cannot read the folder blocks/empty-and-locked/ (EACCES): the blocks in it are not checked.'],
      ['blocks/rewards', 'Cannot read the folder blocks/rewards/ (EACCES): the blocks in it are not checked.'],
    ]);
    expect(report.diagnostics.some((d) => d.rule === 'unknown-block')).toBe(false);
  });
});

describe('workspace entries that are not regular files', () => {
  it('a card that is a FIFO and a block that links to /dev/zero: an error each, no hang, no cascade', async () => {
    const ws = await copyExample('special');
    await rm(join(ws, 'cards', 'rewards.yaml'));
    execFileSync('mkfifo', [join(ws, 'cards', 'rewards.yaml')]);
    await symlink('/dev/zero', join(ws, 'blocks', 'shared', 'zero.md'));
    const { code, report } = await checkJson(ws);
    expect(code).toBe(1);
    expect(summarize(report.diagnostics)).toBe(
      [
        'frontmatter error blocks/shared/zero.md:- blocks/shared/zero.md is not a regular file (a device): agentc reads workspace files only from regular files.',
        'yaml-syntax error cards/rewards.yaml:- cards/rewards.yaml is not a regular file (a named pipe): agentc reads workspace files only from regular files.',
      ].join('\n'),
    );
  });
});
