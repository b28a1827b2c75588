/**
 * A block that cannot render is an error whatever the config's `rules:` say: a
 * setting changes a severity, never the emitted prompt (resolve leaves a block
 * that failed to render out of the prompt, so `build` must not succeed).
 *
 * Runs after the rule settings are applied. Under the default settings every
 * render failure is already an error (template-unknown-variable explains it,
 * render-size reports a size stop), so this adds nothing; when those findings
 * were turned off or lowered, each failure of a block whose file keeps no
 * template error becomes a `template-render` error (not configurable).
 */
import { createDiagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { Program } from '../resolve/types.js';
import { bodyStart, cmp } from './support.js';

/** Rules whose errors account for a block's render failures. */
const EXPLAINS = new Set(['template-unknown-variable', 'dynamic-in-prefix', 'template-render', 'render-size', 'template-syntax']);

export function unrenderedBlocks(program: Program, settled: readonly Diagnostic[]): Diagnostic[] {
  const covered = new Set<string>();
  for (const d of settled) if (d.severity === 'error' && d.file !== undefined && EXPLAINS.has(d.rule)) covered.add(d.file);
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  // Only the few agents with render failures are sorted (by card id, as the tables are).
  const failing = [...program.agents.values()].filter((a) => a.renderErrors.length > 0).sort((a, b) => cmp(a.card.data.id, b.card.data.id));
  for (const { card, renderErrors } of failing) {
    for (const e of renderErrors) {
      const file = e.block.file.path;
      if (covered.has(file)) continue;
      const range = e.range ?? bodyStart(e.block);
      const key = `${file}\u0000${range.start.line}:${range.start.column}\u0000${e.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(
        createDiagnostic({
          rule: 'template-render',
          file,
          range,
          message: 'cannotRender',
          data: { block: e.block.data.id, card: card.data.id, reason: e.message },
          hint: { id: 'fix' },
        }),
      );
    }
  }
  return out;
}
