/**
 * The one interpreter of the template language (./ast.ts): block bodies at build
 * time (`src/resolve/render.ts`) and the dynamic suffix at run time
 * (`src/runtime/template.ts`) render through `interpret`, so they cannot differ.
 * Dependency-free: the runtime package ships it without Handlebars.
 *
 * Semantics are Handlebars 4's with `{ strict: true, noEscape: true }` (the
 * differential tests in test/template/ compare the two on generated templates):
 * a printed path's last segment must exist (`name in value`, else the render
 * fails); block params and `lookup` arguments are read leniently; `#if` treats
 * falsy values and empty lists as false; `../` climbs only contexts that changed.
 *
 * Stricter than Handlebars where it would render nothing or nonsense: printing an
 * object or a list fails ("[object Object]", a comma-joined list), `#each` over a
 * string, number or boolean fails (it renders nothing), `lookup` of a field the
 * value does not have fails, and the output is bounded by `limit` characters —
 * the render stops as soon as the bound is passed.
 */
import type { TemplateBlock, TemplateExpr, TemplateLoc, TemplateNode, TemplatePath } from './ast.js';

/** Most characters one block may render to (1 MiB of UTF-16 code units): far above any real prompt block. */
export const RENDER_LIMIT = 1024 * 1024;

/** Why a render stopped, at the construct's position (`kind: 'size'`: the output passed the limit). */
export class RenderStop extends Error {
  constructor(
    message: string,
    readonly loc: TemplateLoc | undefined,
    readonly kind: 'failure' | 'size' = 'failure',
  ) {
    super(message);
  }
}

/** Why a mustache must not output `value`, or undefined when it may. */
export function renderedAs(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  return Array.isArray(value)
    ? 'the value is a list, which would render as its items joined by commas; iterate it with {{#each}}'
    : 'the value is an object, which would render as "[object Object]"; render one of its fields, or iterate it with {{#each}}';
}

/** Why `#each` must not iterate `value`, or undefined when it may (lists, mappings, and nothing at all). */
export function eachTargetProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
  const shown = typeof value === 'string' ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value) : String(value);
  return `{{#each}} over a ${typeof value} (${shown}) renders nothing; iterate a list or a mapping`;
}

interface Frame {
  /** Contexts, innermost first (only ones that changed, as Handlebars' depths). */
  contexts: unknown[];
  data: Record<string, unknown>;
  /** Block params, innermost block first. */
  params: { names: string[]; values: unknown[] }[];
  /** Characters the render may still produce (shared by every frame of one render). */
  budget: { left: number };
}

/** Renders `nodes` against `context`; throws RenderStop where the render fails. */
export function interpret(nodes: readonly TemplateNode[], context: unknown, limit = RENDER_LIMIT): string {
  return renderNodes(nodes, { contexts: [context], data: { root: context }, params: [], budget: { left: limit } });
}

export type InterpretResult = { ok: true; text: string } | { ok: false; message: string; loc: TemplateLoc | undefined; kind: 'failure' | 'size' };

/** `interpret`, with a failure as a value. */
export function tryInterpret(nodes: readonly TemplateNode[], context: unknown, limit = RENDER_LIMIT): InterpretResult {
  try {
    return { ok: true, text: interpret(nodes, context, limit) };
  } catch (e) {
    if (e instanceof RenderStop) return { ok: false, message: e.message, loc: e.loc, kind: e.kind };
    if (e instanceof RangeError) return { ok: false, message: 'the rendered text passes the size limit', loc: undefined, kind: 'size' };
    throw e;
  }
}

/** Counts `piece` against the render's budget; the sum of all pieces is the output's length. */
function spend(frame: Frame, piece: string, loc: TemplateLoc | undefined): string {
  frame.budget.left -= piece.length;
  if (frame.budget.left < 0) throw new RenderStop('the rendered text passes the size limit', loc, 'size');
  return piece;
}

function renderNodes(nodes: readonly TemplateNode[], frame: Frame): string {
  let out = '';
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        out += spend(frame, node.value, undefined);
        break;
      case 'output': {
        const value = node.value.type === 'path' ? evaluate(node.value, frame, true) : value_(node.value, frame);
        const bad = renderedAs(value);
        if (bad) throw new RenderStop(bad, node.value.type === 'path' ? node.value.loc : node.loc);
        if (value != null) out += spend(frame, String(value), node.loc);
        break;
      }
      case 'block':
        out += renderBlock(node, frame);
        break;
    }
  }
  return out;
}

