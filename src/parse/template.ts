/**
 * Static analysis of a block's Handlebars body. Grammar we accept: Handlebars 4
 * (mustaches, blocks, partials are rejected later, comments, `\{{` escapes).
 *
 * The analysis records every variable read as a `TemplateRef` with its scope chain
 * (the `#each` / `#with` blocks around it), so the check phase can resolve each
 * read against the compile-time context's shape without re-walking the AST.
 * Ranges are in whole-file coordinates (front matter included).
 */
import { createRequire } from 'node:module';
import type { Range } from '../diagnostics/diagnostic.js';
import type { SourceFile } from '../load/source.js';

type AST = hbs.AST.Program;
type Node = hbs.AST.Node;

const require = createRequire(import.meta.url);
let hbsModule: typeof import('handlebars') | undefined;
/** Loaded on first use: a workspace of plain-text blocks never pays for it. */
export function handlebars(): typeof import('handlebars') {
  return (hbsModule ??= require('handlebars') as typeof import('handlebars'));
}

/** A body with no `{{` is one text statement: no escapes or whitespace control can apply. */
function literalAnalysis(body: string): TemplateAnalysis {
  const pos = { line: 1, column: 0 };
  const loc = { source: '', start: pos, end: pos };
  const content = { type: 'ContentStatement', value: body, original: body, loc } as unknown as hbs.AST.ContentStatement;
  const ast = { type: 'Program', body: body === '' ? [] : [content], blockParams: [], strip: {}, loc } as unknown as AST;
  return { ast, refs: [], unknownHelpers: [], partials: [] };
}

/**
 * The helpers blocks may call (Handlebars' own, minus `log`, which writes to
 * stdout); `each`/`with` change the scope.
 */
export const BUILTIN_HELPERS = new Set(['if', 'unless', 'each', 'with', 'lookup']);

/** Names Handlebars runs as helpers even without arguments; none is available in blocks. */
const HANDLEBARS_ONLY_HELPERS = new Set(['log', 'helperMissing', 'blockHelperMissing']);

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
  /** 'output': the value is printed (`{{x}}`); 'each': the value `{{#each x}}` iterates. Absent for other reads. */
  use?: 'output' | 'each';
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
  | { ok: false; problem: TemplateProblem; range: Range; related?: { range: Range; open: string }[] };

/** A template-syntax message without the block (the caller knows it): catalog id and data. */
export type TemplateProblem =
  | { message: 'syntax'; data: { reason: string } }
  | { message: 'unexpected'; data: { found: string; expected: string } }
  | { message: 'mismatch'; data: { open: string; close: string; fix: string } }
  | { message: 'neverClosed'; data: { open: string; line: number; close: string } }
  | { message: 'tooDeep'; data: { max: number } };

