import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { fakeDiagnostic } from './fake-diagnostic.js';
import { displayPath, jsonReport, renderJson, renderText, summaryLine } from '../../src/diagnostics/render/index.js';

const err = (file?: string): Diagnostic => fakeDiagnostic({ rule: 'unknown-tool', data: { card: 'c', name: 't' }, file });
const warn = (file?: string): Diagnostic => fakeDiagnostic({ rule: 'unused-tool', data: { name: 't' }, file });

describe('summaryLine', () => {
  it.each([
    [[], 'No problems found.'],
    [[err('a')], 'Found 1 error in 1 file.'],
    [[err('a'), err('b')], 'Found 2 errors in 2 files.'],
    [[warn('a')], 'Found 1 warning in 1 file.'],
    [[err('a'), err('b'), warn('a')], 'Found 2 errors and 1 warning in 2 files.'],
    [[err('a'), warn('a'), warn('a')], 'Found 1 error and 2 warnings in 1 file.'],
    [[err()], 'Found 1 error.'],
    [[err(), warn('a')], 'Found 1 error and 1 warning in 1 file (1 not tied to a file).'],
  ] as [Diagnostic[], string][])('%#: %s', (ds, expected) => {
    expect(summaryLine(ds)).toBe(expected);
  });
});

describe('displayPath', () => {
  it('is the workspace path unless both cwd and root are known', () => {
    expect(displayPath('cards/a.yaml', {})).toBe('cards/a.yaml');
    expect(displayPath('cards/a.yaml', { cwd: '/w' })).toBe('cards/a.yaml');
    expect(displayPath('cards/a.yaml', { cwd: '/w', root: '/w' })).toBe('cards/a.yaml');
    expect(displayPath('cards/a.yaml', { cwd: '/repo', root: '/repo/agents' })).toBe('agents/cards/a.yaml');
    expect(displayPath('cards/a.yaml', { cwd: '/repo/agents/cards', root: '/repo/agents' })).toBe('a.yaml');
    expect(displayPath('cards/a.yaml', { cwd: '/other', root: '/repo' })).toBe('../repo/cards/a.yaml');
  });
});

describe('text', () => {
  it('prints exactly one line per diagnostic, newlines and control characters folded', () => {
    const d = fakeDiagnostic({ rule: 'yaml-syntax', text: 'first\n  second\x1b[2J', file: 'a.yaml', hint: 'h1\nh2' });
    const out = renderText([d], { color: false, toolVersion: '0' });
    expect(out).toBe('a.yaml - error AGC1001 yaml-syntax: first second\uFFFD[2J (h1 h2)\nFound 1 error in 1 file.\n');
  });

  it('prints file-less diagnostics as agentc:', () => {
    expect(renderText([err()], { color: false, toolVersion: '0' }).split('\n')[0]).toBe(
      'agentc: error AGC2001 unknown-tool: Card "c" uses tool "t", which is not declared in schemas/tools/.',
    );
  });
});

describe('json', () => {
  it('has the documented shape, keys in order, valid when there are only warnings', () => {
    const d: Diagnostic = {
      related: [{ message: 'declared here', file: 'b.yaml' }],
      hint: 'h',
      range: { end: { column: 4, line: 1 }, start: { column: 2, line: 1 } },
      file: 'a.yaml',
      message: 'm',
      severity: 'warning',
      rule: 'unused-tool',
      code: 'AGC7002',
    };
    const report = jsonReport([d]);
    expect(Object.keys(report)).toEqual(['formatVersion', 'valid', 'errorCount', 'warningCount', 'diagnostics']);
    expect(report).toMatchObject({ formatVersion: '1', valid: true, errorCount: 0, warningCount: 1 });
    expect(Object.keys(report.diagnostics[0]!)).toEqual(['code', 'rule', 'severity', 'message', 'file', 'range', 'hint', 'related']);
    expect(Object.keys(report.diagnostics[0]!.range!.start)).toEqual(['line', 'column']);
    expect(JSON.parse(renderJson([d]))).toEqual(report);
    expect(jsonReport([err('a')]).valid).toBe(false);
  });
});
