/**
 * Cascade suppression across rules (one root cause, one diagnostic, as tsc
 * does). Invariant: a card in a sub-agent cycle gets only the sub-agent-cycle
 * error; findings that other rules derive from its sub-agent graph (depths,
 * role shape, fan-out, routing descriptions, status events, reachability) would
 * only restate the cycle, and come back once the cycle is broken.
 *
 * Suppressions that need a rule's own reasoning (a typo's target is not
 * "unused"; a reference by a mismatched file name is not "unknown") live in the
 * rules themselves, via typoTargets / mismatchedStems in ./support.ts.
 */
import type { RuleId } from '../diagnostics/catalog.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Program } from '../resolve/types.js';
import { subAgentGraph } from './graph.js';

/** Rules whose findings on a cycle member follow from the cycle. */
const DERIVED_FROM_GRAPH: ReadonlySet<RuleId> = new Set<RuleId>([
  'recursion-depth',
  'role-shape',
  'fan-out-cap',
  'too-many-sub-agents',
  'description-budget',
  'status-event-unrendered',
  'unknown-status-event',
  'unreachable-agent',
  'model-capability',
  'tool-name',
  'too-many-tools',
]);

export function suppressCascades(program: Program, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const cycles = subAgentGraph(program).cycles;
  if (cycles.length === 0) return [...diagnostics];
  const memberFiles = new Set<string>();
  for (const cycle of cycles)
    for (const id of cycle) {
      const card = program.cards.get(id);
      if (card) memberFiles.add(card.file.path);
    }
  return diagnostics.filter((d) => !(DERIVED_FROM_GRAPH.has(d.rule) && d.file !== undefined && memberFiles.has(d.file)));
}
