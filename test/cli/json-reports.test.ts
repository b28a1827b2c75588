/**
 * Every JSON output (`check`, `diff`, `run`) carries `formatVersion` and
 * validates against its published JSON Schema in schemas/ (ajv, draft 2020-12,
 * strict): real outputs of the commands on real workspaces, not hand-made ones.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { copyExample, edit, removeTempDirs, REPO, runCli, write } from '../robustness/workspace.js';
import { failingWorkspace } from './fixtures.js';

afterAll(removeTempDirs);

const ajv = new Ajv2020({ allErrors: true, strict: true });
const validators = new Map<string, ReturnType<typeof ajv.compile>>();
function validator(name: string) {
  let v = validators.get(name);
  if (v === undefined) {
    v = ajv.compile(JSON.parse(readFileSync(join(REPO, 'schemas', `${name}.schema.json`), 'utf8')) as object);
    validators.set(name, v);
  }
  return v;
}

function expectValid(name: string, stdout: string): Record<string, unknown> {
  const report = JSON.parse(stdout) as Record<string, unknown>;
  const validate = validator(name);
  const ok = validate(report);
  expect(validate.errors ?? [], name).toEqual([]);
  expect(ok).toBe(true);
  expect(report.formatVersion).toBe('1');
  return report;
}

describe('published JSON report schemas', () => {
  it('check --format json, with errors, warnings, hints and related locations', async () => {
    const r = await runCli(['check', '--cwd', await failingWorkspace(), '--format', 'json']);
    expect(r.code).toBe(1);
    const report = expectValid('check-report', r.stdout);
    expect((report.diagnostics as { related?: unknown }[]).some((d) => d.related !== undefined)).toBe(true);
    expectValid('check-report', (await runCli(['check', '--cwd', REPO, '--format', 'json'])).stdout);
  });

  it('diff --format json, with prompt, tool and dispatch changes', async () => {
    const before = await copyExample('diff-before');
    const after = await copyExample('diff-after');
    await edit(after, 'schemas/tools/get_user_points.yaml', (t) => t.replace('include_pending:', 'include_pending_points:'));
    await edit(after, 'blocks/rewards/persona-rewards.md', (t) => `${t}\nAlways state the points balance first.\n`);
    await write(after, 'blocks/shared/context-unused.md', '---\ncategory: context\nowner: platform\nreusable: true\n---\nNotes.\n');
    const r = await runCli(['diff', '--cwd', after, '--against', before, '--format', 'json', '--fail-on', 'none']);
    expect(r.stderr).toBe('');
    const report = expectValid('diff-report', r.stdout);
    expect((report.changes as unknown[]).length).toBeGreaterThan(1);
  });

  it('run --format json, an answered turn and a failed one', async () => {
    const ok = await runCli(['run', 'fetch_assistant', 'Points and coffee offers?', '--script', 'examples/mixed-intent.yaml', '--format', 'json']);
    expect(ok.code).toBe(0);
    const report = expectValid('run-report', ok.stdout);
    expect((report.calls as unknown[]).length).toBeGreaterThan(0);
    expect((report.events as unknown[]).length).toBeGreaterThan(0);

    const dir = await copyExample('run-fail');
    await write(dir, 'fail.yaml', 'llm:\n  fetch_assistant: [ { error: boom }, { error: boom } ]\n');
    const failed = await runCli(['run', 'fetch_assistant', 'hi', '--cwd', dir, '--script', join(dir, 'fail.yaml'), '--format', 'json']);
    expect(failed.code).toBe(1);
    expect(expectValid('run-report', failed.stdout).error).toMatchObject({ agent: 'fetch_assistant' });
  });
});
