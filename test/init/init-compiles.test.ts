/**
 * The scaffold passes `agentc check` with zero errors and zero warnings. Runs
 * once src/compile.ts exports an implementation (it is a declaration until the
 * pipeline lands).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initCommand } from '../../src/cli/commands/init.js';

const mod = (await import('../../src/compile.js')) as Record<string, unknown>;
const compile = mod.compile as undefined | ((o: { root: string; bundle?: boolean }) => Promise<{ diagnostics: unknown[]; fatal: unknown; bundle: unknown }>);

describe('agentc init → compile', () => {
  it.skipIf(typeof compile !== 'function')('compiles the scaffold with no diagnostics at all', async () => {
    const base = mkdtempSync(join(tmpdir(), 'agentc-init-compile-'));
    const quiet = { stdout: () => {}, stderr: () => {}, cwd: base, env: {}, isTTY: false };
    expect(await initCommand({ dir: 'ws' }, quiet)).toBe(0);
    const result = await compile!({ root: join(base, 'ws'), bundle: true });
    expect(result.fatal || undefined).toBeUndefined();
    expect(result.diagnostics).toEqual([]);
    expect(result.bundle).toBeDefined();
    rmSync(base, { recursive: true, force: true });
  });
});
