import { describe, expect, it } from 'vitest';
import { renderGithubSummary, renderReport, REPORT_FORMATS, type ReportFormat } from '../../src/diagnostics/render/index.js';
import { diagnostics, files } from './fixtures.js';

const opts = { color: false, toolVersion: '0.1.0' };

/**
 * The SARIF goldens leave out what depends on the whole catalog (driver.rules and
 * ruleIndex), so that adding a rule does not touch them; sarif.test.ts checks both.
 */
function golden(format: ReportFormat, out: string): string {
  if (format !== 'sarif') return out;
  const log = JSON.parse(out);
  log.runs[0].tool.driver.rules = '<every catalog rule: see sarif.test.ts>';
  for (const r of log.runs[0].results) r.ruleIndex = '<index of ruleId>';
  return JSON.stringify(log, null, 2) + '\n';
}
const suffix: Record<ReportFormat, string> = { pretty: '.pretty.txt', text: '.text.txt', json: '.json', github: '.github.txt', sarif: '.sarif' };

describe('golden reports', () => {
  for (const format of REPORT_FORMATS) {
    it(`${format}`, async () => {
      const out = renderReport(format, diagnostics, files, opts);
      await expect(golden(format, out)).toMatchFileSnapshot(`__snapshots__/report${suffix[format]}`);
    });

    it(`${format}: order of input does not matter`, () => {
      const reversed = [...diagnostics].reverse();
      expect(renderReport(format, reversed, files, opts)).toBe(renderReport(format, diagnostics, files, opts));
    });

    it(`${format}: clean run`, async () => {
      await expect(golden(format, renderReport(format, [], files, opts))).toMatchFileSnapshot(`__snapshots__/clean${suffix[format]}`);
    });
  }

  it('pretty with colour', async () => {
    const out = renderReport('pretty', diagnostics, files, { ...opts, color: true });
    await expect(out).toMatchFileSnapshot('__snapshots__/report.pretty-color.txt');
    // Colour adds escapes and nothing else.
    expect(out.replace(/\x1b\[\d+m/g, '')).toBe(renderReport('pretty', diagnostics, files, opts));
  });

  it('text with colour adds escapes and nothing else', () => {
    const out = renderReport('text', diagnostics, files, { ...opts, color: true });
    expect(out).toContain('\x1b[31merror\x1b[39m');
    expect(out.replace(/\x1b\[\d+m/g, '')).toBe(renderReport('text', diagnostics, files, opts));
  });

  it('github job summary', async () => {
    await expect(renderGithubSummary(diagnostics, {})).toMatchFileSnapshot('__snapshots__/report.github-summary.md');
  });

  it('machine formats never colour', () => {
    for (const format of ['json', 'github', 'sarif'] as const) {
      expect(renderReport(format, diagnostics, files, { ...opts, color: true })).not.toContain('\x1b');
    }
  });

  it('every report is LF-only and ends with one newline', () => {
    for (const format of REPORT_FORMATS) {
      const out = renderReport(format, diagnostics, files, opts);
      expect(out).not.toContain('\r');
      expect(out.endsWith('\n')).toBe(true);
      expect(out.endsWith('\n\n')).toBe(false);
    }
  });
});
