/**
 * Diagnostic reporters (docs/cli.md#exit-codes). Every reporter is a pure function of its
 * inputs: same diagnostics, same options → same bytes (sorted, LF, no timestamps).
 * Reporters sort the diagnostics themselves, so callers need not.
 */
import type { Diagnostic } from '../diagnostic.js';
import type { SourceFile } from '../../load/source.js';
import type { ReportFormat, RenderOptions } from './common.js';
import { renderGithub } from './github.js';
import { renderJson } from './json.js';
import { renderPretty } from './pretty.js';
import { renderSarif } from './sarif.js';
import { renderText } from './text.js';

export { REPORT_FORMATS, summaryLine, displayPath, type ReportFormat, type RenderOptions } from './common.js';
export { renderPretty } from './pretty.js';
export { renderText } from './text.js';
export { renderJson, jsonReport, JSON_FORMAT_VERSION, type JsonReport } from './json.js';
export { renderGithub, renderGithubSummary, escapeData, escapeProperty, GITHUB_ANNOTATION_LIMIT } from './github.js';
export { renderSarif, sarifLog, type SarifLog } from './sarif.js';
export { writeStepSummary, type StepSummaryResult } from './step-summary.js';
export { codeFrame } from './code-frame.js';

export function renderReport(format: ReportFormat, diagnostics: readonly Diagnostic[], files: ReadonlyMap<string, SourceFile>, opts: RenderOptions): string {
  switch (format) {
    case 'pretty':
      return renderPretty(diagnostics, files, opts);
    case 'text':
      return renderText(diagnostics, opts);
    case 'json':
      return renderJson(diagnostics);
    case 'github':
      return renderGithub(diagnostics, opts);
    case 'sarif':
      return renderSarif(diagnostics, opts);
    default: {
      const never: never = format;
      throw new Error(`agentc bug: unknown report format ${String(never)}`);
    }
  }
}
