/**
 * The shared front of the read-only views (`agentc prompt`, `agentc graph`):
 * compile the workspace and get a bundle even when it does not pass `check`
 * (built from whatever resolved), because a view of a broken workspace is what
 * helps fix it. Errors become a note on stderr, not a refusal.
 */
import type { Bundle } from '../../bundle/types.js';
import { compile, type CompileResult } from '../../compile.js';
import { countBySeverity } from '../../diagnostics/diagnostic.js';
import { createBundle } from '../../emit/bundle.js';
import { AGENTC_VERSION } from '../../version.js';
import { EXIT, type CliIO, cacheFor } from '../io.js';
import { withProgress } from '../progress.js';

export type View = { ok: true; bundle: Bundle; result: CompileResult } | { ok: false; exit: number };

/** `command` names the view in messages; `label` is the progress text. */
export async function compileForView(root: string, command: string, label: string, io: CliIO): Promise<View> {
  const result = await withProgress(io, label, () => compile({ root, bundle: true, ...cacheFor(io, root) }));
  if (result.fatal !== undefined) {
    io.stderr(`agentc: ${result.fatal}\n`);
    return { ok: false, exit: EXIT.failure };
  }
  const bundle = bundleOf(result);
  if (bundle === undefined) {
    io.stderr(`agentc ${command}: the workspace could not be compiled; run \`agentc check\`.\n`);
    return { ok: false, exit: EXIT.findings };
  }
  return { ok: true, bundle, result };
}

/** "note: the workspace has N errors …" on stderr, when it has any. */
export function noteErrors(result: CompileResult, showing: string, io: CliIO): void {
  const { errors } = countBySeverity(result.diagnostics);
  if (errors > 0) io.stderr(`note: the workspace has ${errors} error${errors === 1 ? '' : 's'} (run \`agentc check\`); ${showing}.\n`);
}

/** The bundle, also for a workspace with errors (built from whatever resolved). */
export function bundleOf(result: CompileResult): Bundle | undefined {
  if (result.bundle !== undefined) return result.bundle;
  return result.program === undefined ? undefined : createBundle(result.program, AGENTC_VERSION);
}
