/**
 * The repo's own routing suite (evals/routing.yaml) passes against its route
 * script, and its JSON report matches schemas/eval-report.schema.json.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { REPO, runCli } from '../robustness/workspace.js';

describe('evals/routing.yaml', () => {
  it('passes against evals/scripts/routing.yaml with a valid JSON report', async () => {
    const run = await runCli(['eval', '--script', 'evals/scripts/routing.yaml', '--min-accuracy', '0.95', '-f', 'json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.accuracy).toBe(1);
    expect(report.summary.intent_count_accuracy).toBe(1);
    expect(report.summary.fastpath_precision).toBe(1);
    expect(Object.keys(report.summary.agents)).toEqual(['ereceipts', 'offer_details', 'play', 'restaurants', 'retailer_context', 'rewards', 'shop', 'support']);
    const schema = JSON.parse(await readFile(join(REPO, 'schemas/eval-report.schema.json'), 'utf8'));
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
  }, 60_000);

  it('fails a case whose scripted route is missing, with the reason, and exits 1', async () => {
    const run = await runCli(['eval', 'evals/routing.yaml', '--script', 'test/eval/fixtures/partial-script.yaml']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'FAIL  evals/routing.yaml #2  Is there a deal on Tide detergent this week?\n        model call failed: the script has no route for message "Is there a deal on Tide detergent this week?"',
    );
    expect(run.stdout).toContain('FAIL  evals/routing.yaml #1  How many points do I have right now?\n        asked offer_details, expected rewards\n');
  }, 60_000);
});

describe('agentc eval --scaffold', () => {
  it('writes a suite with a case per sub-agent and per pair that checks clean against the bundle', async () => {
    const run = await runCli(['eval', '--scaffold', 'fetch_assistant']);
    expect(run.code).toBe(0);
    const pairs = (run.stdout.match(/intent_count: 2/g) ?? []).length;
    const singles = (run.stdout.match(/intent_count: 1/g) ?? []).length;
    expect(singles).toBe(8);
    expect(pairs).toBe(28); // 8 choose 2
    expect(run.stdout).toContain(
      '  - message: "TODO: one request for offer_details and one for rewards"\n    expect: { agents: [offer_details, rewards], intent_count: 2 }\n',
    );
    // Checked by the same rules as `agentc check`, eval-coverage included: the scaffold is the coverage matrix.
    const { compile } = await import('../../src/compile.js');
    const { runChecks } = await import('../../src/check/index.js');
    const { evalCoverage } = await import('../../src/check/rules/eval-coverage.js');
    const { loadSuites } = await import('../../src/eval/load.js');
    const { parseEvalSuite } = await import('../../src/parse/eval-suite.js');
    const { SourceFile } = await import('../../src/load/source.js');
    const { DiagnosticBag } = await import('../../src/diagnostics/diagnostic.js');
    const program = (await compile({ root: REPO })).program!;
    const dir = await mkdtemp(join(tmpdir(), 'agentc-scaffold-'));
    await writeFile(join(dir, 'scaffold.yaml'), run.stdout);
    const loaded = await loadSuites(program, dir, ['scaffold.yaml']);
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.suites).toHaveLength(1);
    const bag = new DiagnosticBag();
    const parsed = parseEvalSuite(new SourceFile('evals/scaffold.yaml', run.stdout), bag);
    expect(bag.items).toEqual([]);
    expect(runChecks({ ...program, evals: [parsed!] }, [evalCoverage])).toEqual([]);
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('refuses an agent without sub-agents, with a did-you-mean', async () => {
    const run = await runCli(['eval', '--scaffold', 'fetch_asistant']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"fetch_asistant" is not one.');
    expect(run.stderr).toContain('fetch_assistant');
  }, 60_000);
});
