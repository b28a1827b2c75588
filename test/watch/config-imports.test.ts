/**
 * `check --watch` through the real watch loop: the config's verdicts follow
 * config edits (issue 13's stale template verdict), and a file the config
 * imports is watched — editing it re-checks with the new config.
 */
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { watchCommand } from '../../src/cli/commands/watch.js';
import type { CliIO } from '../../src/cli/io.js';
import { BASE_MODEL, configText, makeWorkspace } from '../cache/workspace.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Captures stdout; `next()` resolves with everything printed up to the next "check:" status line. */
function capture(): { io: CliIO; next: () => Promise<string> } {
  let out = '';
  let waiters: ((text: string) => void)[] = [];
  const io: CliIO = {
    stdout: (t) => {
      out += t;
      if (t.split('\n').some((l) => l.startsWith('check:'))) {
        const w = waiters;
        waiters = [];
        const text = out;
        out = '';
        w.forEach((f) => f(text));
      }
    },
    stderr: () => {},
    cwd: '/',
    env: {},
    isTTY: false,
  };
  return { io, next: () => new Promise((r) => waiters.push(r)) };
}

test('check --watch: config edits and edits to a file the config imports re-check with the new config', async () => {
  const root = makeWorkspace({ ...BASE_MODEL, fields: ['date', 'location', 'user_id'] });
  dirs.push(root);
  appendFileSync(join(root, 'blocks/rewards/persona-rewards.md'), '\nAnswer in {{locale}}.\n');
  const { io, next } = capture();
  const ac = new AbortController();
  let report = next();
  const done = watchCommand({ cwd: root, signal: ac.signal, debounceMs: 30, format: 'text', mode: 'check' }, io);
  let text = await report;
  expect(text).toMatch(/template-unknown-variable/);
  expect(text).not.toMatch(/dynamic-in-prefix/);

  // 1. The imported file adds 'locale' to dynamicContext.fields.
  report = next();
  writeFileSync(join(root, 'config-fields.ts'), "export const extraFields: string[] = ['locale'];\n");
  text = await report;
  expect(text).toMatch(/check: .*config-fields\.ts changed/);
  expect(text).toMatch(/dynamic-in-prefix/);
  expect(text).not.toMatch(/template-unknown-variable/);

  // 2. The imported file drops it again: the verdict flips back.
  report = next();
  writeFileSync(join(root, 'config-fields.ts'), 'export const extraFields: string[] = [];\n');
  text = await report;
  expect(text).toMatch(/template-unknown-variable/);
  expect(text).not.toMatch(/dynamic-in-prefix/);

  // 3. The config itself adds it (the bug of issue 13: the verdict was cached by block alone).
  report = next();
  writeFileSync(join(root, 'agentc.config.ts'), configText(BASE_MODEL));
  text = await report;
  expect(text).toMatch(/dynamic-in-prefix/);
  expect(text).not.toMatch(/template-unknown-variable/);

  ac.abort();
  expect(await done).toBe(0);
}, 90_000);
