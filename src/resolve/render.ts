/**
 * Strict build-time rendering of block bodies (Handlebars, noEscape, strict):
 * a read the context lacks throws inside Handlebars and comes back here as a
 * RenderError with the expression's file position — never an empty string.
 */
import Handlebars from 'handlebars';
import type { Range } from '../diagnostics/diagnostic.js';
import type { Block } from '../parse/types.js';

const hbs = Handlebars.create();
const compiled = new WeakMap<Block, HandlebarsTemplateDelegate>();

export type RenderResult = { ok: true; text: string } | { ok: false; message: string; range: Range | undefined };

export function renderBlock(block: Block, context: Record<string, unknown>): RenderResult {
  const literal = literalText(block);
  if (literal !== undefined) return { ok: true, text: literal };
  let template = compiled.get(block);
  if (!template) {
    template = hbs.compile(block.body, { strict: true, noEscape: true });
    compiled.set(block, template);
  }
  try {
    return { ok: true, text: template(context, { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false }) };
  } catch (e) {
    const err = e as { message?: string; lineNumber?: number; column?: number };
    const bodyLine = block.file.positionAt(block.bodyOffset).line;
    const range =
      err.lineNumber !== undefined
        ? {
            start: { line: bodyLine + err.lineNumber - 1, column: (err.column ?? 0) + 1 },
            end: { line: bodyLine + err.lineNumber - 1, column: (err.column ?? 0) + 2 },
          }
        : undefined;
    return { ok: false, message: String(err.message ?? e).replace(/ - \d+:\d+$/, ''), range };
  }
}

/** The roots of the context a block's body reads (all of them when it reads `this` at the top). */
export function contextDependencies(block: Block): string[] {
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
