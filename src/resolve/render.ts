/**
 * Strict build-time rendering of block bodies (Handlebars, noEscape, strict):
 * a read the context lacks fails the render and comes back here as a
 * RenderError with the expression's file position — never an empty string.
 * Three paths, same output: literal bodies are their text; bodies in the common
 * subset are interpreted from the parsed AST (./interpret.ts); the rest are
 * compiled by Handlebars.
 */
import type { Range } from '../diagnostics/diagnostic.js';
import type { Block } from '../parse/types.js';
import type { BlockDerived } from './block-memo.js';
import { isInterpretable, tryInterpret } from './interpret.js';
import { compileStrict, createStrictHandlebars, RenderStop } from './strict-handlebars.js';

/** The strict Handlebars environment, created on first use (configuration, not derived data). */
let hbs: ReturnType<typeof createStrictHandlebars> | undefined;

/** `kind: 'size'`: the render passed RENDER_LIMIT and was stopped (the render-size rule). */
export type RenderResult = { ok: true; text: string } | { ok: false; message: string; range: Range | undefined; kind: 'failure' | 'size' };

/** `derived`: where this block's analysis and compiled template are kept (block-memo.ts); a fresh object memoizes nothing. */
export function renderBlock(block: Block, context: Record<string, unknown>, derived: BlockDerived = {}): RenderResult {
  const literal = literalText(block);
  if (literal !== undefined) return { ok: true, text: literal };
  const ast = block.template?.ast;
  if (ast) {
    derived.interpretable ??= isInterpretable(ast);
    if (derived.interpretable) {
      const r = tryInterpret(ast, context);
      if (r.ok) return r;
      return { ok: false, message: r.message, range: r.loc ? locRange(block, r.loc) : undefined, kind: r.kind };
    }
  }
  return renderCompiled(block, context, derived);
}

/** The general path: Handlebars' own compiler (templates outside the interpreted subset). */
function renderCompiled(block: Block, context: Record<string, unknown>, derived: BlockDerived): RenderResult {
  try {
    if (!derived.compiled) {
      hbs ??= createStrictHandlebars();
      derived.compiled = compileStrict(hbs, block.body);
    }
    return { ok: true, text: derived.compiled(context) };
  } catch (e) {
    if (e instanceof RenderStop) {
      return { ok: false, message: e.message, range: e.loc ? locRange(block, e.loc) : undefined, kind: e.kind };
    }
    const err = e as { message?: string; lineNumber?: number; column?: number };
    const range = err.lineNumber !== undefined ? bodyRange(block, err.lineNumber, err.column ?? 0) : undefined;
    // Handlebars' "Invalid string length" (a render past V8's string limit) is a size failure too.
    const kind = e instanceof RangeError ? 'size' : 'failure';
    const message = String(err.message ?? e)
      .replace(/ - \d+:\d+$/, '')
      .replace(/^"(.*)" not defined in \[object Object\]$/, '"$1" is not defined there');
    return { ok: false, message, range, kind };
  }
}

/** A Handlebars node's location in the body → its whole-file range. */
function locRange(block: Block, loc: hbs.AST.SourceLocation): Range {
  const start = bodyRange(block, loc.start.line, loc.start.column).start;
  const end = bodyRange(block, loc.end.line, loc.end.column).start;
  return end.line > start.line || (end.line === start.line && end.column > start.column) ? { start, end } : bodyRange(block, loc.start.line, loc.start.column);
}

/** A Handlebars location (1-based line, 0-based column in the body) → a one-character file range. */
function bodyRange(block: Block, line: number, column: number): Range {
  const bodyLine = block.file.positionAt(block.bodyOffset).line;
  return { start: { line: bodyLine + line - 1, column: column + 1 }, end: { line: bodyLine + line - 1, column: column + 2 } };
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

/**
 * The output of a body with no expressions at all — only text and comments — is
 * its content statements (escapes and whitespace control already applied by the
 * parser), so compiling it would be wasted work. Most blocks are like this.
 */
function literalText(block: Block): string | undefined {
  const body = block.template?.ast.body;
  if (!body) return undefined;
  let text = '';
  for (const stmt of body) {
    if (stmt.type === 'ContentStatement') text += (stmt as hbs.AST.ContentStatement).value;
    else if (stmt.type !== 'CommentStatement') return undefined;
  }
  return text;
}
