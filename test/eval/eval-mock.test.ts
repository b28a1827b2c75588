/**
 * `agentc eval` against a mock OpenAI Chat Completions server on 127.0.0.1
 * whose routing the test controls: accuracy, exit codes, confusion matrix,
 * per-agent recall, the results cache and suite problems.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, runCli, tempDir, write } from '../robustness/workspace.js';
import { startMock, type Mock } from '../runtime/providers/mock-server.js';
import { chatWorkspace, nineOfTen, routeWith, suiteYaml, TEN } from './mock-routing.js';

let mock: Mock;
let dir: string;
const env = { OPENAI_API_KEY: 'test-key' };

beforeAll(async () => {
  mock = await startMock();
  routeWith(mock, () => nineOfTen());
  dir = await chatWorkspace('eval-mock');
  await write(dir, 'evals/ten.yaml', suiteYaml());
}, 60_000);

afterAll(async () => {
  await mock.close();
  await removeTempDirs();
});

const evalJson = async (...extra: string[]) => {
  const run = await runCli(['eval', '--cwd', dir, '--endpoint', mock.url, '--no-cache', '-f', 'json', ...extra], { env });
  return { ...run, report: JSON.parse(run.stdout) as any };
};

describe('agentc eval against a mock model', () => {
  it('reports 90% when the mock routes 9 of 10 right, and gates on --min-accuracy', async () => {
    const strict = await evalJson('--min-accuracy', '0.95');
    expect(strict.stderr).toBe('');
    expect(strict.code).toBe(1);
    expect(strict.report.formatVersion).toBe('1');
    expect(strict.report.accuracy).toBe(0.9);
    expect(strict.report.cases.map((c: { passed: boolean }) => c.passed)).toEqual(TEN.map((_, i) => i !== 1));
    expect(strict.report.cases[1].runs[0].reasons).toEqual(['asked offer_details, expected rewards']);

    const lenient = await evalJson('--min-accuracy', '0.9');
    expect(lenient.code).toBe(0);
    expect(lenient.report.accuracy).toBe(0.9);
  }, 60_000);

  it('sends the orchestrator its cohort prefix, rendered suffix and dispatch tools', async () => {
    const before = mock.seen.length;
    await evalJson();
    const sent = mock.seen.slice(before);
    expect(sent).toHaveLength(10);
    const body = sent[0]!.body;
    expect(body.model).toBe('gpt-4.1-mini');
    expect(body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain('ask_rewards');
    expect(body.messages[0].role).toBe('system');
    expect(body.messages[0].content).toContain("- `ask_rewards` — The user's points");
    expect(body.messages[0].content).toContain('Date: 2026-01-15');
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: TEN[0]!.message });
  }, 60_000);

  it('computes the confusion matrix, per-agent precision/recall, fastpath precision and cost from what the mock did', async () => {
    const { report } = await evalJson();
    const s = report.summary;
    // Case 2 expected rewards, the mock asked offer_details.
    expect(s.confusion.rewards).toEqual({ offer_details: 1, rewards: 2 });
    expect(s.confusion.offer_details).toEqual({ offer_details: 2 });
    expect(s.confusion['(direct)']).toEqual({ '(direct)': 1 });
    expect(s.agents.rewards).toMatchObject({ recall: 2 / 3, precision: 1, false_negatives: 1 });
    expect(s.agents.offer_details).toMatchObject({ recall: 1, precision: 2 / 3, false_positives: 1 });
    expect(s.agents.shop).toMatchObject({ recall: 1, precision: 1 });
    expect(s.fastpath_precision).toBe(1);
    expect(s.tokens).toEqual({ input: 10_000, output: 200 });
    // gpt-4.1-mini: $0.40 in, $1.60 out per million tokens.
    expect(s.cost_usd).toBeCloseTo((10 * (1000 * 0.4 + 20 * 1.6)) / 1e6, 9);
  }, 60_000);

  it('caches replies by prompt, tools, message and model: an unchanged run asks nothing', async () => {
    const cacheDir = await tempDir('eval-cache');
    const args = ['eval', '--cwd', dir, '--endpoint', mock.url, '--cache-dir', cacheDir, '-f', 'json'];
    const before = mock.seen.length;
    const first = await runCli(args, { env });
    expect(mock.seen.length - before).toBe(10);
    expect((await readdir(cacheDir)).filter((f) => f.endsWith('.json'))).toHaveLength(10);
    const second = await runCli(args, { env });
    expect(mock.seen.length - before).toBe(10);
    expect(JSON.parse(second.stdout)).toEqual(JSON.parse(first.stdout));
  }, 60_000);

  it('writes JUnit XML with one failure and markdown with the failed case', async () => {
    const junit = await runCli(['eval', '--cwd', dir, '--endpoint', mock.url, '--no-cache', '-f', 'junit'], { env });
    expect(junit.stdout).toContain('<testsuites name="agentc eval" tests="10" failures="1">');
    expect(junit.stdout).toContain('<failure message="asked offer_details, expected rewards"/>');
    const md = await runCli(['eval', '--cwd', dir, '--endpoint', mock.url, '--no-cache', '-f', 'markdown'], { env });
    expect(md.stdout).toContain('### Routing eval: 90.0% (9/10 runs)');
    expect(md.stdout).toContain('| What is my points balance after the last receipt? | rewards | offer_details |');
  }, 60_000);
});

describe('suite problems', () => {
  it('reports unknown agents, sub-agents and flags with positions and runs nothing (the diagnostics of agentc check)', async () => {
    const bad = await chatWorkspace('eval-bad');
    await write(
      bad,
      'evals/bad.yaml',
      'agent: fetch_assistant\nflags: [offer_stackng]\ncases:\n  - message: "points?"\n    expect: { agents: [reward] }\n    extra: 1\n',
    );
    const before = mock.seen.length;
    const run = await runCli(['eval', '--cwd', bad, '--endpoint', mock.url], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('evals/bad.yaml:6:5 - error AGC1003 schema: Unknown field "cases[0].extra" in eval suite evals/bad.yaml.');
    expect(run.stderr).toContain('agentc eval: the workspace has errors; fix them before evaluating.');
    await write(bad, 'evals/bad.yaml', 'agent: fetch_assistant\nflags: [offer_stackng]\ncases:\n  - message: "points?"\n    expect: { agents: [reward] }\n');
    const again = await runCli(['eval', '--cwd', bad, '--endpoint', mock.url], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      'evals/bad.yaml:2:9 - error AGC8003 eval-unknown-flag: Eval suite evals/bad.yaml switches on feature flag "offer_stackng", which is not in config.flags. (Did you mean "offer_stacking"?)',
    );
    expect(again.stderr).toContain(
      'evals/bad.yaml:5:24 - error AGC8002 eval-expect: Case #1 of evals/bad.yaml expects "reward" to be asked, but it is not a sub-agent of "fetch_assistant". (Did you mean "rewards"?)',
    );
    // `agentc check` reports exactly the same.
    const check = await runCli(['check', '--cwd', bad, '--format', 'text']);
    expect(check.code).toBe(1);
    for (const line of again.stderr.split('\n').filter((l) => l.includes('evals/bad.yaml'))) expect(check.stdout).toContain(line);
    // A suite named on the command line, outside evals/, goes through the same rules.
    await write(bad, 'evals/bad.yaml', 'agent: fetch_assistant\ncases:\n  - message: "points?"\n    expect: { agents: [rewards] }\n');
    await write(bad, 'other/outside.yaml', 'agent: fetch_asistant\ncases:\n  - message: "points?"\n    expect: { agents: [rewards] }\n');
    const named = await runCli(['eval', join(bad, 'other/outside.yaml'), '--cwd', bad, '--endpoint', mock.url], { env });
    expect(named.code).toBe(1);
    expect(named.stderr).toContain(
      'other/outside.yaml:1:8 - error AGC8001 eval-agent: Eval suite other/outside.yaml tests agent "fetch_asistant", which no card defines. (Did you mean "fetch_assistant"?)',
    );
    expect(named.stderr).toContain('agentc eval: the suites have errors; nothing was run.');
    expect(mock.seen.length).toBe(before);
  }, 60_000);
});
