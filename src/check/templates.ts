/**
 * Every template read of a block, classified once per block against the
 * compile-time context shape (shared by template-unknown-variable and
 * dynamic-in-prefix, which must agree on which reads are which).
 */
import type { TemplateRef } from '../parse/template.js';
import type { Block } from '../parse/types.js';
import type { Program } from '../resolve/types.js';
import { buildContextShape } from '../resolve/context.js';
import { classifyRef, type RefVerdict } from './template-scope.js';
import { configFailed } from './support.js';

export interface ClassifiedRef {
  ref: TemplateRef;
  verdict: RefVerdict;
}

const cache = new WeakMap<Block, ClassifiedRef[]>();

/** The reads of `block` in source order; [] when its template did not parse. */
export function classifiedRefs(program: Program, block: Block): ClassifiedRef[] {
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
