/**
 * A direct interpreter for the Handlebars subset prompt blocks use, run on the
 * AST the parse phase already built. Compiling a template with Handlebars
 * generates and evals JavaScript (about 1 ms per template); interpreting the
 * tree costs microseconds, and a block is rendered once per agent and cohort.
 *
 * Subset (anything else → `undefined`, and the caller uses real Handlebars):
 *   text, comments, `{{path}}` / `{{{path}}}` (no params or hash, not a helper
 *   name), `{{#if p}}`, `{{#unless p}}`, `{{#with p}}`, `{{#each p}}` with
 *   optional `as |item index|`, `{{else}}` chains, `this`, `../` and `@data`
 *   reads (`@index`, `@key`, `@first`, `@last`, `@root.x`).
 *
 * Semantics follow Handlebars 4 with `{ strict: true, noEscape: true }`:
 * a mustache's last path segment must exist (else a strict-mode error); block
 * params are read leniently; `if` treats falsy values and empty arrays as false;
 * `../` climbs only contexts that changed. test/resolve/interpret.test.ts
 * checks the output against Handlebars itself on generated templates.
 *
 * Stricter than Handlebars where Handlebars would silently render nothing or
 * nonsense (the same additions ./strict-handlebars.ts makes to Handlebars):
 * a mustache whose value is an object or a list fails (it would print
 * "[object Object]" or a comma-joined list), `#each` over a string, number or
 * boolean fails (it would render nothing), and the output is bounded by
 * RENDER_LIMIT characters: rendering stops as soon as the bound is passed.
 */
import { eachTargetProblem, RENDER_LIMIT, renderedAs, RenderStop } from './strict-handlebars.js';
type Node = hbs.AST.Node;
type Program = hbs.AST.Program;

const HELPER_NAMES = new Set(['if', 'unless', 'each', 'with', 'lookup', 'log', 'helperMissing', 'blockHelperMissing']);

/** Characters the render may still produce (shared by every frame of one render). */
interface Budget {
  left: number;
}

/** Whether every node of `program` is in the interpreted subset. */
export function isInterpretable(program: Program): boolean {
  return program.body.every(supported);
}

function supported(node: Node): boolean {
  switch (node.type) {
    case 'ContentStatement':
    case 'CommentStatement':
      return true;
    case 'MustacheStatement': {
      const m = node as hbs.AST.MustacheStatement;
      return m.params.length === 0 && (m.hash?.pairs.length ?? 0) === 0 && simplePath(m.path) && !isHelperName(m.path as hbs.AST.PathExpression);
    }
    case 'BlockStatement': {
      const b = node as hbs.AST.BlockStatement;
      const name = (b.path as hbs.AST.PathExpression).original;
      if (b.path.type !== 'PathExpression' || !['if', 'unless', 'each', 'with'].includes(name)) return false;
      if (b.params.length !== 1 || !simplePath(b.params[0]!) || (b.hash?.pairs.length ?? 0) > 0) return false;
      if ((b.program?.blockParams?.length ?? 0) > 0 && name !== 'each' && name !== 'with') return false;
      return (b.program ? isInterpretable(b.program) : true) && (b.inverse ? isInterpretable(b.inverse) : true);
    }
    default:
      return false;
  }
}

function simplePath(e: hbs.AST.Expression): boolean {
  if (e.type !== 'PathExpression') return false;
  const p = e as hbs.AST.PathExpression;
  // Data paths: only depth 0 (`@index`, `@root.x`), no `@../index`.
  return !(p.data && p.depth > 0);
}

function isHelperName(p: hbs.AST.PathExpression): boolean {
  return p.parts.length === 1 && p.depth === 0 && !p.data && !/^(\.|this\b)/.test(p.original) && HELPER_NAMES.has(p.parts[0]!);
}

/** Where strict Handlebars would throw, or where agentc's strictness stops the render. */
export class RenderFailure extends RenderStop {}

interface Frame {
  /** Contexts, innermost first (only ones that changed, as Handlebars' depths). */
  contexts: unknown[];
  data: Record<string, unknown>;
  /** Block params, innermost block first. */
  params: { names: string[]; values: unknown[] }[];
  budget: Budget;
}

/** Renders `program` against `context`; throws RenderFailure where strict Handlebars would throw. */
export function interpret(program: Program, context: unknown, limit = RENDER_LIMIT): string {
  return renderProgram(program, { contexts: [context], data: { root: context }, params: [], budget: { left: limit } });
}

/** Counts `piece` against the render's budget; the sum of all pieces is the output's length. */
function spend(frame: Frame, piece: string, loc: hbs.AST.SourceLocation | undefined): string {
  frame.budget.left -= piece.length;
  if (frame.budget.left < 0) throw new RenderFailure('the rendered text passes the size limit', loc, 'size');
  return piece;
}

function renderProgram(program: Program, frame: Frame): string {
  let out = '';
  for (const node of program.body) {
    switch (node.type) {
      case 'ContentStatement':
        out += spend(frame, (node as hbs.AST.ContentStatement).value, node.loc);
        break;
      case 'MustacheStatement': {
        const path = (node as hbs.AST.MustacheStatement).path as hbs.AST.PathExpression;
        const value = evaluate(path, frame, true);
        const bad = renderedAs(value);
        if (bad) throw new RenderFailure(bad, path.loc);
        if (value != null) out += spend(frame, String(value), path.loc);
        break;
      }
      case 'BlockStatement':
        out += renderBlock(node as hbs.AST.BlockStatement, frame);
        break;
      default:
        break; // comments
    }
  }
  return out;
}

