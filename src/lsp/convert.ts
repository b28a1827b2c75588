/**
 * Between agentc's coordinates (1-based line/column, workspace-relative paths)
 * and LSP's (0-based line/character, file URIs). Columns are UTF-16 code units on
 * both sides, so only the base changes.
 */
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DiagnosticSeverity, type Diagnostic as LspDiagnostic, type Range as LspRange, type Position as LspPosition } from 'vscode-languageserver';
import type { Diagnostic, Position, Range } from '../diagnostics/diagnostic.js';

export function toLspPosition(p: Position): LspPosition {
  return { line: Math.max(0, p.line - 1), character: Math.max(0, p.column - 1) };
}

export function toLspRange(r: Range | undefined): LspRange {
  if (!r) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return { start: toLspPosition(r.start), end: toLspPosition(r.end) };
}

export function fromLspPosition(p: LspPosition): Position {
  return { line: p.line + 1, column: p.character + 1 };
}

export function uriOf(root: string, path: string): string {
  return pathToFileURL(join(root, path)).href;
}

/** Workspace-relative path with `/`, or undefined for a URI outside the workspace. */
export function pathOf(root: string, uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  const rel = relative(root, fileURLToPath(uri));
  if (rel.startsWith('..') || rel === '') return undefined;
  return sep === '/' ? rel : rel.split(sep).join('/');
}

export function toLspDiagnostic(root: string, d: Diagnostic): LspDiagnostic {
  const severity = d.severity === 'error' ? DiagnosticSeverity.Error : d.severity === 'warning' ? DiagnosticSeverity.Warning : DiagnosticSeverity.Information;
  const out: LspDiagnostic = {
    range: toLspRange(d.range),
    severity,
    code: d.code,
    source: 'agentc',
    message: d.hint ? `${d.message}\n${d.hint}` : d.message,
    // The rule and hint travel with the diagnostic so code actions need no lookup.
    data: { rule: d.rule, hint: d.hint ?? null },
  };
  if (d.related?.length) {
    out.relatedInformation = d.related.map((r) => ({ location: { uri: uriOf(root, r.file), range: toLspRange(r.range) }, message: r.message }));
  }
  return out;
}
