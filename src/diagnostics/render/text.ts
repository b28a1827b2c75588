/**
 * One line per diagnostic, for logs, editors' problem matchers and grep:
 * `file:line:col - error AGC2001 unknown-tool: message (hint)`, then the summary.
 * Invariant: exactly one output line per diagnostic (embedded newlines folded),
 * for at most MAX_PRINTED diagnostics; a capped report says how many it left out.
 */
import type { Diagnostic } from '../diagnostic.js';
import { paint, sanitize } from './ansi.js';
import { displayPath, location, MAX_PRINTED, omittedLine, oneLine, printable, summaryLine, type RenderOptions } from './common.js';

export function renderText(diagnostics: readonly Diagnostic[], opts: RenderOptions): string {
  const p = paint(opts.color);
  const { shown, omitted } = printable(diagnostics, MAX_PRINTED);
  const lines = shown.map((d) => {
    const severity = d.severity === 'error' ? p.red('error') : p.yellow('warning');
    // Sanitize user text before painting: the colour codes are the only escapes printed.
    const where = d.file === undefined ? 'agentc:' : `${p.cyan(sanitize(location(displayPath(d.file, opts), d.range)))} -`;
    const hint = d.hint === undefined ? '' : ` (${sanitize(oneLine(d.hint))})`;
    return `${where} ${severity} ${p.grey(`${d.code} ${d.rule}`)}: ${sanitize(oneLine(d.message))}${hint}`;
  });
  if (omitted > 0) lines.push(omittedLine(omitted));
  lines.push(summaryLine(diagnostics));
  return lines.join('\n') + '\n';
}
