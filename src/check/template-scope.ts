/**
 * Resolves one template read (a `TemplateRef`) against the compile-time context
 * shape, following Handlebars 4 strict-mode scoping:
 *
 * - a path is looked up in the innermost scope only (`#each X` → an element of X,
 *   `#with X` → X); there is no fallback to outer scopes;
 * - `../` climbs one scope per step, `this` / `.` is the current scope,
 *   `@root.x` reads from the root;
 * - block params (`as |item i|`) are visible at depth 0 to unscoped paths,
 *   innermost block first;
 * - `@index`, `@key`, `@first`, `@last` exist inside `#each`;
 * - an array accepts `length` and numeric indices; a record (`{*}`) accepts any key;
 *   scalars have no fields (strict mode's `in` check throws on a string).
 *
 * A read whose scope itself failed to resolve is accepted (the scope's own read is
 * reported instead), so one typo yields one diagnostic.
 */
import type { HintRef, MessageRef } from '../diagnostics/catalog.js';
import { didYouMeanOf, suggestions } from '../diagnostics/did-you-mean.js';
import type { ScopeFrame, TemplateRef } from '../parse/template.js';
import { fieldNames, type Shape } from '../resolve/context.js';

export type RefVerdict =
  | { kind: 'ok' }
  /** Reads a per-request field (config.dynamicContext.fields). */
  | { kind: 'dynamic'; name: string }
  | ({ kind: 'unknown' } & UnknownRead);

/** A template-unknown-variable message (and hint) for a read the context lacks. */
export type UnknownRead = MessageRef<'template-unknown-variable'> & { hint?: HintRef<'template-unknown-variable'> };

const ANY: Shape = { kind: 'any' };
const NUMBER: Shape = { kind: 'number' };
const STRING: Shape = { kind: 'string' };
const EACH_DATA = ['first', 'index', 'key', 'last'];
/** Values of differing shapes (an object's fields iterated by `#each`): no field is known. */
const MIXED: Shape = { kind: 'mixed' };

interface Frame {
  shape: Shape;
  /** Undefined for the root. */
  frame?: ScopeFrame;
  /** Shapes of the block params, in declaration order. */
  params: Shape[];
}

type Walk = { ok: true; shape: Shape } | { ok: false; at: number; parent: Shape };

/** Handlebars' own test for an explicitly scoped path (`this.x`, `./x`, `this`). */
function isScoped(ref: TemplateRef): boolean {
  return ref.scoped || /^\.|this\b/.test(ref.original.replace(/^(\.\.\/)+/, ''));
}

function walk(shape: Shape, parts: readonly string[]): Walk {
  let cur = shape;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    switch (cur.kind) {
      case 'any':
        return { ok: true, shape: ANY };
      case 'record':
        cur = cur.value;
        break;
      case 'object':
        if (!Object.prototype.hasOwnProperty.call(cur.fields, p)) return { ok: false, at: i, parent: cur };
        cur = cur.fields[p]!;
        break;
      case 'array':
        if (p === 'length') cur = NUMBER;
        else if (/^\d+$/.test(p)) cur = cur.element;
        else return { ok: false, at: i, parent: cur };
        break;
      default:
        return { ok: false, at: i, parent: cur };
    }
  }
  return { ok: true, shape: cur };
}

/** What a scope's body sees: `#each` → one element, `#with` → the value. */
function enter(frame: ScopeFrame, value: Shape): Frame {
  if (frame.kind === 'with') return { shape: value, frame, params: [value] };
  const element =
    value.kind === 'array' ? value.element : value.kind === 'record' ? value.value : value.kind === 'object' ? commonShape(Object.values(value.fields)) : ANY;
  const key = value.kind === 'array' ? NUMBER : value.kind === 'any' ? ANY : STRING;
  return { shape: element, frame, params: [element, key] };
}

/** `#each` over an object visits values of every field: only a shape they all share is known. */
function commonShape(shapes: readonly Shape[]): Shape {
  const first = shapes[0];
  if (first === undefined) return MIXED;
  const key = JSON.stringify(first);
  return shapes.every((s) => JSON.stringify(s) === key) ? first : MIXED;
}

/** Resolves a path to a shape, or undefined when it does not resolve (no diagnostics). */
function shapeOf(ref: TemplateRef, frames: readonly Frame[], root: Shape): Shape | undefined {
  const r = locateRef(ref, frames, root);
  if (r.base === undefined) return undefined;
  const w = walk(r.base, r.parts);
  return w.ok ? w.shape : undefined;
}

