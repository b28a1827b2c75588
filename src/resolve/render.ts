/**
 * Strict build-time rendering of block bodies: the template language's one
 * interpreter (src/bundle/template/interpret.ts, shared with the runtime) over
 * the AST the parse phase built. A read the context lacks fails the render and
 * comes back here as a RenderError with the expression's file position — never
 * an empty string. A body outside the language (an unknown helper, a partial, …)
 * has no AST: it does not render, and its static findings say why.
 */
import type { TemplateLoc } from '../bundle/template/ast.js';
import { tryInterpret } from '../bundle/template/interpret.js';
import type { Range } from '../diagnostics/diagnostic.js';
import type { Block } from '../parse/types.js';
import type { BlockDerived } from './block-memo.js';

/** `kind: 'size'`: the render passed RENDER_LIMIT and was stopped (the render-size rule). */
export type RenderResult = { ok: true; text: string } | { ok: false; message: string; range: Range | undefined; kind: 'failure' | 'size' };

export function renderBlock(block: Block, context: Record<string, unknown>): RenderResult {
  const nodes = block.template?.nodes;
  if (!nodes) return { ok: false, message: 'the template uses constructs outside the template language', range: undefined, kind: 'failure' };
  const r = tryInterpret(nodes, context);
  if (r.ok) return r;
  return { ok: false, message: r.message, range: r.loc ? locRange(block, r.loc) : undefined, kind: r.kind };
}

/** A template location (1-based line, 0-based column in the body) → its whole-file range. */
function locRange(block: Block, loc: TemplateLoc): Range {
  const bodyLine = block.file.positionAt(block.bodyOffset).line;
  const at = (p: TemplateLoc['start']) => ({ line: bodyLine + p.line - 1, column: p.column + 1 });
  const start = at(loc.start);
  const end = at(loc.end);
  const nonEmpty = end.line > start.line || (end.line === start.line && end.column > start.column);
  return { start, end: nonEmpty ? end : { line: start.line, column: start.column + 1 } };
}

/** The roots of the context a block's body reads (all of them when it reads `this` at the top). */
export function contextDependencies(block: Block, derived: BlockDerived = {}): string[] {
  return (derived.dependencies ??= computeDependencies(block));
}

function computeDependencies(block: Block): string[] {
  const t = block.template;
  if (!t) return [];
  const deps = new Set<string>();
  for (const ref of t.refs) {
    const frames = ref.scopes.length - ref.depth;
    if (ref.data) {
      if (ref.original.startsWith('@root')) deps.add(ref.parts[0] ?? '*');
      continue;
    }
    if (frames <= 0) deps.add(ref.parts[0] ?? '*');
    for (const f of ref.scopes) if (!f.source.data && f.source.scopes.length === 0) deps.add(f.source.parts[0] ?? '*');
  }
  return [...deps].sort();
}
