/**
 * The human report (tsc-like): a header per diagnostic, a code frame, the hint,
 * related locations, then the summary line. Colour only when asked for; the
 * uncoloured output is plain ASCII apart from the user's own text.
 */
import type { Diagnostic } from '../diagnostic.js';
import type { SourceFile } from '../../load/source.js';
import { paint, sanitize, type Paint } from './ansi.js';
import { codeFrame } from './code-frame.js';
import { displayPath, MAX_PRINTED_PRETTY, omittedLine, printable, summaryLine, type RenderOptions } from './common.js';

export function renderPretty(diagnostics: readonly Diagnostic[], files: ReadonlyMap<string, SourceFile>, opts: RenderOptions): string {
  const p = paint(opts.color);
  const out: string[] = [];
  const { shown, omitted } = printable(diagnostics, MAX_PRINTED_PRETTY);
  for (const d of shown) {
    for (const line of renderOne(d, files, opts, p)) out.push(line);
    out.push('');
  }
  if (omitted > 0) out.push(omittedLine(omitted), '');
  out.push(p.bold(summaryLine(diagnostics)));
  return out.join('\n') + '\n';
}

function renderOne(d: Diagnostic, files: ReadonlyMap<string, SourceFile>, opts: RenderOptions, p: Paint): string[] {
  const [first = '', ...rest] = sanitize(d.message).split('\n');
  const out = [`${header(d, opts, p)}${first}`];
  for (const line of rest) out.push(line === '' ? '' : `  ${line}`);

  const source = d.file === undefined ? undefined : files.get(d.file);
  if (source !== undefined && d.range !== undefined) {
    out.push('', ...codeFrame(source, d.range, { paint: p, severity: d.severity }));
  }
  if (d.hint !== undefined || (d.related?.length ?? 0) > 0) out.push('');
  if (d.hint !== undefined) {
    for (const line of sanitize(d.hint).split('\n')) out.push(line === '' ? '' : `  ${line}`);
  }
  for (const rel of d.related ?? []) {
    const where = p.cyan(displayPath(sanitize(rel.file), opts)) + (rel.range ? `:${p.yellow(`${rel.range.start.line}:${rel.range.start.column}`)}` : '');
    out.push(`  ${where}: ${oneLineSafe(rel.message)}`);
  }
  return out;
}

/** `file:line:col - error AGC2001 unknown-tool: ` (or `agentc: error …` without a file). */
function header(d: Diagnostic, opts: RenderOptions, p: Paint): string {
  const severity = d.severity === 'error' ? p.red('error') : p.yellow('warning');
  const what = `${severity} ${p.grey(`${d.code} ${d.rule}`)}: `;
  if (d.file === undefined) return `agentc: ${what}`;
  let where = p.cyan(displayPath(sanitize(d.file), opts));
  if (d.range) where += `:${p.yellow(String(d.range.start.line))}:${p.yellow(String(d.range.start.column))}`;
  return `${where} - ${what}`;
}

function oneLineSafe(s: string): string {
  return sanitize(s)
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}