/** The shape a ref starts from and the parts still to walk; base undefined = cannot start. */
function locateRef(ref: TemplateRef, frames: readonly Frame[], root: Shape): { base: Shape | undefined; parts: readonly string[]; frameIndex: number } {
  if (ref.data) {
    if (ref.parts[0] === 'root') return { base: root, parts: ref.parts.slice(1), frameIndex: 0 };
    const name = ref.parts[0] ?? '';
    if (!EACH_DATA.includes(name)) return { base: undefined, parts: ref.parts, frameIndex: -1 };
    const top = frames.length - 1 - ref.depth;
    // The innermost `#each` at or above the addressed scope (`#with` keeps the data frame).
    const each = frames
      .slice(1, Math.max(1, top + 1))
      .reverse()
      .find((f) => f.frame?.kind === 'each');
    if (!each) return { base: undefined, parts: ref.parts, frameIndex: -1 };
    const first = name === 'index' ? NUMBER : name === 'key' ? (each.params[1] ?? ANY) : { kind: 'boolean' as const };
    return { base: obj1(name, first), parts: ref.parts, frameIndex: top };
  }
  if (ref.depth === 0 && !isScoped(ref) && ref.parts.length > 0) {
    for (let i = frames.length - 1; i > 0; i--) {
      const f = frames[i]!;
      const at = f.frame?.blockParams.indexOf(ref.parts[0]!) ?? -1;
      if (at >= 0) return { base: f.params[at] ?? ANY, parts: ref.parts.slice(1), frameIndex: i };
    }
  }
  const index = frames.length - 1 - ref.depth;
  if (index < 0) return { base: undefined, parts: ref.parts, frameIndex: index };
  return { base: frames[index]!.shape, parts: ref.parts, frameIndex: index };
}

function obj1(name: string, shape: Shape): Shape {
  return { kind: 'object', fields: { [name]: shape } };
}

/** The frames a ref sees, or undefined when an enclosing scope does not resolve. */
function framesFor(ref: TemplateRef, root: Shape): Frame[] | undefined {
  const frames: Frame[] = [{ shape: root, params: [] }];
  for (const scope of ref.scopes) {
    const value = shapeOf(scope.source, frames, root);
    if (value === undefined) return undefined;
    frames.push(enter(scope, value));
  }
  return frames;
}

function opener(frame: ScopeFrame): string {
  return `{{#${frame.kind} ${frame.source.original}}}`;
}

/** The written path with one segment replaced: keeps `../`, `this.`, `@root.` prefixes. */
function replaceSegment(ref: TemplateRef, at: number, name: string): string {
  const joined = ref.parts.join('.');
  const head = ref.original.endsWith(joined) ? ref.original.slice(0, ref.original.length - joined.length) : '';
  const parts = [...ref.parts];
  parts[at] = name;
  return head + parts.join('.');
}

function describe(shape: Shape): string {
  switch (shape.kind) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'array':
      return 'a list';
    case 'mixed':
      return 'one of several kinds of value';
    default:
      return 'a value';
  }
}

function listFields(shape: Shape): string {
  const names = fieldNames(shape);
  if (names.length === 0) return 'no fields';
  return names.length <= 12 ? names.join(', ') : `${names.slice(0, 12).join(', ')}, …`;
}

/**
 * Classifies one read of block `block`. `dynamicFields`: per-request names; a read
 * of one that the context lacks is `dynamic`, not `unknown`.
 */
