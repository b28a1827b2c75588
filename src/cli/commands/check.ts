/**
 * `agentc check [FILES…]`: every check, one report, an exit code (docs/cli.md#agentc-check).
 * With FILES (for lint-staged and pre-commit hooks) the whole workspace is still
 * resolved and checked, but only diagnostics located in those files are reported
 * and counted; a file outside the workspace is ignored with a note on stderr.
 */
import { writeFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { countBySeverity } from '../../diagnostics/diagnostic.js';
import { renderGithubSummary, renderReport, writeStepSummary, type ReportFormat } from '../../diagnostics/render/index.js';
import { AGENTC_VERSION } from '../../version.js';
import { EXIT, useColor, type CliIO, cacheFor } from '../io.js';
import { withProgress } from '../progress.js';
import { compileAndStore, lookupResult } from '../reuse.js';

export interface CheckOptions {
  root: string;
  format?: ReportFormat;
  output?: string;
  maxWarnings?: number;
  /** Absolute paths: report only diagnostics in these files. */
  files?: string[];
}

export async function checkCommand(opts: CheckOptions, io: CliIO): Promise<number> {
  const result = await withProgress(io, 'Checking workspace', async (progress) => {
    const reuse = await lookupResult(opts.root, io.env, io.buildId);
    if (reuse?.hit) return { diagnostics: reuse.hit.diagnostics, files: reuse.files, fatal: undefined };
    return compileAndStore(reuse, { root: opts.root, progress, ...cacheFor(io, opts.root) });
  });
  if (result.fatal) {
    io.stderr(`agentc: ${result.fatal}\n`);
    return EXIT.failure;
  }
  const only = opts.files !== undefined && opts.files.length > 0 ? workspaceFiles(opts.root, opts.files, io) : undefined;
  const diagnostics = only === undefined ? result.diagnostics : result.diagnostics.filter((d) => d.file !== undefined && only.has(d.file));
  const format: ReportFormat = opts.format ?? (io.isTTY ? 'pretty' : 'text');
  const toFile = opts.output !== undefined;
  const report = renderReport(format, diagnostics, result.files, {
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
  } else io.stdout(report);
  if (format === 'github') {
    const written = writeStepSummary(renderGithubSummary(diagnostics, { cwd: io.cwd, root: opts.root }), io.env);
    if (!written.written && written.error) io.stderr(`agentc: could not write the step summary: ${written.error}\n`);
  }
  const { errors, warnings } = countBySeverity(diagnostics);
  if (errors > 0) return EXIT.findings;
  if (opts.maxWarnings !== undefined && warnings > opts.maxWarnings) {
    io.stderr(`agentc: ${warnings} warning${warnings === 1 ? '' : 's'}, more than --max-warnings ${opts.maxWarnings}.\n`);
    return EXIT.findings;
  }
  return EXIT.ok;
}

/** The given files as workspace-relative `/` paths; files outside the workspace get a note on stderr. */
function workspaceFiles(root: string, files: readonly string[], io: CliIO): Set<string> {
  const out = new Set<string>();
  for (const file of files) {
    const rel = relative(root, file);
    if (rel === '' || rel === '..' || rel.startsWith('..' + sep) || isAbsolute(rel)) {
      io.stderr(`agentc check: ${relative(io.cwd, file) || '.'} is not a file of the workspace at ${root}; ignored.\n`);
      continue;
    }
    out.add(rel.split(sep).join('/'));
  }
  return out;
}