/** A block; a size stop inside it is re-pointed at the block, so the outermost block that overflowed is named. */
function renderBlock(b: hbs.AST.BlockStatement, frame: Frame): string {
  try {
    return renderBlockBody(b, frame);
  } catch (e) {
    if (e instanceof RenderStop && e.kind === 'size') throw new RenderFailure(e.message, b.loc, 'size');
    throw e;
  }
}

function renderBlockBody(b: hbs.AST.BlockStatement, frame: Frame): string {
  const helper = (b.path as hbs.AST.PathExpression).original;
  const value = evaluate(b.params[0] as hbs.AST.PathExpression, frame, false);
  const inverse = (): string => (b.inverse ? renderProgram(b.inverse, frame) : '');
  const fn = (ctx: unknown, data: Record<string, unknown>, params: unknown[]): string => {
    if (!b.program) return '';
    const top = frame.contexts[0];
    const names = b.program.blockParams ?? [];
    return renderProgram(b.program, {
      contexts: ctx != top ? [ctx, ...frame.contexts] : frame.contexts,
      data,
      params: names.length > 0 ? [{ names, values: params }, ...frame.params] : frame.params,
      budget: frame.budget,
    });
  };
  switch (helper) {
    case 'if':
      return isFalsy(value) ? inverse() : fn(frame.contexts[0], frame.data, []);
    case 'unless':
      return isFalsy(value) ? fn(frame.contexts[0], frame.data, []) : inverse();
    case 'with':
      return isEmpty(value) ? inverse() : fn(value, frame.data, [value]);
    case 'each': {
      const param = b.params[0] as hbs.AST.PathExpression;
      const bad = eachTargetProblem(value);
      if (bad) throw new RenderFailure(bad, param.loc);
      if (value == null || typeof value !== 'object') return inverse();
      let out = '';
      if (Array.isArray(value)) {
        if (value.length === 0) return inverse();
        value.forEach((item, i) => {
          out += fn(item, { ...frame.data, _parent: frame.data, key: i, index: i, first: i === 0, last: i === value.length - 1 }, [item, i]);
        });
        return out;
      }
      const keys = Object.keys(value);
      if (keys.length === 0) return inverse();
      keys.forEach((key, i) => {
        const item = (value as Record<string, unknown>)[key];
        out += fn(item, { ...frame.data, _parent: frame.data, key, index: i, first: i === 0, last: i === keys.length - 1 }, [item, key]);
      });
      return out;
    }
    default:
      throw new Error(`agentc bug: uninterpretable helper ${helper}`);
  }
}

/** Handlebars' `if`: falsy (0 included) or an empty array is false. */
function isFalsy(v: unknown): boolean {
  return !v || (Array.isArray(v) && v.length === 0);
}

/** Handlebars' Utils.isEmpty: falsy but 0, or an empty array. */
function isEmpty(v: unknown): boolean {
  return (!v && v !== 0) || (Array.isArray(v) && v.length === 0);
}

function evaluate(path: hbs.AST.PathExpression, frame: Frame, strict: boolean): unknown {
  const parts = path.parts;
  const scoped = /^(\.|this\b)/.test(path.original);
  if (path.data) return walk(frame.data, parts, strict, path);
  if (path.depth === 0 && !scoped && parts.length > 0) {
    for (const bp of frame.params) {
      const i = bp.names.indexOf(parts[0]!);
      if (i !== -1) return walk(bp.values[i], parts.slice(1), false, path);
    }
  }
  const ctx = frame.contexts[path.depth];
  return walk(ctx, parts, strict, path);
}

/** Reads `parts` from `start`; with `strict`, the last part must exist (`name in obj`). */
function walk(start: unknown, parts: readonly string[], strict: boolean, path: hbs.AST.PathExpression): unknown {
  let v = start;
  for (let i = 0; i < parts.length; i++) {
    const name = parts[i]!;
    const last = i === parts.length - 1;
    if (strict && last) {
      if (!v || typeof v !== 'object' || !(name in v)) throw new RenderFailure(`{{${path.original}}} reads "${name}", which is not defined ${where(v)}`, path.loc);
    } else if (v == null) {
      throw new RenderFailure(`{{${path.original}}} reads "${name}" of a missing value`, path.loc);
    }
    v = own(v as Record<string, unknown>, name);
  }
  return v;
}

/** Where a strict read looked (Handlebars' own message would print "[object Object]"). */
function where(v: unknown): string {
  if (v == null) return 'on a missing value';
  if (Array.isArray(v)) return 'on a list';
  if (typeof v === 'object') return 'there';
  return `on a ${typeof v}`;
}

/** Own properties only, as Handlebars' prototype-access rules allow for plain data. */
function own(obj: Record<string, unknown>, name: string): unknown {
  if (typeof obj !== 'object' && typeof obj !== 'string') return undefined;
  return Object.prototype.hasOwnProperty.call(obj, name) ? obj[name] : name === 'length' && (Array.isArray(obj) || typeof obj === 'string') ? (obj as unknown as { length: number }).length : undefined;
}

export type InterpretResult =
  | { ok: true; text: string }
  | { ok: false; message: string; loc: hbs.AST.SourceLocation | undefined; kind: 'failure' | 'size' };

export function tryInterpret(program: Program, context: unknown, limit = RENDER_LIMIT): InterpretResult {
  try {
    return { ok: true, text: interpret(program, context, limit) };
  } catch (e) {
    if (e instanceof RenderStop) return { ok: false, message: e.message, loc: e.loc, kind: e.kind };
    throw e;
  }
}
