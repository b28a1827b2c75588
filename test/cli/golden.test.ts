/**
 * Golden output of `agentc check --format pretty` (colour off) on one failing
 * workspace: what a vertical engineer reads in a terminal. Temp paths are
 * normalized; update with `npx vitest run test/cli/golden.test.ts -u` after
 * reviewing the diff.
 */
import { afterAll, expect, it } from 'vitest';
import { edit, removeTempDirs, runCli } from '../robustness/workspace.js';
import { failingWorkspace } from './fixtures.js';

afterAll(removeTempDirs);

it('check --format pretty on a failing workspace', async () => {
  const dir = await failingWorkspace();
  // Plus a template syntax error with related information (the unclosed opener).
  await edit(dir, 'blocks/shared/capabilities-points-math.md', (t) => t.replace(/\n---\n/, '\n---\n{{#if agent.tools}}\n'));
  const r = await runCli(['check', '--cwd', '.', '--format', 'pretty'], { cwd: dir, isTTY: false, env: { NO_COLOR: '1' } });
  expect(r.code).toBe(1);
  expect(r.stderr).toBe('');
  const normalized = r.stdout.split(dir).join('<workspace>');
  expect(normalized).not.toMatch(/\x1b\[/);
  await expect(normalized).toMatchFileSnapshot('__snapshots__/check-pretty.txt');
});
