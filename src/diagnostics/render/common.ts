/** Pieces every reporter shares: options, paths, locations and the summary line. */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { compareDiagnostics, countBySeverity, type Diagnostic, type Range } from '../diagnostic.js';
import { formatInt } from '../format-number.js';

export type ReportFormat = 'pretty' | 'text' | 'json' | 'github' | 'sarif';

export const REPORT_FORMATS: readonly ReportFormat[] = ['pretty', 'text', 'json', 'github', 'sarif'];

export interface RenderOptions {
  /** ANSI colour (pretty and text only; the machine formats never colour). */
  color: boolean;
  /**
   * Absolute directory the user ran agentc from. With `root`, the pretty, text,
   * github and sarif reports print paths relative to it (clickable in a terminal,
   * repository-relative in CI). The json report always keeps workspace-relative
   * paths (docs/cli.md#diagnostics).
   */
  cwd?: string;
  /** Absolute workspace root the diagnostics' `file` paths are relative to. */
  root?: string;
  /** agentc's version (sarif tool.driver.version). */
  toolVersion: string;
}

/** Path of a workspace-relative file as the user should see it, `/`-separated. */
export function displayPath(file: string, opts: Pick<RenderOptions, 'cwd' | 'root'>): string {
  if (opts.cwd === undefined || opts.root === undefined) return file;
  if (!isAbsolute(opts.cwd) || !isAbsolute(opts.root)) return file;
  const rel = relative(opts.cwd, resolve(opts.root, file));
  if (rel === '') return file;
  return sep === '/' ? rel : rel.split(sep).join('/');
}

/** Reports are always in docs/cli.md#diagnostics order, whatever order the caller passes. */
export function sorted(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(compareDiagnostics);
}

/** Most diagnostics the line-per-diagnostic reports (text, github) print; the rest are counted. */
export const MAX_PRINTED = 1000;
/** Most diagnostics the pretty report prints (each takes a code frame). */
export const MAX_PRINTED_PRETTY = 200;

/**
 * The diagnostics a capped report prints, in report order: errors before
 * warnings when not all fit, so a flood of warnings never hides an error.
 * `omitted` is how many are left out (the summary line still counts them all).
 */
export function printable(diagnostics: readonly Diagnostic[], max: number): { shown: Diagnostic[]; omitted: number } {
  const all = sorted(diagnostics);
  if (all.length <= max) return { shown: all, omitted: 0 };
  const errors = all.filter((d) => d.severity === 'error');
  const keep = new Set(errors.length >= max ? errors.slice(0, max) : [...errors, ...all.filter((d) => d.severity !== 'error').slice(0, max - errors.length)]);
  return { shown: all.filter((d) => keep.has(d)), omitted: all.length - keep.size };
}

/** `… and 99,950 more (…)`: the line that says a report was capped. */
export function omittedLine(omitted: number): string {
  return `… and ${formatInt(omitted)} more not shown (use --format json or sarif for all of them).`;
}

/** `file:line:col`, `file` when there is no range. */
export function location(file: string, range: Range | undefined): string {
  return range === undefined ? file : `${file}:${range.start.line}:${range.start.column}`;
}

export function plural(n: number, word: string): string {
  return `${formatInt(n)} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * `Found 2 errors and 1 warning in 2 files.`; `No problems found.` on a clean run.
 * Diagnostics that belong to no file are counted and called out, so the file
 * count never over- or under-states where the problems are.
 */
export function summaryLine(diagnostics: readonly Diagnostic[]): string {
  if (diagnostics.length === 0) return 'No problems found.';
  const { errors, warnings } = countBySeverity(diagnostics);
  const counts: string[] = [];
  if (errors > 0) counts.push(plural(errors, 'error'));
  if (warnings > 0) counts.push(plural(warnings, 'warning'));
  const files = new Set<string>();
  let unfiled = 0;
  for (const d of diagnostics) {
    if (d.file === undefined) unfiled++;
    else files.add(d.file);
  }
  let where = '';
  if (files.size > 0) where = ` in ${plural(files.size, 'file')}`;
  if (files.size > 0 && unfiled > 0) where += ` (${unfiled} not tied to a file)`;
  return `Found ${counts.join(' and ')}${where}.`;
}

/** Message and hint folded onto one line (for one-line-per-diagnostic formats). */
export function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').trim();
}
