/**
 * Static analysis of a block's Handlebars body. Grammar we accept: Handlebars 4
 * (mustaches, blocks, partials are rejected later, comments, `\{{` escapes).
 *
 * The analysis records every variable read as a `TemplateRef` with its scope chain
 * (the `#each` / `#with` blocks around it), so the check phase can resolve each
 * read against the compile-time context's shape without re-walking the AST.
 * Ranges are in whole-file coordinates (front matter included).
 */
import Handlebars from 'handlebars';
import type { Range } from '../diagnostics/diagnostic.js';
import type { SourceFile } from '../load/source.js';

type AST = hbs.AST.Program;
type Node = hbs.AST.Node;

/** Helpers Handlebars ships with; `each`/`with` change the scope. */
export const BUILTIN_HELPERS = new Set(['if', 'unless', 'each', 'with', 'lookup', 'log']);

export interface ScopeFrame {
  kind: 'each' | 'with';
  /** The ref whose value opened this frame. */
  source: TemplateRef;
  /** Block params declared on the block (`as |item index|`). */
  blockParams: string[];
}

export interface TemplateRef {
  /** Path segments after `this` / `../` are stripped, e.g. ['dispatch', 'fan_out_cap']. */
  parts: string[];
  /** How many `../` the path climbs. */
  depth: number;
  /** `@index`, `@root.x`, … */
  data: boolean;
  /** `this` or `.` alone, or `this.x` (explicitly scoped). */
  scoped: boolean;
  original: string;
  range: Range;
  /** Enclosing frames, outermost first. */
  scopes: ScopeFrame[];
}

export interface UnknownHelper {
  name: string;
  range: Range;
}

export interface TemplateAnalysis {
  ast: AST;
  refs: TemplateRef[];
  unknownHelpers: UnknownHelper[];
  partials: Range[];
}

export type TemplateParseResult =
  | { ok: true; analysis: TemplateAnalysis }
  | { ok: false; message: string; range: Range };

