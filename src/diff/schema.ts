/**
 * Compares two tool parameter schemas (JSON Schema) and classifies each difference
 * (levels in src/diff/changes.ts). Walks `properties` (nested objects) and `items`
 * (arrays, shown as `name[]`); every other keyword is compared as a whole, so no
 * difference goes unreported.
 *
 * Paths: `<tool>.parameters.<prop>[.<prop>…][.<keyword>]`, e.g.
 * `ask_rewards.parameters.query.type`, `search.parameters.filters.tags[].enum`.
 */
import { makeChange } from './changes.js';
import { canonicalJson, deepEqual, isObject, asJson } from './json.js';
import type { Change, ChangeType } from './types.js';

export interface SchemaContext {
  agent: string;
  tool: string;
  /** Top-level properties not to compare (reported by another change). */
  ignoreRootProperties?: ReadonlySet<string>;
}

/** Keywords handled explicitly below; every other keyword is compared whole. */
const HANDLED = new Set([
  'type',
  'description',
  'enum',
  'default',
  'properties',
  'required',
  'items',
  'additionalProperties',
  ...['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'],
  ...['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'],
  'pattern',
  'format',
  'multipleOf',
  'uniqueItems',
]);
/** A larger value admits fewer inputs. */
const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
/** A smaller value admits fewer inputs. */
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
/** Neither wider nor narrower when changed; adding one narrows, removing one widens. */
const OPAQUE_CONSTRAINTS = ['pattern', 'format', 'multipleOf'];

export function compareParameters(ctx: SchemaContext, before: unknown, after: unknown): Change[] {
  const out: Change[] = [];
  compareNode(ctx, before, after, [], out);
  return out;
}

function compareNode(ctx: SchemaContext, before: unknown, after: unknown, segs: string[], out: Change[]): void {
  const emit: Emit = (type, keyword, data, b, a) =>
    out.push(makeChange(type, ctx.agent, pathOf(ctx.tool, segs, keyword), { tool: ctx.tool, param: paramLabel(segs), ...data }, asJson(b), asJson(a)));

  if (!isObject(before) || !isObject(after)) {
    // Boolean schemas (true/false) or malformed data: compare whole.
    if (!deepEqual(before, after)) emit('schema-changed', undefined, { keyword: '(schema)' }, before, after);
    return;
  }

  const typeBefore = normalizeType(before.type);
  const typeAfter = normalizeType(after.type);
  if (typeBefore !== typeAfter) emit('type-changed', 'type', {}, before.type, after.type);

  if (before.description !== after.description) {
    emit('parameter-description-changed', 'description', {}, before.description, after.description);
  }

  compareEnum(before.enum, after.enum, emit);

  if (!deepEqual(before.default, after.default)) emit('default-changed', 'default', {}, before.default, after.default);

  for (const kw of LOWER_BOUNDS) compareBound(kw, before[kw], after[kw], 'lower', emit);
  for (const kw of UPPER_BOUNDS) compareBound(kw, before[kw], after[kw], 'upper', emit);
  for (const kw of OPAQUE_CONSTRAINTS) {
    const b = before[kw];
    const a = after[kw];
    if (deepEqual(b, a)) continue;
    const type = b === undefined ? 'constraint-tightened' : a === undefined ? 'constraint-loosened' : 'constraint-changed';
    emit(type, kw, { keyword: kw, before: show(b), after: show(a) }, b, a);
  }
  compareFlag('uniqueItems', before.uniqueItems === true, after.uniqueItems === true, emit);
  compareAdditional(before.additionalProperties, after.additionalProperties, emit);

  compareProperties(ctx, before, after, segs, out);

  if (before.items !== undefined || after.items !== undefined) {
    if (isObject(before.items) && isObject(after.items)) compareNode(ctx, before.items, after.items, itemsSegs(segs), out);
    else if (!deepEqual(before.items, after.items)) emit('schema-changed', 'items', { keyword: 'items' }, before.items, after.items);
  }

  const others = new Set([...Object.keys(before), ...Object.keys(after)].filter((k) => !HANDLED.has(k)));
  for (const kw of [...others].sort()) {
    if (!deepEqual(before[kw], after[kw])) emit('schema-changed', kw, { keyword: kw }, before[kw], after[kw]);
  }
}

type Emit = (type: ChangeType, keyword: string | undefined, data: Record<string, string | number>, b?: unknown, a?: unknown) => void;