/** A block; a size stop inside it is re-pointed at the block, so the outermost block that overflowed is named. */
function renderBlock(b: TemplateBlock, frame: Frame): string {
  try {
    return renderBlockBody(b, frame);
  } catch (e) {
    if (e instanceof RenderStop && e.kind === 'size') throw new RenderStop(e.message, b.loc, 'size');
    throw e;
  }
}

function renderBlockBody(b: TemplateBlock, frame: Frame): string {
  const value = evaluate(b.param, frame, false);
  const inverse = (): string => renderNodes(b.inverse, frame);
  const fn = (ctx: unknown, data: Record<string, unknown>, params: unknown[]): string => {
    const top = frame.contexts[0];
    return renderNodes(b.body, {
      contexts: ctx != top ? [ctx, ...frame.contexts] : frame.contexts,
      data,
      params: b.blockParams.length > 0 ? [{ names: b.blockParams, values: params }, ...frame.params] : frame.params,
      budget: frame.budget,
    });
  };
  switch (b.helper) {
    case 'if':
      return isFalsy(value) ? inverse() : fn(frame.contexts[0], frame.data, []);
    case 'unless':
      return isFalsy(value) ? fn(frame.contexts[0], frame.data, []) : inverse();
    case 'with':
      return isEmpty(value) ? inverse() : fn(value, frame.data, [value]);
    case 'each': {
      const bad = eachTargetProblem(value);
      if (bad) throw new RenderStop(bad, b.param.loc);
      if (value == null || typeof value !== 'object') return inverse();
      let out = '';
      const entries: [string | number, unknown][] = Array.isArray(value)
        ? value.map((item, i) => [i, item])
        : Object.keys(value).map((key) => [key, (value as Record<string, unknown>)[key]]);
      if (entries.length === 0) return inverse();
      entries.forEach(([key, item], i) => {
        out += fn(item, { ...frame.data, _parent: frame.data, key, index: i, first: i === 0, last: i === entries.length - 1 }, [item, key]);
      });
      return out;
    }
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

/** A `lookup` argument or result: paths read leniently, as Handlebars reads helper arguments. */
function value_(e: TemplateExpr, frame: Frame): unknown {
  switch (e.type) {
    case 'literal':
      return e.value;
    case 'path':
      return evaluate(e, frame, false);
    case 'lookup': {
      const obj = value_(e.object, frame);
      const field = String(value_(e.key, frame));
      const name = JSON.stringify(field);
      if (obj == null) throw new RenderStop(`{{lookup}} of ${name} on a missing value finds nothing`, e.loc);
      if ((typeof obj !== 'object' && typeof obj !== 'string') || !Object.prototype.hasOwnProperty.call(obj, field)) {
        throw new RenderStop(`{{lookup}} finds no field ${name} in the value`, e.loc);
      }
      return (obj as Record<string, unknown>)[field];
    }
  }
}

function evaluate(path: TemplatePath, frame: Frame, strict: boolean): unknown {
  const parts = path.parts;
  if (path.data) return walk(frame.data, parts, strict, path);
  if (path.depth === 0 && !path.scoped && parts.length > 0) {
    for (const bp of frame.params) {
      const i = bp.names.indexOf(parts[0]!);
      if (i !== -1) return walk(bp.values[i], parts.slice(1), false, path);
    }
  }
  return walk(frame.contexts[path.depth], parts, strict, path);
}

/** Reads `parts` from `start`; with `strict`, the last part must exist (`name in obj`). */
function walk(start: unknown, parts: readonly string[], strict: boolean, path: TemplatePath): unknown {
  let v = start;
  for (let i = 0; i < parts.length; i++) {
    const name = parts[i]!;
    const last = i === parts.length - 1;
    if (strict && last) {
      if (!v || typeof v !== 'object' || !(name in v)) throw new RenderStop(`{{${path.original}}} reads "${name}", which is not defined ${where(v)}`, path.loc);
    } else if (v == null) {
      throw new RenderStop(`{{${path.original}}} reads "${name}" of a missing value`, path.loc);
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
  if (Object.prototype.hasOwnProperty.call(obj, name)) return obj[name];
  return name === 'length' && (Array.isArray(obj) || typeof obj === 'string') ? (obj as unknown as { length: number }).length : undefined;
}
