/**
 * Every template read of a block, classified once per block and run against
 * the compile-time context shape (shared by template-unknown-variable and
 * dynamic-in-prefix, which must agree on which reads are which).
 *
 * Invariant: a verdict depends on the block AND the config (whether it loaded,
 * its flags, `dynamicContext.fields`), so it is kept by the Block (across compiles
 * with a CompileCache: CompileCache.objects) together with that part of the
 * config, and used only while the config's part is the same.
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

const VERDICTS = memoSlot<WeakMap<Block, { context: string; refs: ClassifiedRef[] }>>('template verdicts by block');
/** What of the config a verdict depends on, once per run. */
const CONTEXT = memoSlot<{ key: string; root: ReturnType<typeof buildContextShape>; dynamic: { has(name: string): boolean } }>('template context');

function contextOf(program: Program): { key: string; root: ReturnType<typeof buildContextShape>; dynamic: { has(name: string): boolean } } {
  return program.memo.get(CONTEXT, () => {
    const failed = configFailed(program);
    const flags = failed ? undefined : program.config.data.flags;
    const fields = failed ? undefined : program.config.data.dynamicContext.fields;
    return {
      key: JSON.stringify([failed, flags ?? null, fields ?? null]),
      root: buildContextShape({ flags }),
      // Without a config the per-request fields are unknown: an unknown root name may be one.
      dynamic: fields === undefined ? { has: () => true } : new Set(fields),
    };
  });
}

/** The reads of `block` in source order; [] when its template did not parse. */
export function classifiedRefs(program: Program, block: Block): ClassifiedRef[] {
  const context = contextOf(program);
  const byBlock = program.memo.byObject(VERDICTS);
  const hit = byBlock.get(block);
  if (hit !== undefined && hit.context === context.key) return hit.refs;
  const analysis = block.template;
  const out = analysis ? analysis.refs.map((ref) => ({ ref, verdict: classifyRef(ref, context.root, context.dynamic, block.data.id) })) : [];
  byBlock.set(block, { context: context.key, refs: out });
  return out;
}
