/**
 * `agentc diff --eval SUITE`: the same suite on both sides, against a mock
 * Chat Completions server that routes by what the sub-agents' descriptions say.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edit, removeTempDirs, runCli, write } from '../robustness/workspace.js';
import { startMock, type Mock } from '../runtime/providers/mock-server.js';
import { chatWorkspace, routeWith, suiteYaml, TEN, type Routes } from './mock-routing.js';

let mock: Mock;
let before: string;
let after: string;
const env = { OPENAI_API_KEY: 'test-key' };

beforeAll(async () => {
  mock = await startMock();
  // Right on every case, unless rewards' description claims coffee deals: then coffee goes to rewards.
  routeWith(mock, (body): Routes => {
    const r: Routes = Object.fromEntries(TEN.map((c) => [c.message, c.agents]));
    if (JSON.stringify(body?.tools ?? []).includes('Also owns coffee deals')) r['Any offers on coffee?'] = ['rewards'];
    return r;
  });
  before = await chatWorkspace('diff-eval-before');
  after = await chatWorkspace('diff-eval-after');
  await write(after, 'evals/ten.yaml', suiteYaml());
  await edit(after, 'cards/rewards.yaml', (t) => t.replace('description: >-\n', 'description: >-\n  Also owns coffee deals.\n'));
}, 60_000);

afterAll(async () => {
  await mock.close();
  await removeTempDirs();
});

describe('agentc diff --eval', () => {
  it('shows the before/after accuracy and the case a description change re-routed', async () => {
    const args = ['diff', '--cwd', after, '--against', before, '--format', 'markdown', '--fail-on', 'none', '--eval', 'evals/ten.yaml', '--endpoint', mock.url];
    const start = mock.seen.length;
    const run = await runCli(args, { env, cwd: after });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('### Routing eval: `evals/ten.yaml`');
    expect(run.stdout).toMatch(/\| accuracy \| 100\.0% \(10\/10\) \| 90\.0% \(9\/10\) \|/);
    expect(run.stdout).toContain('| Any offers on coffee? | pass: offer_details | **fail**: rewards |');
    // Only the changed case is listed.
    expect(run.stdout.split('\n').filter((l) => /^\| .+ \| (pass|\*\*fail\*\*): /.test(l))).toHaveLength(1);
    expect(mock.seen.length - start).toBe(20);
    // Run again: both sides are answered from the results cache, nothing is re-asked.
    const again = await runCli(args, { env, cwd: after });
    expect(mock.seen.length - start).toBe(20);
    expect(again.stdout).toBe(run.stdout);
  }, 120_000);

  it('says when no case changed outcome', async () => {
    const same = await chatWorkspace('diff-eval-same');
    await write(same, 'evals/ten.yaml', suiteYaml());
    const run = await runCli(['diff', '--cwd', same, '--against', before, '--format', 'markdown', '--eval', 'evals/ten.yaml', '--endpoint', mock.url], {
      env,
      cwd: same,
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/\| accuracy \| 100\.0% \(10\/10\) \| 100\.0% \(10\/10\) \|/);
    expect(run.stdout).toContain('No case changed outcome.');
  }, 120_000);
});
