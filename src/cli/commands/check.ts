/** `agentc check`: every check, one report, an exit code (docs/cli.md#exit-codes). */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { compile } from '../../compile.js';
import { countBySeverity } from '../../diagnostics/diagnostic.js';
import { renderGithubSummary, renderReport, writeStepSummary, type ReportFormat } from '../../diagnostics/render/index.js';
import { AGENTC_VERSION } from '../../version.js';
import { EXIT, useColor, type CliIO } from '../io.js';
import { withProgress } from '../progress.js';

export interface CheckOptions {
  root: string;
  format?: ReportFormat;
  output?: string;
  maxWarnings?: number;
}

export async function checkCommand(opts: CheckOptions, io: CliIO): Promise<number> {
  const result = await withProgress(io, 'Checking workspace', () => compile({ root: opts.root }));
  if (result.fatal) {
    io.stderr(`agentc: ${result.fatal}\n`);
    return EXIT.failure;
  }
  const format: ReportFormat = opts.format ?? (io.isTTY ? 'pretty' : 'text');
  const toFile = opts.output !== undefined;
  const report = renderReport(format, result.diagnostics, result.files, {
    color: !toFile && useColor(io),
    toolVersion: AGENTC_VERSION,
    cwd: io.cwd,
    root: opts.root,
  });
  if (toFile) {
    const target = resolve(io.cwd, opts.output!);
    try {
      await writeFile(target, report);
    } catch (e) {
      io.stderr(`agentc: cannot write the report to ${opts.output}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
      return EXIT.failure;
    }
  }
  else io.stdout(report);
  if (format === 'github') {
    const written = writeStepSummary(renderGithubSummary(result.diagnostics, { cwd: io.cwd, root: opts.root }), io.env);
    if (!written.written && written.error) io.stderr(`agentc: could not write the step summary: ${written.error}\n`);
  }
  const { errors, warnings } = countBySeverity(result.diagnostics);
  if (errors > 0) return EXIT.findings;
  if (opts.maxWarnings !== undefined && warnings > opts.maxWarnings) {
    io.stderr(`agentc: ${warnings} warning${warnings === 1 ? '' : 's'}, more than --max-warnings ${opts.maxWarnings}.\n`);
    return EXIT.findings;
  }
  return EXIT.ok;
}