function compareProperties(ctx: SchemaContext, before: Record<string, unknown>, after: Record<string, unknown>, segs: string[], out: Change[]): void {
  const propsBefore = isObject(before.properties) ? before.properties : {};
  const propsAfter = isObject(after.properties) ? after.properties : {};
  const reqBefore = requiredSet(before.required);
  const reqAfter = requiredSet(after.required);
  const names = [...new Set([...Object.keys(propsBefore), ...Object.keys(propsAfter)])].sort();
  for (const name of names) {
    if (segs.length === 0 && ctx.ignoreRootProperties?.has(name)) continue;
    const child = [...segs, name];
    const emit = (type: ChangeType, b?: unknown, a?: unknown) =>
      out.push(makeChange(type, ctx.agent, pathOf(ctx.tool, child), { tool: ctx.tool, param: paramLabel(child) }, asJson(b), asJson(a)));
    const inBefore = Object.hasOwn(propsBefore, name);
    const inAfter = Object.hasOwn(propsAfter, name);
    if (inBefore && !inAfter) {
      emit('parameter-removed', propsBefore[name]);
      continue;
    }
    if (!inBefore && inAfter) {
      emit(reqAfter.has(name) ? 'parameter-added-required' : 'parameter-added-optional', undefined, propsAfter[name]);
      continue;
    }
    if (!reqBefore.has(name) && reqAfter.has(name)) emit('parameter-made-required', false, true);
    if (reqBefore.has(name) && !reqAfter.has(name)) emit('parameter-made-optional', true, false);
    compareNode(ctx, propsBefore[name], propsAfter[name], child, out);
  }
}

function compareEnum(before: unknown, after: unknown, emit: Emit): void {
  if (deepEqual(before, after)) return;
  if (!Array.isArray(before) || !Array.isArray(after)) {
    // An enum appearing restricts values; one disappearing admits any value.
    if (before === undefined) emit('constraint-tightened', 'enum', { keyword: 'enum', before: show(before), after: show(after) }, before, after);
    else if (after === undefined) emit('constraint-loosened', 'enum', { keyword: 'enum', before: show(before), after: show(after) }, before, after);
    else emit('schema-changed', 'enum', { keyword: 'enum' }, before, after);
    return;
  }
  const keysBefore = new Set(before.map(canonicalJson));
  const keysAfter = new Set(after.map(canonicalJson));
  for (const v of before) {
    if (!keysAfter.has(canonicalJson(v))) emit('enum-value-removed', 'enum', { value: canonicalJson(v) }, v, undefined);
  }
  for (const v of after) {
    if (!keysBefore.has(canonicalJson(v))) emit('enum-value-added', 'enum', { value: canonicalJson(v) }, undefined, v);
  }
}

function compareBound(kw: string, before: unknown, after: unknown, kind: 'lower' | 'upper', emit: Emit): void {
  if (deepEqual(before, after)) return;
  let type: ChangeType;
  if (before === undefined) type = 'constraint-tightened';
  else if (after === undefined) type = 'constraint-loosened';
  else if (typeof before !== 'number' || typeof after !== 'number') type = 'constraint-changed';
  else type = (kind === 'lower' ? after > before : after < before) ? 'constraint-tightened' : 'constraint-loosened';
  emit(type, kw, { keyword: kw, before: show(before), after: show(after) }, before, after);
}

function compareFlag(kw: string, before: boolean, after: boolean, emit: Emit): void {
  if (before === after) return;
  emit(after ? 'constraint-tightened' : 'constraint-loosened', kw, { keyword: kw, before: String(before), after: String(after) }, before, after);
}

/** additionalProperties: absent ≡ true; false admits fewer objects; schemas are compared whole. */
function compareAdditional(before: unknown, after: unknown, emit: Emit): void {
  if (deepEqual(before, after)) return;
  const b = before === undefined ? true : before;
  const a = after === undefined ? true : after;
  if (typeof b === 'boolean' && typeof a === 'boolean') {
    if (b !== a)
      emit(
        a ? 'constraint-loosened' : 'constraint-tightened',
        'additionalProperties',
        { keyword: 'additionalProperties', before: String(b), after: String(a) },
        before,
        after,
      );
    return;
  }
  emit('schema-changed', 'additionalProperties', { keyword: 'additionalProperties' }, before, after);
}

/** Type as a comparable string: a list of types is a set. */
function normalizeType(type: unknown): string {
  if (type === undefined) return '';
  if (Array.isArray(type)) return canonicalJson([...new Set(type.map(String))].sort());
  return canonicalJson([String(type)]);
}

function requiredSet(required: unknown): Set<string> {
  return new Set(Array.isArray(required) ? required.filter((r): r is string => typeof r === 'string') : []);
}

function itemsSegs(segs: string[]): string[] {
  if (segs.length === 0) return ['[]'];
  return [...segs.slice(0, -1), `${segs[segs.length - 1]}[]`];
}

function paramLabel(segs: string[]): string {
  return segs.length === 0 ? '(parameters)' : segs.join('.');
}

function pathOf(tool: string, segs: string[], keyword?: string): string {
  return [tool, 'parameters', ...segs, ...(keyword === undefined ? [] : [keyword])].join('.');
}

function show(value: unknown): string {
  return value === undefined ? '(none)' : canonicalJson(value);
}
