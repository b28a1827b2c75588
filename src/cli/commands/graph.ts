/**
 * `agentc graph [--format mermaid|dot]`: the orchestration graph on stdout.
 * Like `agentc prompt`, it draws a workspace that does not pass `check` yet
 * (with a note on stderr): a picture of a broken graph helps fix it.
 */
import { resolve } from 'node:path';
import { compile } from '../../compile.js';
import { countBySeverity } from '../../diagnostics/diagnostic.js';
import { renderGraph, type GraphFormat } from '../../emit/graph.js';
import { EXIT, type CliIO } from '../io.js';
import { withProgress } from '../progress.js';
import { bundleOf } from './prompt.js';

export interface GraphOptions {
  cwd: string;
  format?: GraphFormat;
}

export async function graphCommand(opts: GraphOptions, io: CliIO): Promise<number> {
  const root = resolve(io.cwd, opts.cwd);
  const format: GraphFormat = opts.format ?? 'mermaid';
  if (format !== 'mermaid' && format !== 'dot') {
    io.stderr(`agentc graph: unknown format "${String(format)}" (use mermaid or dot).\n`);
    return EXIT.failure;
  }
  const result = await withProgress(io, 'Reading workspace', () => compile({ root, bundle: true }));
  if (result.fatal !== undefined) {
    io.stderr(`agentc: ${result.fatal}\n`);
    return EXIT.failure;
  }
  const bundle = bundleOf(result);
  if (bundle === undefined) {
    io.stderr('agentc graph: the workspace could not be compiled; run `agentc check`.\n');
    return EXIT.findings;
  }
  const { errors } = countBySeverity(result.diagnostics);
  if (errors > 0) {
    io.stderr(`note: the workspace has ${errors} error${errors === 1 ? '' : 's'} (run \`agentc check\`); drawing what resolved.\n`);
  }
  io.stdout(renderGraph(bundle, format));
  return EXIT.ok;
}
