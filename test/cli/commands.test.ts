/** The commands around check: --help (with an example), --version, rules, init → check. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CATALOG, isDefaultOff, RULE_IDS, ruleTemplates, type RuleId } from '../../src/diagnostics/catalog.js';
import { AGENTC_VERSION } from '../../src/version.js';
import { removeTempDirs, REPO, runCli, tempDir } from '../robustness/workspace.js';

afterAll(removeTempDirs);

const COMMANDS = ['check', 'build', 'diff', 'prompt', 'graph', 'run', 'init', 'rules'];

describe('--help', () => {
  for (const command of COMMANDS) {
    it(`${command} --help: usage, --cwd where it applies, and an example`, async () => {
      const r = await runCli([command, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: agentc ${command}`));
      expect(r.stdout).toMatch(/\nExample:\n {2}agentc /);
      if (!['init', 'rules'].includes(command)) expect(r.stdout).toContain('--cwd <dir>');
      expect(r.stderr).toBe('');
    });
    it(`agentc help ${command} is the same text`, async () => {
      expect((await runCli(['help', command])).stdout).toBe((await runCli([command, '--help'])).stdout);
    });
  }

  it('agentc --help lists every command', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const c of COMMANDS) expect(r.stdout).toMatch(new RegExp(`\\n  ${c}\\b`));
  });

  // docs/cli.md "Every command: … --help with an example": the top-level help has none (src/cli/main.ts adds examples per command only).
  it('agentc --help includes an example too', async () => {
    expect((await runCli(['--help'])).stdout).toContain('Example:');
  });

  it('agentc with no command prints the help on stderr and exits 2', async () => {
    const r = await runCli([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Usage: agentc/);
  });
});

describe('--version', () => {
  it('prints the package version and exits 0', async () => {
    const pkg = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const r = await runCli([flag]);
      expect(r).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    }
    expect(AGENTC_VERSION).toBe(pkg.version);
  });
});

describe('agentc rules', () => {
  it('text lists every catalog rule with its code and default severity', async () => {
    const r = await runCli(['rules']);
    expect(r.code).toBe(0);
    for (const id of RULE_IDS) expect(r.stdout).toMatch(new RegExp(`${CATALOG[id].code} +${id} +${isDefaultOff(id) ? 'off' : CATALOG[id].severity}`));
    expect(r.stdout).toContain(`${RULE_IDS.length} rules.`);
  });

  it('json has every rule exactly once', async () => {
    const r = await runCli(['rules', '--format', 'json']);
    const { rules } = JSON.parse(r.stdout) as { rules: { rule: string; code: string; severity: string }[] };
    expect(rules.map((x) => x.rule).sort()).toEqual([...RULE_IDS].sort());
    for (const x of rules) {
      const id = x.rule as keyof typeof CATALOG;
      expect(x).toMatchObject({ code: CATALOG[id].code, severity: isDefaultOff(id) ? 'off' : CATALOG[id].severity });
    }
  });

  it('markdown has a table row per rule', async () => {
    const r = await runCli(['rules', '--format', 'markdown']);
    for (const id of RULE_IDS) expect(r.stdout).toContain(`| ${CATALOG[id].code} | \`${id}\` |`);
  });

  it('every format shows every message and hint template of every rule', async () => {
    const text = (await runCli(['rules'])).stdout;
    const markdown = (await runCli(['rules', '--format', 'markdown'])).stdout;
    const { rules } = JSON.parse((await runCli(['rules', '--format', 'json'])).stdout) as {
      rules: { rule: RuleId; messages: Record<string, string>; hints: Record<string, string> }[];
    };
    for (const x of rules) expect({ messages: x.messages, hints: x.hints }).toEqual(ruleTemplates(x.rule));
    for (const id of RULE_IDS) {
      const t = ruleTemplates(id);
      for (const m of [...Object.values(t.messages), ...Object.values(t.hints)]) {
        const shown = m.replace(/\n/g, ' ⏎ ');
        expect(text).toContain(shown);
        expect(markdown).toContain(shown.replace(/\|/g, '\\|'));
      }
    }
  });

  it('no colour when not on a terminal or with NO_COLOR', async () => {
    expect((await runCli(['rules'])).stdout).not.toMatch(/\x1b\[/);
    expect((await runCli(['rules'], { isTTY: true, env: { NO_COLOR: '1' } })).stdout).not.toMatch(/\x1b\[/);
    expect((await runCli(['rules'], { isTTY: true, env: {} })).stdout).toMatch(/\x1b\[/);
  });
});

describe('agentc init', () => {
  it('init DIR, then check --cwd DIR exits 0 with no findings', async () => {
    const parent = await tempDir('cli-init');
    const init = await runCli(['init', 'my-agents'], { cwd: parent });
    expect(init.code).toBe(0);
    const check = await runCli(['check', '--cwd', 'my-agents', '--format', 'json'], { cwd: parent });
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ valid: true, errorCount: 0, warningCount: 0 });
    expect((await runCli(['check', '--cwd', join(parent, 'my-agents'), '--max-warnings', '0'])).code).toBe(0);
  });

  it('init into a non-empty scaffold twice does not silently overwrite', async () => {
    const parent = await tempDir('cli-init');
    expect((await runCli(['init', 'ws'], { cwd: parent })).code).toBe(0);
    const config = join(parent, 'ws', 'agentc.config.ts');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(config, '// mine\n' + (await readFile(config, 'utf8')));
    const again = await runCli(['init', 'ws'], { cwd: parent });
    expect(again.code).not.toBe(0);
    expect(await readFile(config, 'utf8')).toMatch(/^\/\/ mine\n/);
  });
});
