import { describe, expect, it } from 'vitest';
import { CATALOG, isDefaultOff, RULE_IDS } from '../../src/diagnostics/catalog.js';
import { groupedRules, rulesCommand, type RulesFormat } from '../../src/cli/commands/rules.js';
import type { CliIO } from '../../src/cli/io.js';

async function run(format: string, isTTY = false) {
  let stdout = '';
  let stderr = '';
  const io: CliIO = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), cwd: '/', env: {}, isTTY };
  const code = await rulesCommand({ format: format as RulesFormat }, io);
  return { code, stdout, stderr };
}

describe('agentc rules', () => {
  it('groups every rule exactly once, groups in catalog order, rules by code', () => {
    const groups = groupedRules();
    expect(groups.flatMap((g) => g.rules).sort()).toEqual([...RULE_IDS].sort());
    expect(groups.map((g) => g.group)).toEqual([...new Set(RULE_IDS.map((id) => CATALOG[id].group))]);
    for (const g of groups) {
      const codes = g.rules.map((id) => CATALOG[id].code);
      expect(codes).toEqual([...codes].sort());
    }
    expect(groups[0]!.title).toBe('Parsing and shape');
  });

  it('text: one row per rule with code, id, severity and summary', async () => {
    const { code, stdout, stderr } = await run('text');
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).not.toContain('\x1b');
    for (const id of RULE_IDS) {
      const e = CATALOG[id];
      expect(stdout).toMatch(new RegExp(`^  ${e.code}  ${id} +${isDefaultOff(id) ? 'off' : e.severity} +${escapeRe(e.summary)}$`, 'm'));
    }
    expect(stdout).toContain('Templates and caching\n');
  });

  it('text: colour on a TTY', async () => {
    expect((await run('text', true)).stdout).toContain('\x1b[');
  });

  it('json: every rule with its group', async () => {
    const { code, stdout } = await run('json');
    expect(code).toBe(0);
    const parsed = JSON.parse(stdout) as { formatVersion: string; rules: { rule: string; code: string; group: string; severity: string; summary: string }[] };
    expect(parsed.formatVersion).toBe('1');
    expect(parsed.rules.map((r) => r.rule).sort()).toEqual([...RULE_IDS].sort());
    const tool = parsed.rules.find((r) => r.rule === 'unknown-tool')!;
    expect(tool).toMatchObject({ code: 'AGC2001', group: 'references', severity: 'error', summary: CATALOG['unknown-tool'].summary });
  });

  it('markdown: a table per group', async () => {
    const { stdout } = await run('markdown');
    expect(stdout).toContain('## References\n\n| Code | Rule | Severity | Enforces |');
    expect(stdout).toContain('| AGC2001 | `unknown-tool` | error |');
    expect(stdout.endsWith('|\n')).toBe(true);
  });

  it('rejects an unknown format with exit 2', async () => {
    const { code, stderr } = await run('yaml');
    expect(code).toBe(2);
    expect(stderr).toMatch(/unknown format "yaml"/);
  });
});

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
