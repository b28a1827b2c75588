/**
 * Every --format of `agentc check` on a failing workspace, run in-process:
 * what goes to stdout (and only there), -o FILE, the GitHub step summary,
 * colour rules (TTY, NO_COLOR) and the default format.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULE_IDS } from '../../src/diagnostics/catalog.js';
import { removeTempDirs, runCli, tempDir, type JsonReport } from '../robustness/workspace.js';
import { failingWorkspace } from './fixtures.js';

const ANSI = /\x1b\[/;
/** Colour (SGR) only: on a terminal, stderr may carry the progress spinner's line-clearing escape. */
const SGR = /\x1b\[[0-9;]*m/;
let dir: string;
let cacheDir: string;
/**
 * `check` with the workspace as the current directory, so reported paths are workspace-relative.
 * These tests are about the reports: after the first run the diagnostics come from the persistent
 * result cache (a build id injected, as test/cache/check-result.test.ts does, which proves a warm
 * result equals a cold one) rather than from a compile and a config evaluation per run.
 */
const check = (args: string[], opts: { env?: Record<string, string | undefined>; isTTY?: boolean } = {}) =>
  runCli(['check', '--cwd', '.', ...args], { cwd: dir, isTTY: opts.isTTY, env: { ...opts.env, AGENTC_CACHE_DIR: cacheDir }, buildId: 'b'.repeat(64) });

beforeAll(async () => {
  dir = await failingWorkspace();
  cacheDir = await tempDir('formats-cache');
});
afterAll(removeTempDirs);

describe('--format json', () => {
  it('stdout is one JSON document and nothing else; stderr is empty', async () => {
    const r = await check(['--format', 'json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout.endsWith('}\n')).toBe(true);
    const report = JSON.parse(r.stdout) as JsonReport;
    expect(Object.keys(report)).toEqual(['formatVersion', 'valid', 'errorCount', 'warningCount', 'diagnostics']);
    expect(report).toMatchObject({ formatVersion: '1', valid: false, errorCount: 2 });
    expect(report.warningCount).toBe(report.diagnostics.filter((d) => d.severity === 'warning').length);
    expect(report.diagnostics.map((d) => `${d.rule} ${d.file}:${d.range?.start.line}:${d.range?.start.column}`)).toEqual(
      expect.arrayContaining([
        'unknown-tool cards/rewards.yaml:11:9',
        'template-unknown-variable blocks/rewards/persona-rewards.md:9:16',
        'unused-block blocks/shared/context-unused.md:2:1',
      ]),
    );
    for (const d of report.diagnostics) {
      expect(d.code).toMatch(/^AGC\d{4}$/);
      expect(RULE_IDS).toContain(d.rule);
    }
  });

  it('stays pure JSON on a TTY with colour allowed (no progress, no escapes)', async () => {
    const r = await check(['--format', 'json'], { isTTY: true, env: {} });
    expect(() => JSON.parse(r.stdout)).not.toThrow();
    expect(r.stdout).not.toMatch(ANSI);
  });

  it('a clean workspace: valid true, empty list', async () => {
    const { copyExample } = await import('../robustness/workspace.js');
    const r = await runCli(['check', '--cwd', await copyExample('cli'), '--format', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ formatVersion: '1', valid: true, errorCount: 0, warningCount: 0, diagnostics: [] });
  });
});

describe('--format sarif', () => {
  it('is a valid SARIF 2.1.0 log', async () => {
    const r = await check(['--format', 'sarif']);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout);
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toMatch(/sarif-2\.1\.0/);
    expect(log.runs).toHaveLength(1);
    const run = log.runs[0];
    expect(run.tool.driver.name).toBe('agentc');
    expect(run.tool.driver.version).toMatch(/^\d+\.\d+\.\d+/);
    const ruleIds = run.tool.driver.rules.map((x: { id: string }) => x.id);
    expect([...ruleIds].sort()).toEqual([...RULE_IDS].sort());
    expect(run.results.length).toBeGreaterThanOrEqual(3);
    for (const res of run.results) {
      expect(run.tool.driver.rules[res.ruleIndex].id).toBe(res.ruleId);
      expect(['error', 'warning', 'note']).toContain(res.level);
      expect(res.message.text.length).toBeGreaterThan(0);
      const loc = res.locations[0].physicalLocation;
      expect(loc.artifactLocation.uri).toMatch(/^(cards|blocks|schemas)\//);
      expect(loc.region.startLine).toBeGreaterThanOrEqual(1);
      expect(loc.region.startColumn).toBeGreaterThanOrEqual(1);
    }
    expect(run.results.find((x: { ruleId: string }) => x.ruleId === 'unknown-tool').locations[0].physicalLocation).toMatchObject({
      artifactLocation: { uri: 'cards/rewards.yaml' },
      region: { startLine: 11, startColumn: 9, endLine: 11, endColumn: 24 },
    });
  });
});

describe('--format github', () => {
  it('one workflow command per diagnostic, one line each', async () => {
    const r = await check(['--format', 'github']);
    expect(r.code).toBe(1);
    const commands = r.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(commands.length).toBeGreaterThanOrEqual(3);
    expect(commands).toContainEqual(
      expect.stringMatching(/^::error file=cards\/rewards\.yaml,line=11,col=9,endLine=11,endColumn=24,title=AGC2001 unknown-tool::/),
    );
    expect(commands).toContainEqual(expect.stringMatching(/^::warning file=blocks\/shared\/context-unused\.md,line=2,col=1,/));
    expect(r.stdout).not.toMatch(ANSI);
  });

  it('writes the full list to $GITHUB_STEP_SUMMARY when it is set', async () => {
    const summary = join(await tempDir('cli'), 'summary.md');
    const r = await check(['--format', 'github'], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(1);
    const md = await readFile(summary, 'utf8');
    expect(md).toMatch(/unknown-tool/);
    expect(md).toMatch(/template-unknown-variable/);
  });
});

describe('--format text and pretty', () => {
  it('text: one line per diagnostic, then the summary', async () => {
    const r = await check(['--format', 'text']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^Found 2 errors and \d+ warnings? in \d+ files\.$/);
    expect(lines).toContainEqual(
      expect.stringMatching(/^cards\/rewards\.yaml:11:9 - error AGC2001 unknown-tool: .*get_user_pionts.*Did you mean "get_user_points"\?/),
    );
  });

  it('pretty: location line, code frame with the span underlined, hint, summary', async () => {
    const r = await check(['--format', 'pretty']);
    expect(r.stdout).toContain('cards/rewards.yaml:11:9 - error AGC2001 unknown-tool:');
    expect(r.stdout).toMatch(/> 11 \| tools: \[get_user_pionts,.*\n\s+\| {9}~{15}\n/);
    expect(r.stdout).toContain('Did you mean "get_user_points"?');
  });

  it('default format: text when stdout is not a terminal, pretty on a terminal', async () => {
    expect((await check([])).stdout).toBe((await check(['--format', 'text'])).stdout);
    const tty = await check([], { isTTY: true, env: { NO_COLOR: '1' } });
    expect(tty.stdout).toBe((await check(['--format', 'pretty'])).stdout);
  });
});

describe('colour', () => {
  for (const format of ['pretty', 'text', 'json', 'github', 'sarif']) {
    it(`${format}: no ANSI escapes when stdout is not a terminal`, async () => {
      const r = await check(['--format', format], { isTTY: false });
      expect(r.stdout).not.toMatch(ANSI);
      expect(r.stderr).not.toMatch(ANSI);
    });
    it(`${format}: no colour on a terminal with NO_COLOR set`, async () => {
      const r = await check(['--format', format], { isTTY: true, env: { NO_COLOR: '1' } });
      expect(r.stdout).not.toMatch(ANSI);
      expect(r.stderr).not.toMatch(SGR);
    });
  }

  it('pretty on a terminal without NO_COLOR is coloured, and only that differs', async () => {
    const r = await check(['--format', 'pretty'], { isTTY: true, env: {} });
    expect(r.stdout).toMatch(ANSI);
    expect(r.stdout.replace(/\x1b\[[0-9;]*m/g, '')).toBe((await check(['--format', 'pretty'])).stdout);
  });

  it('TERM=dumb turns colour off', async () => {
    const r = await check(['--format', 'pretty'], { isTTY: true, env: { TERM: 'dumb' } });
    expect(r.stdout).not.toMatch(ANSI);
  });
});

describe('-o FILE', () => {
  for (const format of ['pretty', 'text', 'json', 'github', 'sarif']) {
    it(`${format}: the report goes to the file, nothing to stdout`, async () => {
      const out = join(await tempDir('cli'), `report.${format}`);
      const r = await check(['--format', format, '-o', out]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      const written = await readFile(out, 'utf8');
      expect(written).toBe((await check(['--format', format])).stdout);
    });
  }

  it('relative to the current directory, never coloured', async () => {
    const r = await check(['--format', 'pretty', '--output', 'agentc-report.txt'], { isTTY: true, env: {} });
    expect(r.stdout).toBe('');
    const written = await readFile(join(dir, 'agentc-report.txt'), 'utf8');
    expect(written).not.toMatch(ANSI);
    expect(written).toContain('unknown-tool');
  });

  it('an unwritable output path is exit 2', async () => {
    const r = await check(['--format', 'json', '-o', join(dir, 'no-such-dir', 'deeper', 'report.json')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  // src/cli/commands/check.ts: writeFile's ENOENT escapes to main(), which reports "internal error … This is a bug in agentc".
  it('an unwritable output path is reported as a usage problem, not as an agentc bug', async () => {
    const out = join(dir, 'no-such-dir', 'deeper', 'report.json');
    const r = await check(['--format', 'json', '-o', out]);
    expect(existsSync(out)).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/report\.json/);
    expect(r.stderr).not.toMatch(/internal error|This is a bug/);
  });
});

describe('hostile text in diagnostics', () => {
  let hostile: string;
  const run = (format: string) => runCli(['check', '--cwd', '.', '--format', format], { cwd: hostile });
  beforeAll(async () => {
    const { copyExample, edit } = await import('../robustness/workspace.js');
    hostile = await copyExample('cli-hostile');
    // A key holding terminal escapes, BEL, and newlines that try to start workflow commands; a 200 kB line.
    await edit(hostile, 'cards/rewards.yaml', (t) => `${t}"evil\\u001b[2J\\u001b]0;title\\u0007key\\n::error file=x::pwned\\r::warning::again": 1\n`);
    await edit(hostile, 'blocks/rewards/persona-rewards.md', (t) => `${t}${'x'.repeat(200_000)} {{agent.id}\n`);
  });

  // src/diagnostics/render/github.ts escapes %, CR and LF but passes ESC and BEL through (the Actions log renders ANSI).
  it('github: no raw control characters (ESC, BEL) in workflow commands', async () => {
    expect((await run('github')).stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  });

  it('no format lets user text start a line of its own, or print raw control characters (pretty, text)', async () => {
    for (const format of ['pretty', 'text', 'github']) {
      const r = await run(format);
      expect(r.code, format).toBe(1);
      if (format !== 'github') expect(r.stdout, format).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
      expect(r.stdout.length, `${format}: long lines are cropped in reports`).toBeLessThan(20_000);
    }
    const github = (await run('github')).stdout.trimEnd().split('\n');
    for (const line of github.slice(0, -1)) expect(line).toMatch(/^::(error|warning|notice) /);
    expect(github.at(-1)).toMatch(/^Found /);
    for (const format of ['json', 'sarif']) {
      const parsed = JSON.parse((await run(format)).stdout);
      expect(JSON.stringify(parsed)).toContain('::error file=x::pwned');
    }
  });
});
