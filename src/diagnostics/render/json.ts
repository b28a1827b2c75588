/**
 * The machine report of docs/cli.md#exit-codes. Invariants: keys in a fixed order (the order
 * of docs/cli.md#diagnostics's example), workspace-relative paths, 2-space indentation, one
 * trailing newline, nothing but the object.
 */
import { countBySeverity, type Diagnostic, type Range, type RelatedInformation } from '../diagnostic.js';
import { sorted } from './common.js';

export const JSON_FORMAT_VERSION = '1';

export interface JsonReport {
  formatVersion: typeof JSON_FORMAT_VERSION;
  valid: boolean;
  errorCount: number;
  warningCount: number;
  diagnostics: Diagnostic[];
}

export function jsonReport(diagnostics: readonly Diagnostic[]): JsonReport {
  const { errors, warnings } = countBySeverity(diagnostics);
  return {
    formatVersion: JSON_FORMAT_VERSION,
    valid: errors === 0,
    errorCount: errors,
    warningCount: warnings,
    diagnostics: sorted(diagnostics).map(orderDiagnostic),
  };
}

export function renderJson(diagnostics: readonly Diagnostic[]): string {
  return JSON.stringify(jsonReport(diagnostics), null, 2) + '\n';
}

/** A copy with keys in the public order and no extra properties. */
function orderDiagnostic(d: Diagnostic): Diagnostic {
  const out: Diagnostic = { code: d.code, rule: d.rule, severity: d.severity, message: d.message };
  if (d.file !== undefined) out.file = d.file;
  if (d.range !== undefined) out.range = orderRange(d.range);
  if (d.hint !== undefined) out.hint = d.hint;
  if (d.related !== undefined && d.related.length > 0) out.related = d.related.map(orderRelated);
  return out;
}

function orderRelated(r: RelatedInformation): RelatedInformation {
  const out: RelatedInformation = { file: r.file, message: r.message };
  if (r.range !== undefined) return { file: r.file, range: orderRange(r.range), message: r.message };
  return out;
}

function orderRange(r: Range): Range {
  return {
    start: { line: r.start.line, column: r.start.column },
    end: { line: r.end.line, column: r.end.column },
  };
}
