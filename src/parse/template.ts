/**
 * The template language's front end: Handlebars' public parser
 * (`Handlebars.parse`, whitespace control applied) → the language's own AST
 * (`src/bundle/template/ast.ts`), plus a static analysis for the check phase.
 * Nothing here reads Handlebars' internals: a syntax error is located by parsing
 * the template's tags one at a time with the same public parser
 * (`locateSyntaxError`), and block mismatches by the exception's public
 * `lineNumber` / `column`.
 *
 * The analysis records every variable read as a `TemplateRef` with its scope chain
 * (the `#each` / `#with` blocks around it), so the check phase can resolve each
 * read against the context's shape without re-walking the AST; helper calls,
 * partials and other constructs outside the language are listed with their ranges.
 * Ranges are in whole-file coordinates (front matter included).
 */
import { createRequire } from 'node:module';
import type { TemplateExpr, TemplateLoc, TemplateNode, TemplatePath } from '../bundle/template/ast.js';
import type { Range } from '../diagnostics/diagnostic.js';
import type {} from 'handlebars'; // the global hbs.AST types

const require = createRequire(import.meta.url);
/** What is used of Handlebars: its public `parse` (whitespace control applied). */
interface HandlebarsParser {
  // Written through import(): the declaration file keeps it, so a service's tsc finds the global hbs types too.
  parse(input: string): ReturnType<typeof import('handlebars').parse>;
}
let hbsModule: HandlebarsParser | undefined;
/**
 * Loaded on first use: a workspace of plain-text blocks never pays for it. The
 * module is Handlebars' parser front end (`compiler/base`, whose `parse` is the
 * very function `Handlebars.parse` is), without the compiler, the runtime and
 * source-map that the package's main module also loads (a third of the code).
 */
export function handlebars(): HandlebarsParser {
  return (hbsModule ??= require('handlebars/dist/cjs/handlebars/compiler/base') as HandlebarsParser);
}

/** Where a template sits in its file: whole-file ranges of offsets into the template. */
export interface TemplatePlacer {
  rangeAt(start: number, end: number): Range;
}

/** The helpers the language has; `each`/`with` change the scope. */
export const BUILTIN_HELPERS = new Set(['if', 'unless', 'each', 'with', 'lookup']);
const BLOCK_HELPERS = new Set(['if', 'unless', 'each', 'with']);

/** Names Handlebars runs as helpers even without arguments; none is available in templates. */
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

/** A construct Handlebars accepts but the language does not (hash arguments, subexpressions, …). */
export interface Unsupported {
  /** What it is, in words, e.g. "hash arguments (name=value)". */
  what: string;
  range: Range;
}

export interface TemplateAnalysis {
  /** The template as the language's AST; undefined when it uses anything outside the language. */
  nodes: TemplateNode[] | undefined;
  refs: TemplateRef[];
  unknownHelpers: UnknownHelper[];
  partials: Range[];
  unsupported: Unsupported[];
}

export type TemplateParseResult = { ok: true; analysis: TemplateAnalysis } | { ok: false; problem: TemplateProblem; range: Range };

/** A template-syntax message without the block (the caller knows it): catalog id and data. */
export type TemplateProblem =
  | { message: 'syntax'; data: { reason: string } }
  | { message: 'unexpected'; data: { found: string } }
  | { message: 'mismatch'; data: { open: string; close: string; fix: string } }
  | { message: 'neverClosed'; data: { open: string; line: number; close: string } }
  | { message: 'tooDeep'; data: { max: number } };

/** Line starts of `text` (offsets), for Handlebars locations → offsets. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** A placer for a template that is a whole text of its own (line 1 is its first line). */
export function standalonePlacer(text: string): TemplatePlacer {
  const starts = lineStarts(text);
  const pos = (offset: number) => {
    let line = 0;
    while (line + 1 < starts.length && starts[line + 1]! <= offset) line++;
    return { line: line + 1, column: offset - starts[line]! + 1 };
  };
  return { rangeAt: (s, e) => ({ start: pos(s), end: pos(Math.max(s, e)) }) };
}

