/**
 * `agentc graph [--format mermaid|dot]`: the orchestration graph on stdout.
 * Like `agentc prompt`, it draws a workspace that does not pass `check` yet
 * (with a note on stderr): a picture of a broken graph helps fix it.
 */
import { resolve } from 'node:path';
import { renderGraph, type GraphFormat } from '../../emit/graph.js';
import { EXIT, type CliIO } from '../io.js';
import { compileForView, noteErrors } from './view.js';

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
  const view = await compileForView(root, 'graph', 'Reading workspace', io);
  if (!view.ok) return view.exit;
  noteErrors(view.result, 'drawing what resolved', io);
  io.stdout(renderGraph(view.bundle, format));
  return EXIT.ok;
}
