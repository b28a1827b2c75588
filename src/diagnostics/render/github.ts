/**
 * GitHub Actions output: one workflow command per diagnostic
 * (`::error file=…,line=…,col=…,endLine=…,endColumn=…,title=…::message`), and a
 * Markdown job summary with every diagnostic, because GitHub shows at most 10
 * error and 10 warning annotations per step.
 *
 * Escaping follows @actions/core: data escapes `%`, CR and LF; property values
 * additionally `:` and `,`. Invariant: every command is exactly one line, so no
 * workspace text can start a command of its own.
 */
import { formatInt } from '../format-number.js';
import { countBySeverity, type Diagnostic } from '../diagnostic.js';
import { sanitize } from './ansi.js';
import { displayPath, location, MAX_PRINTED, omittedLine, printable, sorted, summaryLine, type RenderOptions } from './common.js';

/** Annotations GitHub displays per type and step. */
export const GITHUB_ANNOTATION_LIMIT = 10;
/** Table rows in the job summary (GitHub caps a step summary at 1 MiB). */
export const GITHUB_SUMMARY_MAX_ROWS = 1000;

/** C0 controls except tab, LF and CR (LF and CR are percent-escaped first), and DEL. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

export function escapeData(s: string): string {
  // Control characters from workspace text (ESC, BEL, …) never reach the log raw.
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(CONTROL, '\uFFFD');
}

export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function renderGithub(diagnostics: readonly Diagnostic[], opts: Pick<RenderOptions, 'cwd' | 'root'>): string {
  const { shown, omitted } = printable(diagnostics, MAX_PRINTED);
  const lines = shown.map((d) => githubCommand(d, opts));
  if (omitted > 0) lines.push(`::notice title=${escapeProperty('agentc')}::${escapeData(omittedLine(omitted))}`);
  const { errors, warnings } = countBySeverity(diagnostics);
  if (errors > GITHUB_ANNOTATION_LIMIT || warnings > GITHUB_ANNOTATION_LIMIT) {
    const message =
      `GitHub shows at most ${GITHUB_ANNOTATION_LIMIT} error and ${GITHUB_ANNOTATION_LIMIT} warning annotations per step; ` +
      (omitted > 0
        ? `the first ${formatInt(shown.length)} of ${formatInt(diagnostics.length)} diagnostics are listed in this step's log.`
        : `all ${formatInt(diagnostics.length)} diagnostics are listed in this step's log and in the job summary.`);
    lines.push(`::notice title=${escapeProperty('agentc')}::${escapeData(message)}`);
  }
  lines.push(summaryLine(diagnostics));
  return lines.join('\n') + '\n';
}

export function githubCommand(d: Diagnostic, opts: Pick<RenderOptions, 'cwd' | 'root'>): string {
  const props: [string, string][] = [];
  if (d.file !== undefined) {
    props.push(['file', displayPath(d.file, opts)]);
    if (d.range) {
      props.push(
        ['line', String(d.range.start.line)],
        ['col', String(d.range.start.column)],
        ['endLine', String(d.range.end.line)],
        ['endColumn', String(d.range.end.column)],
      );
    }
  }
  props.push(['title', `${d.code} ${d.rule}`]);
  const body = [d.message];
  if (d.hint !== undefined) body.push(d.hint);
  for (const r of d.related ?? []) body.push(`${location(displayPath(r.file, opts), r.range)}: ${r.message}`);
  const propText = props.map(([k, v]) => `${k}=${escapeProperty(v)}`).join(',');
  return `::${d.severity} ${propText}::${escapeData(body.join('\n'))}`;
}

/** The job-summary Markdown (for `$GITHUB_STEP_SUMMARY`): a table of every diagnostic. */
export function renderGithubSummary(diagnostics: readonly Diagnostic[], opts: Pick<RenderOptions, 'cwd' | 'root'> & { title?: string } = {}): string {
  const out = [`### ${escapeMarkdown(opts.title ?? 'agentc')}`, ''];
  const all = sorted(diagnostics);
  if (all.length === 0) {
    out.push(':white_check_mark: No problems found.');
    return out.join('\n') + '\n';
  }
  out.push(`**${summaryLine(all)}**`, '');
  out.push('| Severity | Location | Rule | Message |', '| --- | --- | --- | --- |');
  for (const d of all.slice(0, GITHUB_SUMMARY_MAX_ROWS)) {
    const severity = d.severity === 'error' ? ':x: error' : ':warning: warning';
    const where = d.file === undefined ? '(workspace)' : escapeMarkdown(location(displayPath(d.file, opts), d.range));
    const parts = [d.message];
    if (d.hint !== undefined) parts.push(d.hint);
    for (const r of d.related ?? []) parts.push(`${location(displayPath(r.file, opts), r.range)}: ${r.message}`);
    const message = parts.map(escapeMarkdown).join('<br>');
    out.push(`| ${severity} | ${where} | \`${d.code}\` ${d.rule} | ${message} |`);
  }
  if (all.length > GITHUB_SUMMARY_MAX_ROWS) {
    out.push('', `… and ${all.length - GITHUB_SUMMARY_MAX_ROWS} more; run \`agentc check\` to see them all.`);
  }
  return out.join('\n') + '\n';
}

/**
 * Text safe inside a Markdown table cell: control characters dropped, Markdown and
 * HTML punctuation backslash-escaped (CommonMark allows it for any ASCII
 * punctuation), line breaks as `<br>`.
 */
export function escapeMarkdown(s: string): string {
  return sanitize(s)
    .replace(/[\\`*_[\]<>|~&]/g, (c) => `\\${c}`)
    .replace(/\s*\n\s*/g, '<br>')
    .replace(/\t/g, ' ');
}
