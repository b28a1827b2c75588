/**
 * `check --format sarif` validated by a real SARIF validator: the SARIF SDK's
 * Multitool (`@microsoft/sarif-multitool`, a devDependency; its `validate` runs
 * offline against the SARIF 2.1.0 schema and the SDK's authoring rules). The
 * logs cover every golden rule fixture (compiled in memory, rendered in-process)
 * plus one in-process CLI run, validated as printed; the Multitool runs once, over
 * both logs; the validator must report nothing — no error, no warning.
 *
 * The fixtures' results are validated in one run: every fixture's run is the same
 * apart from its results (asserted: the same tool, its ~60 kB rules table included),
 * and the Multitool's time grows with what it reads — 57 copies of that table cost
 * ~6x the CPU of one, and validated the same thing 57 times.
 *
 * Skipped with a message only when the Multitool's native binary cannot run on
 * this platform.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderSarif } from '../../src/diagnostics/render/index.js';
import { cleanup, compileFixture, fixtureNames } from '../check/fixture-workspace.js';
import { copyExample, edit, REPO, removeTempDirs, runCli } from '../robustness/workspace.js';

const require = createRequire(import.meta.url);

/** Path of the Multitool's native binary, made executable, or why it cannot run. */
function multitool(): { bin: string } | { skip: string } {
  let bin: string;
  try {
    bin = require('@microsoft/sarif-multitool') as string;
  } catch (e) {
    return { skip: `@microsoft/sarif-multitool has no binary for ${process.platform}: ${(e as Error).message}` };
  }
  if (!existsSync(bin)) return { skip: `@microsoft/sarif-multitool binary missing at ${bin}` };
  // npm may skip the package's postinstall (chmod u+x) when install scripts are not allowed.
  if ((statSync(bin).mode & 0o100) === 0) chmodSync(bin, statSync(bin).mode | 0o100);
  const probe = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  if (probe.status !== 0)
    return { skip: `the SARIF Multitool cannot run here (${probe.error?.message ?? probe.stderr.trim().split('\n')[0] ?? `exit ${probe.status}`})` };
  return { bin };
}

const tool = multitool();
if ('skip' in tool) console.warn(`SARIF validation skipped: ${tool.skip}`);

const dirs: string[] = [];
afterAll(async () => {
  await removeTempDirs();
  await Promise.all(dirs.map(cleanup));
});

interface ValidatorResult {
  ruleId: string;
  level?: string;
  message: { text?: string; id?: string; arguments?: string[] };
  locations?: { physicalLocation?: { artifactLocation?: { uri?: string } } }[];
}

describe.skipIf('skip' in tool)('SARIF output validated by the SARIF Multitool', () => {
  it('every rule fixture and a CLI run give SARIF with no validator findings', async () => {
    const out = mkdtempSync(join(tmpdir(), 'agentc-sarif-'));
    dirs.push(out);
    const logs: string[] = [];
    const rules = new Set<string>();
    const fixtureResults: unknown[] = [];
    let envelope: Record<string, unknown> | undefined;
    let shared: string | undefined;
    let firstRun: Record<string, unknown> | undefined;
    for (const name of await fixtureNames()) {
      const result = await compileFixture(name, dirs);
      const root = join(tmpdir(), `agentc-fixture-${name}`);
      for (const d of result.diagnostics) rules.add(d.rule);
      const log = JSON.parse(renderSarif(result.diagnostics, { cwd: root, root, toolVersion: '0.0.0-test' })) as { runs: Record<string, unknown>[] };
      expect(log.runs).toHaveLength(1);
      const { results, ...rest } = log.runs[0]!;
      // Everything but the results is the same in every fixture's run: validated once, below.
      shared ??= JSON.stringify(rest);
      expect(JSON.stringify(rest), `${name}: the run apart from its results`).toBe(shared);
      envelope ??= log;
      firstRun ??= rest;
      fixtureResults.push(...((results as unknown[] | undefined) ?? []));
    }
    expect(fixtureResults.length, 'the fixtures report results').toBeGreaterThan(50);
    expect(rules.size, 'the logs cover many rules').toBeGreaterThanOrEqual(30);
    const fixturesLog = join(out, 'fixtures.sarif');
    writeFileSync(fixturesLog, `${JSON.stringify({ ...envelope, runs: [{ ...firstRun, results: fixtureResults }] }, null, 2)}\n`);
    logs.push(fixturesLog);

    // The real CLI path too: a workspace with errors and warnings of several rules.
    const ws = await copyExample('sarif');
    await edit(ws, 'cards/rewards.yaml', (t) => t.replace('tools: [get_user_points,', 'tools: [get_user_pints,').replace('role: native', 'role: natve'));
    await edit(ws, 'cards/ereceipts.yaml', (t) => t.replace('sub_agents: []', 'sub_agents: [fetch_assistant]'));
    const cli = await runCli(['check', '--format', 'sarif', '--cwd', ws]);
    expect(cli.code).toBe(1);
    const cliLog = join(out, 'cli.sarif');
    writeFileSync(cliLog, cli.stdout);
    logs.push(cliLog);

    const report = join(out, 'validation.sarif');
    const run = spawnSync((tool as { bin: string }).bin, ['validate', ...logs, '--output', report, '--quiet'], {
      encoding: 'utf8',
      timeout: 300_000,
      cwd: REPO,
    });
    expect(run.status, `validator exit code\n${run.stdout}\n${run.stderr}`).toBe(0);
    const findings = (JSON.parse(readFileSync(report, 'utf8')) as { runs: { results?: ValidatorResult[] }[] }).runs.flatMap((r) => r.results ?? []);
    const shown = findings.map(
      (f) =>
        `${f.level ?? 'warning'} ${f.ruleId} ${f.locations?.[0]?.physicalLocation?.artifactLocation?.uri ?? ''}: ${f.message.text ?? (f.message.arguments ?? []).join(' | ')}`,
    );
    expect(shown).toEqual([]);
    rmSync(report, { force: true });
  }, 600_000);
});
