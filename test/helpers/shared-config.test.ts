/**
 * The test helper that lets in-process `check` runs share a config evaluation
 * (shared-config.ts): copies of the example reuse one, and a config that reads a
 * file of its own workspace is never served to another workspace.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BASE_MODEL, makeWorkspace } from '../cache/workspace.js';
import { copyExample, removeTempDirs, runCli } from '../robustness/workspace.js';
import { sharedConfigs } from './shared-config.js';

afterAll(removeTempDirs);

describe('shared config evaluations (test helper)', () => {
  it('a copy of the example starts from the evaluation another copy made', async () => {
    const first = await copyExample('shared-a');
    const second = await copyExample('shared-b');
    const configs = sharedConfigs();
    const cache = configs.compileCache(first);
    const { main } = await import('../../src/cli/main.js');
    const code = await main(['check', '--cwd', first], { stdout: () => {}, stderr: () => {}, cwd: first, env: {}, isTTY: false, compileCache: () => cache });
    expect(code).toBe(0);
    expect(cache.config?.load.error).toBeUndefined();
    configs.settle();
    expect(sharedConfigs().compileCache(second).config).toBe(cache.config);
  });

  it('a config that imports a file of its workspace is evaluated again for another workspace, with the same config text', async () => {
    // Same agentc.config.ts text; only the file it imports differs ('locale' among dynamicContext.fields or not).
    const fields = BASE_MODEL.fields.filter((f) => f !== 'locale');
    const withLocale = makeWorkspace({ ...BASE_MODEL, fields, imported: ['locale'] });
    const without = makeWorkspace({ ...BASE_MODEL, fields, imported: [] });
    // A block reads {{locale}}: a dynamic field in a prefix with the import, an unknown variable without it.
    for (const ws of [withLocale, without]) appendFileSync(join(ws, 'blocks/rewards/persona-rewards.md'), '\nAnswer in {{locale}}.\n');
    const check = (cwd: string, freshConfig: boolean) => runCli(['check', '--format', 'json', '--cwd', cwd], { freshConfig });
    const a = await check(withLocale, false);
    const b = await check(without, false);
    expect(b.stdout).toBe((await check(without, true)).stdout);
    expect(a.stdout).toBe((await check(withLocale, true)).stdout);
    expect(a.stdout).toMatch(/dynamic-in-prefix/);
    expect(b.stdout).toMatch(/template-unknown-variable/);
  });
});