/** Parses and analyzes template `body`, placed in its file by `place`. */
export function analyzeTemplate(place: TemplatePlacer, body: string): TemplateParseResult {
  const starts = lineStarts(body);
  const offsetOf = (p: { line: number; column: number }): number => Math.min(body.length, (starts[p.line - 1] ?? body.length) + p.column);
  const toRange = (loc: hbs.AST.SourceLocation | TemplateLoc): Range => place.rangeAt(offsetOf(loc.start), offsetOf(loc.end));
  const deep = tooDeep(body);
  if (deep) return { ok: false, problem: { message: 'tooDeep', data: { max: MAX_NESTING } }, range: place.rangeAt(deep.offset, deep.offset + 2) };
  if (!body.includes('{{')) {
    return { ok: true, analysis: { nodes: body === '' ? [] : [{ type: 'text', value: body }], refs: [], unknownHelpers: [], partials: [], unsupported: [] } };
  }
  let ast: hbs.AST.Program;
  try {
    ast = handlebars().parse(body);
  } catch (e) {
    return { ok: false, ...describeParseError(e, place, body, offsetOf) };
  }
  const refs: TemplateRef[] = [];
  const unknownHelpers: UnknownHelper[] = [];
  const partials: Range[] = [];

  const refOf = (path: hbs.AST.PathExpression, scopes: ScopeFrame[]): TemplateRef => {
    const original = path.original;
    return {
      parts: [...path.parts],
      depth: path.depth,
      data: path.data,
      scoped: isScopedPath(path),
      original: path.data && !original.startsWith('@') ? `@${original}` : original,
      range: toRange(path.loc),
      scopes,
    };
  };

  const visitExpr = (expr: hbs.AST.Expression, scopes: ScopeFrame[]): void => {
    if (expr.type === 'PathExpression') refs.push(refOf(expr as hbs.AST.PathExpression, scopes));
    else if (expr.type === 'SubExpression') visitCall(expr as hbs.AST.SubExpression, scopes);
  };

  /** A mustache, block or subexpression: a helper call when it has params or hash. */
  const visitCall = (node: hbs.AST.MustacheStatement | hbs.AST.BlockStatement | hbs.AST.SubExpression, scopes: ScopeFrame[]): void => {
    const path = node.path as hbs.AST.PathExpression;
    if (path.type === 'PathExpression' && isCall(node) && path.parts.length === 1 && !path.data && path.depth === 0) {
      if (!BUILTIN_HELPERS.has(path.original)) unknownHelpers.push({ name: path.original, range: toRange(path.loc) });
    } else if (path.type === 'PathExpression') {
      const ref = refOf(path, scopes);
      if (node.type === 'MustacheStatement' && !isCall(node)) ref.use = 'output';
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
    for (const stmt of program?.body ?? []) visitStatement(stmt, scopes);
  };

  const visitStatement = (stmt: hbs.AST.Node, scopes: ScopeFrame[]): void => {
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
          inner = [...scopes, { kind: helper, source: refOf(first as hbs.AST.PathExpression, scopes), blockParams: block.program?.blockParams ?? [] }];
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
  const unsupported: Unsupported[] = [];
  const nodes = new Converter(toRange, unsupported).program(ast);
  const outside = unknownHelpers.length > 0 || partials.length > 0 || unsupported.length > 0;
  return { ok: true, analysis: { nodes: outside ? undefined : nodes, refs, unknownHelpers, partials, unsupported } };
}

/** Handlebars' own test for an explicitly scoped path (`this`, `.`, `this.x`, `./x`). */
function isScopedPath(path: hbs.AST.PathExpression): boolean {
  return (path as { this_?: boolean }).this_ === true || /^(\.|this\b)/.test(path.original);
}

/** A mustache or block that calls a helper: with params or hash, a block, a subexpression, or a Handlebars-only helper name. */
function isCall(node: hbs.AST.MustacheStatement | hbs.AST.BlockStatement | hbs.AST.SubExpression): boolean {
  const path = node.path as hbs.AST.PathExpression;
  return (
    node.params.length > 0 ||
    (node.hash?.pairs.length ?? 0) > 0 ||
    node.type === 'BlockStatement' ||
    node.type === 'SubExpression' ||
    (path.type === 'PathExpression' && HANDLEBARS_ONLY_HELPERS.has(path.original))
  );
}

/** A bare name (no `this`, `../`, `@`, dots), as helper names are written. */
function bareName(path: hbs.AST.Expression): string | undefined {
  if (path.type !== 'PathExpression') return undefined;
  const p = path as hbs.AST.PathExpression;
  return p.parts.length === 1 && p.depth === 0 && !p.data && !isScopedPath(p) ? p.parts[0] : undefined;
}

/**
 * Handlebars' AST → the language's AST. Constructs outside the language are
 * recorded in `unsupported` (helper calls and partials are the analysis' own
 * findings); the nodes are only used when there are none.
 */
class Converter {
  constructor(
    private readonly toRange: (loc: hbs.AST.SourceLocation) => Range,
    private readonly unsupported: Unsupported[],
  ) {}

  program(p: hbs.AST.Program | undefined): TemplateNode[] {
    const out: TemplateNode[] = [];
    for (const stmt of p?.body ?? []) {
      const node = this.statement(stmt);
      if (node) out.push(node);
    }
    return out;
  }

  private skip(what: string, loc: hbs.AST.SourceLocation): undefined {
    this.unsupported.push({ what, range: this.toRange(loc) });
    return undefined;
  }

  private statement(stmt: hbs.AST.Node): TemplateNode | undefined {
    switch (stmt.type) {
      case 'ContentStatement': {
        const value = (stmt as hbs.AST.ContentStatement).value;
        return value === '' ? undefined : { type: 'text', value };
      }
      case 'MustacheStatement':
        return this.mustache(stmt as hbs.AST.MustacheStatement);
      case 'BlockStatement':
        return this.block(stmt as hbs.AST.BlockStatement);
      default:
        return undefined; // comments; partials and decorators are the analysis' findings
    }
  }

  private mustache(m: hbs.AST.MustacheStatement): TemplateNode | undefined {
    const loc = copyLoc(m.loc);
    if (m.path.type !== 'PathExpression') return this.skip('a literal where a value is printed', m.loc);
    if ((m.hash?.pairs.length ?? 0) > 0) return this.skip('hash arguments (name=value)', m.hash.loc);
    const name = bareName(m.path);
    if (name === 'lookup') {
      if (m.params.length !== 2) return this.skip(`{{lookup}} with ${m.params.length} argument(s) (it takes a value and a field)`, m.loc);
      const value = this.lookup(m.params[0]!, m.params[1]!, m.loc);
      return value && { type: 'output', value, loc };
    }
    if (isCall(m)) {
      if (name !== undefined && BLOCK_HELPERS.has(name)) return this.skip(`{{${name}}} outside a block (write {{#${name} …}}…{{/${name}}})`, m.loc);
      return undefined; // an unknown helper: the analysis reports it
    }
    if (name !== undefined && BLOCK_HELPERS.has(name)) return this.skip(`{{${name}}} outside a block (write {{#${name} …}}…{{/${name}}})`, m.loc);
    const path = this.path(m.path as hbs.AST.PathExpression);
    return path && { type: 'output', value: path, loc };
  }

  private block(b: hbs.AST.BlockStatement): TemplateNode | undefined {
    const name = bareName(b.path);
    if (name === undefined || !BLOCK_HELPERS.has(name)) {
      if (name === 'lookup') return this.skip('{{#lookup}} as a block', b.loc);
      if (name === undefined) return this.skip('a block that is not #if, #unless, #each or #with', b.loc);
      return undefined; // an unknown helper: the analysis reports it
    }
    if ((b.hash?.pairs.length ?? 0) > 0) return this.skip('hash arguments (name=value)', b.hash.loc);
    if (b.params.length !== 1) return this.skip(`{{#${name}}} with ${b.params.length} arguments (it takes one value)`, b.loc);
    const param = b.params[0]!;
    if (param.type === 'SubExpression') {
      const inner = bareName((param as hbs.AST.SubExpression).path);
      if (inner !== undefined && !BUILTIN_HELPERS.has(inner)) return undefined; // an unknown helper: the analysis reports it
    }
    if (param.type !== 'PathExpression')
      return this.skip(`{{#${name}}} of a ${param.type === 'SubExpression' ? 'subexpression' : 'literal'} (it takes a path)`, param.loc);
    const blockParams = b.program?.blockParams ?? [];
    if (blockParams.length > 0 && name !== 'each' && name !== 'with') return this.skip(`block parameters (as |…|) on {{#${name}}}`, b.loc);
    const path = this.path(param as hbs.AST.PathExpression);
    const body = this.program(b.program);
    const inverse = this.program(b.inverse);
    if (!path) return undefined;
    return { type: 'block', helper: name as 'if', param: path, blockParams: [...blockParams], body, inverse, loc: copyLoc(b.loc) };
  }

  private lookup(object: hbs.AST.Expression, key: hbs.AST.Expression, loc: hbs.AST.SourceLocation): TemplateExpr | undefined {
    const o = this.expr(object);
    const k = this.expr(key);
    return o && k && { type: 'lookup', object: o, key: k, loc: copyLoc(loc) };
  }

  private expr(e: hbs.AST.Expression): TemplateExpr | undefined {
    switch (e.type) {
      case 'PathExpression':
        return this.path(e as hbs.AST.PathExpression);
      case 'StringLiteral':
      case 'NumberLiteral':
      case 'BooleanLiteral':
        return { type: 'literal', value: (e as hbs.AST.StringLiteral).value, loc: copyLoc(e.loc) };
      case 'NullLiteral':
        return { type: 'literal', value: null, loc: copyLoc(e.loc) };
      case 'SubExpression': {
        const s = e as hbs.AST.SubExpression;
        const name = bareName(s.path);
        if (name === 'lookup' && s.params.length === 2 && (s.hash?.pairs.length ?? 0) === 0) return this.lookup(s.params[0]!, s.params[1]!, s.loc);
        if (name !== undefined && !BUILTIN_HELPERS.has(name)) return undefined; // an unknown helper: the analysis reports it
        return this.skip('a subexpression other than (lookup value field)', s.loc);
      }
      default:
        return this.skip('a literal that is not a string, number, boolean or null', e.loc);
    }
  }

  private path(p: hbs.AST.PathExpression): TemplatePath | undefined {
    if (p.data && p.depth > 0) return this.skip(`${p.original} (a data variable of an outer block)`, p.loc);
    return {
      type: 'path',
      original: p.data && !p.original.startsWith('@') ? `@${p.original}` : p.original,
      parts: [...p.parts],
      depth: p.depth,
      data: p.data,
      scoped: isScopedPath(p),
      loc: copyLoc(p.loc),
    };
  }
}

/** Handlebars' location without its `source` (plain JSON). */
function copyLoc(loc: hbs.AST.SourceLocation): TemplateLoc {
  return { start: { line: loc.start.line, column: loc.start.column }, end: { line: loc.end.line, column: loc.end.column } };
}

/** Deeper nesting is refused before parsing: Handlebars' parser is quadratic in it (4,000 levels take seconds). */
export const MAX_NESTING = 64;

/** Where `{{#…}}` blocks, or `(` subexpressions inside one mustache, first nest deeper than MAX_NESTING. */
function tooDeep(body: string): { offset: number } | undefined {
  let blocks = 0;
  for (const tag of scanTags(body)) {
    if (tag.kind === 'open') blocks++;
    else if (tag.kind === 'close') blocks = Math.max(0, blocks - 1);
    if (blocks > MAX_NESTING) return { offset: tag.offset };
    let parens = 0;
    for (let i = 0; i < tag.text.length; i++) {
      if (tag.text[i] === '(') parens++;
      else if (tag.text[i] === ')') parens = Math.max(0, parens - 1);
      if (parens > MAX_NESTING) return { offset: tag.offset + i };
    }
  }
  return undefined;
}

/** `{{#name` / `{{^name` (also `{{#>` partial blocks and `{{#*` decorators). */
const OPEN_TAG = /^\{\{~?\s*([#^])\s*[>*]?\s*([^\s}~()|]+)/;

/** One `{{…}}` of a template's source, classified by its opening sigil. */
interface Tag {
  kind: 'open' | 'close' | 'else' | 'mustache';
  /** The block's name (open / close tags). */
  name: string;
  /** `#` or `^` (open tags). */
  sigil: string;
  offset: number;
  text: string;
}

/**
 * The tags of `body`, in order: `\{{` escapes and comments skipped, a tag runs to
 * the first `}}` after its opening (an unterminated `{{` runs to the end).
 */
function scanTags(body: string): Tag[] {
  const tags: Tag[] = [];
  const re = /\\\{\{|\{\{~?!--[\s\S]*?--~?\}\}|\{\{~?!(?!--)[\s\S]*?\}\}|\{\{\{[\s\S]*?\}\}\}|\{\{[\s\S]*?\}\}|\{\{[\s\S]*$/g;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    const text = m[0];
    if (text.startsWith('\\') || /^\{\{~?!/.test(text)) continue;
    const open = OPEN_TAG.exec(text);
    const close = /^\{\{~?\s*\/\s*([^\s}~]+)/.exec(text);
    if (/^\{\{~?\s*(else\b|\^\s*~?\}\})/.test(text)) tags.push({ kind: 'else', name: '', sigil: '', offset: m.index, text });
    else if (open) tags.push({ kind: 'open', name: open[2]!, sigil: open[1]!, offset: m.index, text });
    else if (close) tags.push({ kind: 'close', name: close[1]!, sigil: '', offset: m.index, text });
    else tags.push({ kind: 'mustache', name: '', sigil: '', offset: m.index, text });
  }
  return tags;
}

/** Whether Handlebars' public parser accepts `text`. */
function parses(text: string): boolean {
  try {
    handlebars().parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A tag parsed on its own: an open tag with its close, an else inside an `#if`. */
function tagAlone(tag: Tag, text = tag.text): string {
  if (tag.kind === 'open') return `${text}{{/${tag.name}}}`;
  if (tag.kind === 'else') return `{{#if x}}${text}{{/if}}`;
  return text;
}

/** Endings that complete a prefix of a tag cut anywhere a valid tag could continue. */
const COMPLETIONS = ['}}', '}}}', ' x}}', 'x}}', ')}}', ' x)}}', 'x)}}', '"}}', "'}}", ']}}', ' x|}}', '|}}', 'x|}}'];
/** How far into a tag the search goes (each step re-parses the prefix). */
const MAX_TAG_SEARCH = 240;

/** The offset in a failing tag where it stops being a valid prefix of some tag. */
function errorOffsetInTag(tag: Tag): number {
  const viable = (j: number) => COMPLETIONS.some((c) => parses(tagAlone(tag, tag.text.slice(0, j) + c)));
  // From after the opening (`{{`, `{{#name`, `{{else`): a prefix cut inside it completes to no tag.
  const opening = tag.kind === 'open' ? OPEN_TAG.exec(tag.text) : tag.kind === 'else' ? /^\{\{~?\s*(else|\^)/.exec(tag.text) : null;
  let j = opening && viable(opening[0].length) ? opening[0].length : 2;
  const limit = Math.min(tag.text.length, MAX_TAG_SEARCH);
  while (j < limit && viable(j + 1)) j++;
  return j;
}

/** What the author wrote at `offset`, in words. */
function foundAt(body: string, offset: number): string {
  if (offset >= body.length) return 'the end of the template';
  const rest = body.slice(offset);
  const token = /^(\}\}\}|\}\}|\{\{|\S)/.exec(rest)?.[0] ?? rest[0]!;
  return token === '\n' ? 'a line break' : `'${token}'`;
}

/**
 * A parse failure → a message an author can act on, at its whole-file position,
 * from the template's source and Handlebars' public parser alone: the first tag
 * that does not parse on its own (at the character where it goes wrong), else
 * the first close that does not match its block (the exception's public
 * `lineNumber`/`column`), else the block never closed (reported at its `{{#…}}`,
 * the tag an editor underlines).
 */
function describeParseError(
  e: unknown,
  place: TemplatePlacer,
  body: string,
  offsetOf: (p: { line: number; column: number }) => number,
): { problem: TemplateProblem; range: Range } {
  const point = (offset: number): Range => {
    const o = Math.min(offset, body.length);
    const lineEnd = body.indexOf('\n', o);
    return place.rangeAt(o, Math.min(o + 1, lineEnd === -1 ? body.length : lineEnd));
  };
  const tags = scanTags(body);
  for (const tag of tags) {
    if (tag.kind === 'close' || parses(tagAlone(tag))) continue;
    const at = tag.offset + errorOffsetInTag(tag);
    return { problem: { message: 'unexpected', data: { found: foundAt(body, at) } }, range: point(at) };
  }
  const err = e as { lineNumber?: unknown; column?: unknown };
  const where = typeof err.lineNumber === 'number' ? offsetOf({ line: err.lineNumber, column: typeof err.column === 'number' ? err.column : 0 }) : undefined;
  const stack: Tag[] = [];
  for (const tag of tags) {
    if (tag.kind === 'open') stack.push(tag);
    if (tag.kind !== 'close') continue;
    const open = stack.pop();
    if (!open) {
      return { problem: { message: 'syntax', data: { reason: `"{{/${tag.name}}}" closes no open block` } }, range: point(tag.offset) };
    }
    if (open.name !== tag.name) {
      const shown = `{{${open.sigil}${open.name}}}`;
      return {
        problem: { message: 'mismatch', data: { open: shown, close: `{{/${tag.name}}}`, fix: `{{/${open.name}}}` } },
        range: point(where ?? tag.offset),
      };
    }
  }
  const open = stack[stack.length - 1];
  if (open) {
    const at = place.rangeAt(open.offset, open.offset + (OPEN_TAG.exec(open.text)?.[0].length ?? 2));
    const shown = `{{${open.sigil}${open.name}}}`;
    return {
      problem: { message: 'neverClosed', data: { open: shown, line: at.start.line, close: `{{/${open.name}}}` } },
      range: at,
    };
  }
  return { problem: { message: 'syntax', data: { reason: 'the template does not parse as Handlebars' } }, range: point(where ?? 0) };
}
