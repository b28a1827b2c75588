/**
 * makeDirs / makeDirsSync: `mkdir -p` that always returns. Node's recursive mkdir never
 * returns for a path under /proc; `AGENTC_CACHE_DIR=/proc/x agentc check` hung on it.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDirs, makeDirsSync } from '../src/make-dirs.js';
import { tempDir } from './helpers/temp-dirs.js';

const procfs = existsSync('/proc/self');

describe('makeDirs', () => {
  it('makes every missing folder, and is a no-op on an existing one', async () => {
    const root = tempDir('agentc-make-dirs-');
    makeDirsSync(join(root, 'a/b/c'));
    await makeDirs(join(root, 'x/y'), fsp);
    makeDirsSync(join(root, 'a/b/c'));
    await makeDirs(join(root, 'x/y'), fsp);
    expect(statSync(join(root, 'a/b/c')).isDirectory()).toBe(true);
    expect(statSync(join(root, 'x/y')).isDirectory()).toBe(true);
  });

  it('fails (EEXIST or ENOTDIR) when a file is in the way', async () => {
    const root = tempDir('agentc-make-dirs-');
    mkdirSync(join(root, 'a'));
    writeFileSync(join(root, 'a/file'), '');
    expect(() => makeDirsSync(join(root, 'a/file/deeper'))).toThrow(/EEXIST|ENOTDIR/);
    await expect(makeDirs(join(root, 'a/file/deeper'), fsp)).rejects.toThrow(/EEXIST|ENOTDIR/);
  });

  it.runIf(procfs)('returns (with an error) for a path under /proc, where recursive mkdir loops forever', async () => {
    expect(() => makeDirsSync('/proc/agentc-make-dirs/cache')).toThrow();
    await expect(makeDirs('/proc/agentc-make-dirs/cache', fsp)).rejects.toThrow();
  });
});

describe('a cache folder that cannot be made', () => {
  it.runIf(procfs)(
    'AGENTC_CACHE_DIR under /proc: check and build finish (nothing is cached)',
    async () => {
      const { checkCommand } = await import('../src/cli/commands/check.js');
      const { buildCommand } = await import('../src/cli/commands/build.js');
      const root = join(import.meta.dirname, '..');
      const out = tempDir('agentc-make-dirs-out-');
      const io = { stdout: () => {}, stderr: () => {}, cwd: root, env: { AGENTC_CACHE_DIR: '/proc/agentc-make-dirs/cache' }, isTTY: false };
      const saved = process.env['AGENTC_CACHE_DIR'];
      process.env['AGENTC_CACHE_DIR'] = '/proc/agentc-make-dirs/cache';
      try {
        expect(await checkCommand({ root, format: 'text' }, io)).toBe(0);
        expect(await buildCommand({ cwd: root, out, format: 'text' }, io)).toBe(0);
      } finally {
        if (saved === undefined) delete process.env['AGENTC_CACHE_DIR'];
        else process.env['AGENTC_CACHE_DIR'] = saved;
      }
    },
    60_000,
  );
});
