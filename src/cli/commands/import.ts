/**
 * `agentc import <format> <path…>`: read agents written for another framework,
 * write them as an agentc workspace (or merge them into one), run check on the
 * result and print the import report. Refuses (exit 2, nothing written) to
 * overwrite differing files unless --force. Exit 1 when check finds errors or a
 * source file could not be read; 0 otherwise.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { compile } from '../../compile.js';
import { countBySeverity } from '../../diagnostics/diagnostic.js';
import { jsonReport } from '../../diagnostics/render/json.js';
import { renderReport } from '../../diagnostics/render/index.js';
import { DEFAULT_MODEL, readSource } from '../../import/index.js';
import { buildReport, renderReportText, type CheckSummary, type WrittenFile } from '../../import/report.js';
import { shownPath } from '../../import/read.js';
import { IMPORT_FORMATS, type ImportFormat } from '../../import/types.js';
import { planWorkspace } from '../../import/workspace.js';
import { readSchemaFiles } from '../../init/schemas.js';
import { planInit, writePlan } from '../../init/write.js';
import { AGENTC_VERSION } from '../../version.js';
import { EXIT, type CliIO, cacheFor } from '../io.js';

export interface ImportOptions {
  format: string;
  paths: string[];
  /** Target workspace, resolved against io.cwd. */
  out: string;
  force?: boolean;
  owner?: string;
  report?: 'text' | 'json';
}

export async function importCommand(opts: ImportOptions, io: CliIO): Promise<number> {
  if (!(IMPORT_FORMATS as readonly string[]).includes(opts.format)) {
    io.stderr(`agentc import: unknown format "${opts.format}" (formats: ${IMPORT_FORMATS.join(', ')}).\n`);
    return EXIT.failure;
  }
  const format = opts.format as ImportFormat;
  const owner = opts.owner ?? 'imported';
  if (!/^[a-z][a-z0-9_-]{0,63}$/.test(owner)) {
    io.stderr(`agentc import: --owner "${owner}" is not a valid owner (lower-case letters, digits, _ and -).\n`);
    return EXIT.failure;
  }
  const root = resolve(io.cwd, opts.out);
  const src = await readSource(format, io.cwd, opts.paths);
  if (src.agents.length === 0) {
    for (const p of src.problems) io.stderr(`${p.file}: ${p.message}\n`);
    io.stderr(`agentc import: no ${format} agents found in ${opts.paths.join(', ')}; nothing was written.\n`);
    return EXIT.failure;
  }
  const configPath = resolve(root, 'agentc.config.ts');
  const existingConfig = existsSync(configPath) ? readFileSync(configPath, 'utf8') : undefined;
  const plan = planWorkspace(src, { format, owner, existingConfig, defaultModel: DEFAULT_MODEL[format] });
  const files = [...plan.files];
  if (existingConfig === undefined) {
    const schemas = readSchemaFiles();
    if (schemas.ok) files.push(...schemas.files.filter((f) => !existsSync(resolve(root, f.path))));
  }
  // The config with models merged in is `merged`: an update of the existing file, never a conflict.
  const force = opts.force === true;
  const final = planInit(root, files, force);
  if (!final.ok) {
    const lines: string[] = [];
    for (const b of final.blocked) lines.push(`  ${b.path}: ${b.reason}`);
    const conflicts = final.conflicts;
    if (conflicts.length > 0 && !force) {
      lines.unshift(`agentc import: ${conflicts.length} file(s) in ${shownPath(io.cwd, root) || '.'} already exist and differ from the import:`);
      for (const c of conflicts) lines.push(`  ${c}`);
      lines.push('Nothing was written. Re-run with --force to overwrite them, or import into another directory with --out DIR.');
    } else lines.unshift('agentc import: cannot write the workspace:');
    io.stderr(lines.join('\n') + '\n');
    return EXIT.failure;
  }
  const result = writePlan(root, final.files);
  if (!result.ok) {
    io.stderr(`agentc import: ${result.message}.\n`);
    return EXIT.failure;
  }
  const written: WrittenFile[] = final.files.map((f) => ({ path: f.path, action: f.action }));

  const compiled = await compile({ root, ...cacheFor(io, root) });
  let check: CheckSummary | null = null;
  if (!compiled.fatal) {
    const { errors, warnings } = countBySeverity(compiled.diagnostics);
    check = {
      valid: errors === 0,
      errorCount: errors,
      warningCount: warnings,
      text: renderReport('text', compiled.diagnostics, compiled.files, { color: false, toolVersion: AGENTC_VERSION, cwd: root, root }),
      diagnostics: jsonReport(compiled.diagnostics).diagnostics,
    };
  }
  const report = buildReport(format, shownPath(io.cwd, root) || '.', src, plan, written, check);
  io.stdout(opts.report === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderReportText(report));
  if (compiled.fatal) {
    io.stderr(`agentc import: could not check the result: ${compiled.fatal}\n`);
    return EXIT.failure;
  }
  return check && check.errorCount === 0 && src.problems.length === 0 ? EXIT.ok : EXIT.findings;
}
