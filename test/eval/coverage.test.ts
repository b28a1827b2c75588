/**
 * The repo's suite against the coverage matrix: with `eval-coverage` turned on
 * (it is off by default) the repo is clean, and removing cases reports exactly
 * the single intents and pairs that lost their case.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { copyExample, edit, removeTempDirs, REPO, write } from '../robustness/workspace.js';

afterAll(removeTempDirs);

const ON = (t: string) => t.replace(/\n\s*flags: \[/, "\n  rules: { 'eval-coverage': 'warning' },\n  flags: [");

describe('eval-coverage', () => {
  it('is off by default, and the repo suite covers every sub-agent and pair of fetch_assistant', async () => {
    const ws = await copyExample('eval-coverage-repo');
    await write(ws, 'evals/routing.yaml', await readFile(join(REPO, 'evals/routing.yaml'), 'utf8'));
    const off = await compile({ root: ws });
    expect(off.diagnostics).toEqual([]);
    expect(off.program!.evals.map((s) => s.file.path)).toEqual(['evals/routing.yaml']);
    await edit(ws, 'agentc.config.ts', ON);
    const on = await compile({ root: ws });
    expect(on.diagnostics).toEqual([]);
  }, 60_000);

  it('reports exactly the pairs and single intents whose cases were removed', async () => {
    const ws = await copyExample('eval-coverage-gaps');
    const suite = await readFile(join(REPO, 'evals/routing.yaml'), 'utf8');
    // Drop the cases of two pairs and the only single-intent case of play.
    const drop = [
      'expect: { agents: [play, rewards], intent_count: 2 }',
      'expect: { agents: [rewards, shop], intent_count: 2 }',
      'expect: { agents: [play], intent_count: 1 }',
    ];
    const lines = suite.split('\n');
    const kept = lines.filter((l, i) => !drop.some((d) => l.includes(d) || (lines[i + 1] ?? '').includes(d)));
    expect(lines.length - kept.length).toBe(6);
    await write(ws, 'evals/routing.yaml', kept.join('\n'));
    await edit(ws, 'agentc.config.ts', ON);
    const result = await compile({ root: ws });
    expect(result.diagnostics.map((d) => `${d.severity} ${d.rule} ${d.file}:${d.range?.start.line}:${d.range?.start.column} ${d.message}`)).toEqual([
      'warning eval-coverage evals/routing.yaml:4:8 The eval suites of "fetch_assistant" have no mixed-intent case for "play" and "rewards".',
      'warning eval-coverage evals/routing.yaml:4:8 The eval suites of "fetch_assistant" have no mixed-intent case for "rewards" and "shop".',
      'warning eval-coverage evals/routing.yaml:4:8 The eval suites of "fetch_assistant" have no single-intent case for sub-agent "play".',
    ]);
  }, 60_000);
});
