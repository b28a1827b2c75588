/**
 * Every template read of a block, classified once per block against the
 * compile-time context shape (shared by template-unknown-variable and
 * dynamic-in-prefix, which must agree on which reads are which).
 */
import type { TemplateRef } from '../parse/template.js';
import type { Block } from '../parse/types.js';
import type { Program } from '../resolve/types.js';
import { buildContextShape } from './context-shape.js';
import { classifyRef, type RefVerdict } from './template-scope.js';

const CONFIG_FILE = /^agentc\.config\.(ts|mts|js|mjs)$/;

/** The workspace has a config file that did not load: its flags and fields are unknown, not empty. */
function configFailed(program: Program): boolean {
  return program.config.file === undefined && [...program.files.keys()].some((p) => CONFIG_FILE.test(p));
}

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
    const root = buildContextShape({ flags: configFailed(program) ? undefined : program.config.data.flags });
    const dynamic = new Set(program.config.data.dynamicContext.fields);
    out = analysis.refs.map((ref) => ({ ref, verdict: classifyRef(ref, root, dynamic, block.data.id) }));
  }
  cache.set(block, out);
  return out;
}
