import { describe, expect, it } from 'vitest';
import { CATALOG, RULE_IDS, ruleTemplates, type RuleId } from '../../src/diagnostics/catalog.js';
import { fakeDiagnostic } from './fake-diagnostic.js';
import { sarifLog, type SarifLog } from '../../src/diagnostics/render/index.js';
import { FINGERPRINT_KEY, WORKSPACE_ANCHOR } from '../../src/diagnostics/render/sarif.js';
import { diagnostics } from './fixtures.js';

const opts = { toolVersion: '1.2.3' };

describe('sarif', () => {
  const log: SarifLog = sarifLog(diagnostics, opts);
  const run = log.runs[0];

  it('has the SARIF 2.1.0 envelope with one run', () => {
    expect(log.$schema).toMatch(/sarif-2\.1\.0/);
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    expect(run.tool.driver).toMatchObject({ name: 'agentc', version: '1.2.3', informationUri: expect.stringMatching(/^https:\/\//) });
    expect(run.columnKind).toBe('utf16CodeUnits');
  });

  it('lists every catalog rule with its summary and default level', () => {
    const rules = run.tool.driver.rules;
    expect(new Set(rules.map((r) => r.id))).toEqual(new Set(RULE_IDS));
    expect(rules.map((r) => r.properties.code)).toEqual(rules.map((r) => r.properties.code).sort());
    for (const rule of rules) {
      const entry = CATALOG[rule.id as keyof typeof CATALOG];
      expect(rule.shortDescription.text).toBe(entry.summary);
      expect(rule.defaultConfiguration.level).toBe(entry.severity);
      expect(rule.properties.code).toBe(entry.code);
      // SARIF1001: a name equal to the id (ignoring case) is omitted.
      if (rule.id.includes('-')) expect(rule.name).toMatch(/^[A-Z][A-Za-z]+$/);
      else expect(rule.name).toBeUndefined();
      // Every message the rule can produce, and every hint.
      const templates = ruleTemplates(rule.id as RuleId);
      expect(rule.messageStrings).toEqual(Object.fromEntries(Object.entries(templates.messages).map(([k, v]) => [k, { text: v }])));
      const hints = Object.values(templates.hints);
      expect(rule.help?.text).toBe(hints.length > 0 ? hints.join('\n') : undefined);
    }
  });

  it('gives each diagnostic a result pointing at its rule and place', () => {
    expect(run.results).toHaveLength(diagnostics.length);
    for (const result of run.results) {
      expect(run.tool.driver.rules[result.ruleIndex]!.id).toBe(result.ruleId);
      expect(['error', 'warning']).toContain(result.level);
      expect(result.locations).toHaveLength(1);
      expect(result.locations[0]!.physicalLocation.artifactLocation.uriBaseId).toBe('%SRCROOT%');
      expect(Object.keys(result.partialFingerprints)).toEqual([FINGERPRINT_KEY]);
    }
    const unknownTool = run.results.find((r) => r.ruleId === 'unknown-tool')!;
    expect(unknownTool).toMatchObject({
      level: 'error',
      message: { text: 'Card "rewards" uses tool "get_user_pionts", which is not declared in schemas/tools/.\nDid you mean "get_user_points"?' },
      locations: [
        { physicalLocation: { artifactLocation: { uri: 'cards/rewards.yaml' }, region: { startLine: 9, startColumn: 9, endLine: 9, endColumn: 24 } } },
      ],
      relatedLocations: [
        {
          id: 1,
          physicalLocation: { artifactLocation: { uri: 'schemas/tools/get_user_points.yaml' }, region: { startLine: 2 } },
          message: { text: 'declared here' },
        },
      ],
    });
  });

  it('anchors workspace-level diagnostics at the config (GitHub rejects results without a location)', () => {
    const result = run.results.find((r) => r.ruleId === 'config-load')!;
    expect(result.locations[0]!.physicalLocation.artifactLocation.uri).toBe(WORKSPACE_ANCHOR);
    expect(result.locations[0]!.physicalLocation.region).toBeUndefined();
  });

  it('keeps fingerprints when lines move, and tells identical findings apart', () => {
    const at = (line: number) =>
      fakeDiagnostic({
        rule: 'unknown-tool',
        data: { card: 'a', name: 'x' },
        file: 'cards/a.yaml',
        range: { start: { line, column: 1 }, end: { line, column: 2 } },
      });
    const fp = (ds: ReturnType<typeof at>[]) => sarifLog(ds, opts).runs[0].results.map((r) => r.partialFingerprints[FINGERPRINT_KEY]);
    expect(fp([at(3)])).toEqual(fp([at(7)]));
    const two = fp([at(3), at(9)]);
    expect(new Set(two).size).toBe(2);
    expect(two[0]).toMatch(/^[0-9a-f]{32}:1$/);
  });

  it('percent-encodes URIs, uses cwd-relative paths and never an absolute path', () => {
    const d = fakeDiagnostic({ rule: 'unused-block', data: { name: 'b' }, file: 'blocks/my block#1.md' });
    const result = sarifLog([d], { ...opts, cwd: '/repo', root: '/repo/ws' }).runs[0].results[0]!;
    expect(result.locations[0]!.physicalLocation.artifactLocation.uri).toBe('ws/blocks/my%20block%231.md');
    expect(JSON.stringify(sarifLog(diagnostics, { ...opts, cwd: '/repo', root: '/repo/ws' }))).not.toContain('/repo');
  });

  it('repairs a range whose end precedes its start', () => {
    const d = fakeDiagnostic({ rule: 'schema', text: 'x', file: 'a.yaml', range: { start: { line: 5, column: 4 }, end: { line: 2, column: 1 } } });
    expect(sarifLog([d], opts).runs[0].results[0]!.locations[0]!.physicalLocation.region).toEqual({ startLine: 5, startColumn: 4, endLine: 5, endColumn: 4 });
  });
});