export function classifyRef(ref: TemplateRef, root: Shape, dynamicFields: { has(name: string): boolean }, block: string): RefVerdict {
  const frames = framesFor(ref, root);
  if (!frames) return { kind: 'ok' };
  const shown = `{{${ref.original}}}`;
  const loc = locateRef(ref, frames, root);

  if (loc.base === undefined) {
    if (ref.data) {
      const name = ref.parts[0] ?? '';
      if (EACH_DATA.includes(name)) {
        return { kind: 'unknown', message: 'eachDataOutside', data: { block, ref: shown, name } };
      }
      const hint = didYouMeanOf(suggestions(name, ['root', ...EACH_DATA]).map((m) => `@${m}`));
      return { kind: 'unknown', message: 'unknownData', data: { block, ref: shown }, ...(hint ? { hint } : {}) };
    }
    return {
      kind: 'unknown',
      message: 'climbsTooFar',
      data: { block, ref: shown, depth: ref.depth, frames: frames.length - 1 },
      hint: { id: 'useRoot', data: { path: ref.parts.join('.') } },
    };
  }

  const w = walk(loc.base, loc.parts);
  if (w.ok) return useProblem(ref, w.shape, shown, block) ?? { kind: 'ok' };
  const offset = ref.parts.length - loc.parts.length;
  const at = w.at + offset;
  const name = ref.parts[at]!;
  const fromFrame = loc.frameIndex;
  const inScope = !ref.data && offset === 0 && fromFrame > 0;

  // A per-request field read where the context has none (`{{user_id}}`, `{{@root.user_id}}`).
  const startsAtScope = ref.data ? ref.parts[0] === 'root' : offset === 0;
  if (w.at === 0 && startsAtScope && dynamicFields.has(name)) return { kind: 'dynamic', name };

  // First segment missing inside a scope: Handlebars does not fall back to outer scopes.
  if (inScope && at === 0) {
    const frame = frames[fromFrame]!.frame!;
    const outer = findInOuterScope(ref, frames, fromFrame);
    const current = frames[fromFrame]!.shape;
    const what = current.kind === 'object' ? `the current item (${listFields(current)})` : `the current item, ${describe(current)},`;
    const msg = { message: 'notInScope', data: { block, ref: shown, opener: opener(frame), what, name } } as const;
    if (outer !== undefined) {
      const fix = `${'../'.repeat(ref.depth + outer)}${ref.parts.join('.')}`;
      const path = ref.parts.join('.');
      const o = opener(frame);
      return {
        kind: 'unknown',
        ...msg,
        hint: outer === fromFrame ? { id: 'outerScopeOrRoot', data: { opener: o, fix, path } } : { id: 'outerScope', data: { opener: o, fix } },
      };
    }
    const hint = didYouMeanOf(suggestions(name, fieldNames(current)).map((m) => replaceSegment(ref, at, m)));
    return { kind: 'unknown', ...msg, ...(hint ? { hint } : {}) };
  }

  const parentPath = ref.parts.slice(ref.data && ref.parts[0] === 'root' ? 1 : 0, at).join('.');
  if (w.parent.kind === 'object') {
    const parent = w.parent;
    const hint = didYouMeanOf(suggestions(name, fieldNames(parent)).map((m) => replaceSegment(ref, at, m)));
    const withHint = hint ? { hint } : {};
    if (parentPath === '' && fromFrame === 0) {
      return { kind: 'unknown', message: 'notInContext', data: { block, ref: shown, fields: listFields(parent) }, ...withHint };
    }
    const owner = parentPath === '' ? 'the current item' : `"${parentPath}"`;
    return { kind: 'unknown', message: 'noField', data: { block, ref: shown, owner, name, fields: listFields(parent) }, ...withHint };
  }
  if (w.parent.kind === 'array') {
    return {
      kind: 'unknown',
      message: 'listHasNoField',
      data: { block, ref: shown, parent: parentPath, name },
      hint: { id: 'loop', data: { parent: parentPath, name } },
    };
  }
  return { kind: 'unknown', message: 'scalarHasNoField', data: { block, ref: shown, parent: parentPath, kind: describe(w.parent), name } };
}

/**
 * A read that resolves but would render nonsense or nothing: printing an object
 * or a list, or `#each` over a scalar (the render fails on these too; this finds
 * them in branches no agent takes).
 */
function useProblem(ref: TemplateRef, shape: Shape, shown: string, block: string): RefVerdict | undefined {
  if (ref.use === 'output' && (shape.kind === 'object' || shape.kind === 'record')) {
    const field = fieldNames(shape)[0];
    const path = ref.original === 'this' || ref.original === '.' ? 'this' : ref.original;
    return {
      kind: 'unknown',
      message: 'printsObject',
      data: { block, ref: shown },
      hint: field !== undefined ? { id: 'renderField', data: { path, field } } : { id: 'iterateObject', data: { path } },
    };
  }
  if (ref.use === 'output' && shape.kind === 'array') {
    return { kind: 'unknown', message: 'printsList', data: { block, ref: shown }, hint: { id: 'iterateList', data: { path: ref.original } } };
  }
  if (ref.use === 'each' && (shape.kind === 'string' || shape.kind === 'number' || shape.kind === 'boolean')) {
    return {
      kind: 'unknown',
      message: 'eachScalar',
      data: { block, path: ref.original, kind: describe(shape) },
      hint: { id: 'printValue', data: { path: ref.original } },
    };
  }
  return undefined;
}

/** How many `../` make the ref resolve (the nearest outer scope), or undefined. */
function findInOuterScope(ref: TemplateRef, frames: readonly Frame[], from: number): number | undefined {
  for (let up = 1; up <= from; up++) {
    if (walk(frames[from - up]!.shape, ref.parts).ok) return up;
  }
  return undefined;
}