/** Parses `body`, which starts at offset `bodyOffset` of `file` (at a line start). */
export function analyzeTemplate(file: SourceFile, body: string, bodyOffset: number): TemplateParseResult {
  const bodyLine = file.positionAt(bodyOffset).line;
  const toRange = (loc: hbs.AST.SourceLocation): Range => ({
    start: { line: bodyLine + loc.start.line - 1, column: loc.start.column + 1 },
    end: { line: bodyLine + loc.end.line - 1, column: loc.end.column + 1 },
  });
  const deep = tooDeep(body);
  if (deep) {
    const at = file.rangeAt(bodyOffset + deep.offset, bodyOffset + deep.offset + 2);
    return { ok: false, problem: { message: 'tooDeep', data: { max: MAX_NESTING } }, range: at };
  }
  if (!body.includes('{{')) return { ok: true, analysis: literalAnalysis(body) };
  let ast: AST;
  try {
    ast = handlebars().parse(body);
  } catch (e) {
    return { ok: false, ...describeParseError(e, file, body, bodyOffset) };
  }
  const refs: TemplateRef[] = [];
  const unknownHelpers: UnknownHelper[] = [];
  const partials: Range[] = [];

  const refOf = (path: hbs.AST.PathExpression, scopes: ScopeFrame[]): TemplateRef => {
    const original = path.original;
    const scoped = (path as { this_?: boolean }).this_ === true || /^\.|^this\b/.test(original);
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
    const isCall =
      node.params.length > 0 ||
      (node.hash?.pairs.length ?? 0) > 0 ||
      node.type === 'BlockStatement' ||
      node.type === 'SubExpression' ||
      (path.type === 'PathExpression' && HANDLEBARS_ONLY_HELPERS.has(path.original));
    if (path.type === 'PathExpression' && isCall && path.parts.length === 1 && !path.data && path.depth === 0) {
      if (!BUILTIN_HELPERS.has(path.original)) unknownHelpers.push({ name: path.original, range: toRange(path.loc) });
    } else if (path.type === 'PathExpression') {
      const ref = refOf(path, scopes);
      if (node.type === 'MustacheStatement' && !isCall) ref.use = 'output';
      refs.push(ref);
    }
    const first = node.params[0];
    if (node.type === 'BlockStatement' && path.original === 'each' && first?.type === 'PathExpression') {
      refs.push({ ...refOf(first as hbs.AST.PathExpression, scopes), use: 'each' });
      for (const p of node.params.slice(1)) visitExpr(p, scopes);
    } else {
      for (const p of node.params) visitExpr(p, scopes);
    }
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

/** Deeper nesting is refused before parsing: Handlebars' parser is quadratic in it (4,000 levels take seconds). */
export const MAX_NESTING = 64;

/** Where `{{#…}}` blocks, or `(` subexpressions inside one mustache, first nest deeper than MAX_NESTING. */
function tooDeep(body: string): { offset: number } | undefined {
  let blocks = 0;
  const tag = /\\\{\{|\{\{!--[\s\S]*?--~?\}\}|\{\{~?!(?!--)[\s\S]*?\}\}|\{\{~?\s*([#^/])?[^}]*/g;
  for (let m = tag.exec(body); m; m = tag.exec(body)) {
    if (!m[0].startsWith('{{') || m[0].startsWith('{{!')) continue;
    if (m[1] === '#' || (m[1] === '^' && !/^\{\{~?\s*\^\s*~?$/.test(m[0]))) blocks++; // `{{^}}` alone is an else
    else if (m[1] === '/') blocks = Math.max(0, blocks - 1);
    if (blocks > MAX_NESTING) return { offset: m.index };
    let parens = 0;
    for (let i = 0; i < m[0].length; i++) {
      if (m[0][i] === '(') parens++;
      else if (m[0][i] === ')') parens = Math.max(0, parens - 1);
      if (parens > MAX_NESTING) return { offset: m.index + i };
    }
  }
  return undefined;
}

/** Handlebars' lexer (a module singleton): after a failed parse, `yylloc` is the offending token. */
interface JisonLexer {
  yylloc?: { first_line: number; first_column: number; last_line: number; last_column: number };
  match?: string;
}
const lexer = (): JisonLexer | undefined => (handlebars() as unknown as { Parser?: { lexer?: JisonLexer } }).Parser?.lexer;

/** Parser token names → what the author typed. */
const TOKEN_WORDS: Record<string, string> = {
  OPEN: "'{{'",
  CLOSE: "'}}'",
  OPEN_UNESCAPED: "'{{{'",
  CLOSE_UNESCAPED: "'}}}'",
  OPEN_BLOCK: "'{{#'",
  OPEN_ENDBLOCK: "'{{/…}}'",
  OPEN_INVERSE: "'{{^'",
  OPEN_INVERSE_CHAIN: "'{{else …}}'",
  INVERSE: "'{{else}}'",
  OPEN_PARTIAL: "'{{>'",
  OPEN_PARTIAL_BLOCK: "'{{#>'",
  OPEN_RAW_BLOCK: "'{{{{'",
  CLOSE_RAW_BLOCK: "'}}}}'",
  END_RAW_BLOCK: "'{{{{/'",
  OPEN_SEXPR: "'('",
  CLOSE_SEXPR: "')'",
  OPEN_BLOCK_PARAMS: "'as |'",
  CLOSE_BLOCK_PARAMS: "'|'",
  EQUALS: "'='",
  SEP: "'.'",
  DATA: "'@'",
  ID: 'a name',
  STRING: 'a string',
  NUMBER: 'a number',
  BOOLEAN: 'true or false',
  UNDEFINED: 'undefined',
  NULL: 'null',
  CONTENT: 'text',
  COMMENT: 'a comment',
  EOF: 'the end of the block',
  INVALID: 'an invalid character',
};
const words = (token: string): string => TOKEN_WORDS[token] ?? token.toLowerCase();

/**
 * A Handlebars parse failure → a message an author can act on, at its whole-file
 * position. An unclosed block is reported where the parser noticed (the end of
 * the block), with the `{{#…}}` that is never closed as related information.
 */
function describeParseError(e: unknown, file: SourceFile, body: string, bodyOffset: number): { problem: TemplateProblem; range: Range; related?: { range: Range; open: string }[] } {
  const bodyLine = file.positionAt(bodyOffset).line;
  const err = e as { message?: string; lineNumber?: number; column?: number };
  const raw = String(err.message ?? e);
  const lines = body.split('\n');
  const point = (line: number, column: number): Range => {
    const l = Math.max(1, Math.min(line, lines.length));
    const width = (lines[l - 1] ?? '').length;
    const c = Math.max(1, Math.min(column, width + 1));
    // One character, or nothing at the end of a line: a range never ends past its line.
    return { start: { line: bodyLine + l - 1, column: c }, end: { line: bodyLine + l - 1, column: Math.min(c + 1, width + 1) } };
  };

  // Handlebars' own exceptions carry a location (e.g. "if doesn't match each - 3:2").
  if (err.lineNumber !== undefined) {
    const mismatch = /^(\S+) doesn't match (\S+)/.exec(raw);
    const problem: TemplateProblem = mismatch
      ? { message: 'mismatch', data: { open: `{{#${mismatch[1]}}}`, close: `{{/${mismatch[2]}}}`, fix: `{{/${mismatch[1]}}}` } }
      : { message: 'syntax', data: { reason: raw.replace(/ - \d+:\d+$/, '') } };
    return { problem, range: point(err.lineNumber, (err.column ?? 0) + 1) };
  }

  const loc = lexer()?.yylloc;
  const range = loc ? point(loc.first_line, loc.first_column + 1) : point(Number(/line (\d+)/.exec(raw)?.[1] ?? lines.length), 1);
  const parse = /\nExpecting (.*), got '([^']*)'$/.exec(raw);
  if (!parse) return { problem: { message: 'syntax', data: { reason: raw.split('\n')[0]!.replace(/ on line \d+/, '') } }, range };

  const expected = [...new Set(parse[1]!.split(', ').map((t) => words(t.replace(/^'|'$/g, ''))))];
  const got = parse[2]!;
  const match = lexer()?.match;
  const found = got === 'INVALID' && match ? `'${match}'` : words(got);
  if (got === 'EOF' && parse[1]!.includes("'OPEN_ENDBLOCK'")) {
    const open = innermostUnclosedBlock(body);
    if (open) {
      const at = file.rangeAt(bodyOffset + open.offset, bodyOffset + open.offset + open.length);
      return {
        problem: { message: 'neverClosed', data: { open: `{{${open.sigil}${open.name}}}`, line: at.start.line, close: `{{/${open.name}}}` } },
        range,
        related: [{ range: at, open: `{{${open.sigil}${open.name}}}` }],
      };
    }
  }
  const list = expected.length > 4 ? `${expected.slice(0, 4).join(', ')}, …` : expected.join(', ');
  return { problem: { message: 'unexpected', data: { found, expected: list } }, range };
}

/** The last `{{#name}}` / `{{^name}}` without its `{{/name}}` (escapes and comments skipped). */
function innermostUnclosedBlock(body: string): { name: string; sigil: string; offset: number; length: number } | undefined {
  const stack: { name: string; sigil: string; offset: number; length: number }[] = [];
  const tag = /\\\{\{|\{\{!--[\s\S]*?--~?\}\}|\{\{~?!(?!--)[\s\S]*?\}\}|\{\{~?\s*([#^/])\s*>?\s*([^\s}~()]+)/g;
  for (let m = tag.exec(body); m; m = tag.exec(body)) {
    if (!m[1]) continue;
    if (m[1] === '/') {
      const i = stack.map((b) => b.name).lastIndexOf(m[2]!);
      if (i !== -1) stack.length = i;
    } else {
      stack.push({ name: m[2]!, sigil: m[1], offset: m.index, length: m[0].length });
    }
  }
  return stack[stack.length - 1];
}
