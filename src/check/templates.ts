/**
 * Every template read of a block, classified once per block and run against
 * the compile-time context shape (shared by template-unknown-variable and
 * dynamic-in-prefix, which must agree on which reads are which).
 *
 * Invariant: a verdict depends on the block AND the config (flags,
 * `dynamicContext.fields`), so it lives on the run's memo, never beside the
 * Block (which watch mode reuses across config edits).
 */
import type { TemplateRef } from '../parse/template.js';
import type { Block } from '../parse/types.js';
import { memoSlot } from '../resolve/run-memo.js';
import type { Program } from '../resolve/types.js';
import { buildContextShape } from '../resolve/context.js';
import { classifyRef, type RefVerdict } from './template-scope.js';
import { configFailed } from './support.js';

export interface ClassifiedRef {
  ref: TemplateRef;
  verdict: RefVerdict;
}

const VERDICTS = memoSlot<Map<Block, ClassifiedRef[]>>('template verdicts by block');

/** The reads of `block` in source order; [] when its template did not parse. */
export function classifiedRefs(program: Program, block: Block): ClassifiedRef[] {
  const cache = program.memo.map(VERDICTS);
  const hit = cache.get(block);
  if (hit) return hit;
  const analysis = block.template;
  let out: ClassifiedRef[] = [];
  if (analysis) {
    const failed = configFailed(program);
    const root = buildContextShape({ flags: failed ? undefined : program.config.data.flags });
    // Without a config the per-request fields are unknown: an unknown root name may be one.
    const dynamic = failed ? { has: () => true } : new Set(program.config.data.dynamicContext.fields);
    out = analysis.refs.map((ref) => ({ ref, verdict: classifyRef(ref, root, dynamic, block.data.id) }));
  }
  cache.set(block, out);
  return out;
}