/** Parses `body`, which starts at offset `bodyOffset` of `file` (at a line start). */
export function analyzeTemplate(file: SourceFile, body: string, bodyOffset: number): TemplateParseResult {
  const bodyLine = file.positionAt(bodyOffset).line;
  const toRange = (loc: hbs.AST.SourceLocation): Range => ({
    start: { line: bodyLine + loc.start.line - 1, column: loc.start.column + 1 },
    end: { line: bodyLine + loc.end.line - 1, column: loc.end.column + 1 },
  });
  let ast: AST;
  try {
    ast = Handlebars.parse(body);
  } catch (e) {
    return { ok: false, ...parseErrorLocation(e, body, bodyLine) };
  }
  const refs: TemplateRef[] = [];
  const unknownHelpers: UnknownHelper[] = [];
  const partials: Range[] = [];

  const refOf = (path: hbs.AST.PathExpression, scopes: ScopeFrame[]): TemplateRef => {
    const original = path.original;
    const scoped = (path as { this_?: boolean }).this_ === true || original === 'this' || original === '.' || /^(this|\.)\//.test(original);
    return {
      parts: [...path.parts],
      depth: path.depth,
      data: path.data,
      scoped,
      original: path.data && !original.startsWith('@') ? `@${original}` : original,
      range: toRange(path.loc),
      scopes,
    };
  };

  const visitExpr = (expr: hbs.AST.Expression, scopes: ScopeFrame[]): void => {
    switch (expr.type) {
      case 'PathExpression':
        refs.push(refOf(expr as hbs.AST.PathExpression, scopes));
        break;
      case 'SubExpression':
        visitCall(expr as hbs.AST.SubExpression, scopes);
        break;
      default:
        break; // literals
    }
  };

  /** A mustache, block or subexpression: a helper call when it has params or hash. */
  const visitCall = (
    node: hbs.AST.MustacheStatement | hbs.AST.BlockStatement | hbs.AST.SubExpression,
    scopes: ScopeFrame[],
  ): void => {
    const path = node.path as hbs.AST.PathExpression;
    const isCall = node.params.length > 0 || (node.hash?.pairs.length ?? 0) > 0 || node.type === 'BlockStatement' || node.type === 'SubExpression';
    if (path.type === 'PathExpression' && isCall && path.parts.length === 1 && !path.data && path.depth === 0) {
      if (!BUILTIN_HELPERS.has(path.original)) unknownHelpers.push({ name: path.original, range: toRange(path.loc) });
    } else if (path.type === 'PathExpression') {
      refs.push(refOf(path, scopes));
    }
    for (const p of node.params) visitExpr(p, scopes);
    for (const pair of node.hash?.pairs ?? []) visitExpr(pair.value, scopes);
  };

  const visitProgram = (program: hbs.AST.Program | undefined, scopes: ScopeFrame[]): void => {
    if (!program) return;
    for (const stmt of program.body) visitStatement(stmt, scopes);
  };

  const visitStatement = (stmt: Node, scopes: ScopeFrame[]): void => {
    switch (stmt.type) {
      case 'MustacheStatement':
        visitCall(stmt as hbs.AST.MustacheStatement, scopes);
        break;
      case 'BlockStatement': {
        const block = stmt as hbs.AST.BlockStatement;
        visitCall(block, scopes);
        const helper = (block.path as hbs.AST.PathExpression).original;
        const first = block.params[0];
        let inner = scopes;
        if ((helper === 'each' || helper === 'with') && first?.type === 'PathExpression') {
          inner = [...scopes, { kind: helper, source: refOf(first as hbs.AST.PathExpression, scopes), blockParams: block.program.blockParams ?? [] }];
        }
        visitProgram(block.program, inner);
        visitProgram(block.inverse, scopes);
        break;
      }
      case 'PartialStatement':
      case 'PartialBlockStatement':
      case 'DecoratorBlock':
      case 'Decorator':
        partials.push(toRange(stmt.loc));
        break;
      default:
        break; // content, comments
    }
  };

  visitProgram(ast, []);
  return { ok: true, analysis: { ast, refs, unknownHelpers, partials } };
}

/** Handlebars' parser reports "Parse error on line N" plus a context line with a caret. */
function parseErrorLocation(e: unknown, body: string, bodyLine: number): { message: string; range: Range } {
  const err = e as { message?: string; lineNumber?: number; column?: number };
  const raw = String(err.message ?? e);
  const lines = body.split('\n');
  let line = err.lineNumber ?? Number(/line (\d+)/.exec(raw)?.[1] ?? lines.length);
  line = Math.max(1, Math.min(line, lines.length));
  let column = err.column !== undefined ? err.column + 1 : 1;
  const parts = raw.split('\n');
  let detail = raw;
  if (parts.length >= 4 && /^-*\^$/.test(parts[2] ?? '')) {
    const before = (parts[1] ?? '').slice(0, parts[2]!.length - 1);
    column = caretColumn(lines[line - 1] ?? '', before);
    detail = parts[3]!.replace(/^Expecting (.*), got (.*)$/, (_, exp: string, got: string) => `expected ${exp.split(', ').slice(0, 4).join(', ')}${exp.split(', ').length > 4 ? ', …' : ''} but found ${got}`);
  } else {
    detail = raw.replace(/ - \d+:\d+$/, '');
  }
  return {
    message: detail,
    range: { start: { line: bodyLine + line - 1, column }, end: { line: bodyLine + line - 1, column: column + 1 } },
  };
}

/** Jison shows up to 20 characters before the error (newlines removed): find them on the line. */
function caretColumn(lineText: string, before: string): number {
  for (let c = lineText.length; c >= 0; c--) {
    const head = lineText.slice(Math.max(0, c - before.length), c);
    if (before.endsWith(head) && (c < before.length || head === before)) return c + 1;
  }
  return 1;
}
