/**
 * JSON Schema → the subset OpenAI accepts for function tools in strict mode
 * (Structured Outputs). Pure; never mutates its input.
 *
 * Strict mode requires, for every object: `additionalProperties: false` and every
 * property listed in `required`. An optional property is therefore emitted as a
 * required, nullable one: the model sends `null` for "absent", and the runtime
 * treats `null` for an originally optional property as "not given" before it
 * validates the arguments against the neutral schema (which stays the contract).
 *
 * Keyword policy (an allowlist: anything not listed is dropped, because strict
 * mode rejects the whole request on a keyword it does not support):
 * - kept: type, properties, required, additionalProperties (forced false), items,
 *   enum, const, anyOf, description, title, $ref, $defs, definitions,
 *   pattern, format (only the formats strict mode documents: date-time, time,
 *   date, duration, email, hostname, ipv4, ipv6, uuid), multipleOf, minimum,
 *   maximum, exclusiveMinimum, exclusiveMaximum, minItems, maxItems;
 * - converted: oneOf → anyOf (exclusivity is lost; the neutral schema still
 *   enforces it at run time); allOf → merged into the parent (properties and
 *   required are unioned, other keywords fill in where the parent has none);
 *   tuple `items` / `prefixItems` → `items: { anyOf: [...] }`;
 * - dropped: default, examples, minLength, maxLength, uniqueItems,
 *   minProperties, maxProperties, patternProperties, propertyNames, not,
 *   if/then/else, dependentRequired, dependentSchemas, contains, min/maxContains,
 *   unevaluatedItems, unevaluatedProperties, $schema, $id, $anchor, $comment,
 *   deprecated, readOnly, writeOnly, contentEncoding, contentMediaType, ….
 *   Dropping only loosens what the model is constrained to; the runtime still
 *   validates every call against the neutral schema.
 * - An open object (`additionalProperties: true` or a schema, or no properties at
 *   all) cannot be expressed in strict mode: it is emitted closed.
 *
 * ONE source of truth for both the emitter (which uses `schema`) and the
 * `provider-schema` check (which reports `notes`): `toOpenAIStrict` records,
 * while it builds the shape, every place where the shape only approximates the
 * contract. Annotations (default, examples, $comment, …) are dropped silently:
 * dropping them constrains nothing. Lives outside emit and check so both import it.
 */
import type { JsonSchema } from '../bundle/types.js';

export type SchemaPath = readonly (string | number)[];

/** One place where a provider shape can only approximate the contract. */
export type StrictNote =
  /** An object that allows extra fields; emitted closed. `path` is the object schema. */
  | { kind: 'open-object'; path: SchemaPath; at: 'additionalProperties' | 'type' | 'schema' }
  /** A constraint keyword (or an unknown keyword) the strict shape leaves out. `path` is the keyword. */
  | { kind: 'dropped-keyword'; path: SchemaPath; keyword: string; known: boolean }
  /** A `format` strict mode does not support. `path` is the `format` keyword. */
  | { kind: 'dropped-format'; path: SchemaPath; format: string }
  /** `oneOf` emitted as `anyOf`. `path` is the keyword. */
  | { kind: 'one-of'; path: SchemaPath }
  /** Tuple `items` / `prefixItems` emitted as one `items: { anyOf }`. `path` is the keyword. */
  | { kind: 'tuple'; path: SchemaPath }
  /** A boolean schema (`true` / `false`) emitted as `{}`. `path` is the boolean. */
  | { kind: 'boolean-schema'; path: SchemaPath; value: boolean }
  /** Nesting deeper than MAX_DEPTH: emitted as given, which strict mode may reject. */
  | { kind: 'too-deep'; path: SchemaPath }
  /**
   * anyOf / oneOf / allOf at the root of tool parameters: OpenAI strict mode wants
   * a plain object root, Anthropic rejects them at the top level of input_schema.
   * allOf is merged into the root; anyOf / oneOf are dropped. `path` is the keyword.
   */
  | { kind: 'root-combinator'; path: SchemaPath; keyword: 'anyOf' | 'oneOf' | 'allOf'; provider: 'openai' | 'anthropic' };

export interface StrictResult {
  schema: JsonSchema;
  /** In document order of the walk (deterministic for a given input). */
  notes: StrictNote[];
}

const KEPT = new Set([
  'type',
  'description',
  'title',
  'enum',
  'const',
  '$ref',
  'pattern',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
]);

/** Keywords handled structurally by strictify (not copied as such, not "dropped"). */
const STRUCTURAL = new Set([
  'properties',
  'required',
  'additionalProperties',
  'items',
  'prefixItems',
  'anyOf',
  'oneOf',
  'allOf',
  '$defs',
  'definitions',
  'format',
]);

/** Annotations: dropping them constrains nothing, so no note. */
const ANNOTATION_KEYWORDS = new Set([
  'default',
  'examples',
  '$schema',
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$comment',
  '$vocabulary',
  'deprecated',
  'readOnly',
  'writeOnly',
  'contentEncoding',
  'contentMediaType',
]);

/** Constraint keywords of JSON Schema 2020-12 that strict mode does not carry. */
export const DROPPED_CONSTRAINTS = new Set([
  'minLength',
  'maxLength',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'patternProperties',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'contains',
  'minContains',
  'maxContains',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
  '$dynamicRef',
  '$recursiveRef',
  '$recursiveAnchor',
]);

/** Every keyword JSON Schema 2020-12 defines (for did-you-mean on unknown ones). */
export const JSON_SCHEMA_KEYWORDS: readonly string[] = [...new Set([...KEPT, ...STRUCTURAL, ...ANNOTATION_KEYWORDS, ...DROPPED_CONSTRAINTS])].sort();

export const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** Keywords that describe a value without constraining it: they stay on the outside of a nullable wrapper. */
const ANNOTATIONS = ['description', 'title'];

const NULL_SCHEMA: JsonSchema = { type: 'null' };

/** Tool parameters in strict form. The root is always a closed object. */
export function toOpenAIStrictParameters(parameters: JsonSchema): JsonSchema {
  return toOpenAIStrict(parameters).schema;
}

/** The strict shape and every approximation it makes (paths relative to `parameters`). */
export function toOpenAIStrict(parameters: JsonSchema): StrictResult {
  let notes: StrictNote[] = [];
  const root = strictify(parameters, 0, [], notes);
  // The root must be a plain object: a root anyOf (from anyOf or oneOf) is dropped, with its branches' notes.
  const rootBranches = ROOT_ALTERNATIVES.filter((k) => Array.isArray(parameters[k]));
  if (rootBranches.length > 0) {
    delete root.anyOf;
    notes = notes.filter((n) => !rootBranches.includes(String(n.path[0]) as 'anyOf' | 'oneOf'));
    for (const keyword of rootBranches) notes.push({ kind: 'root-combinator', path: [keyword], keyword, provider: 'openai' });
  }
  if (root.type === undefined) root.type = 'object';
  if (root.type === 'object' && root.properties === undefined) {
    root.properties = {};
    root.required = [];
    root.additionalProperties = false;
  }
  return { schema: root, notes };
}

const ROOT_ALTERNATIVES = ['anyOf', 'oneOf'] as const;

/**
 * Anthropic's `input_schema`: the contract as written, except at the top level,
 * where Anthropic rejects oneOf, allOf and anyOf: allOf is merged into the root,
 * anyOf / oneOf are dropped (the runtime still validates calls against the
 * contract); a missing root `type` is filled with "object".
 */
export function toAnthropic(parameters: JsonSchema): StrictResult {
  const notes: StrictNote[] = [];
  let input_schema: JsonSchema = { ...parameters };
  if (Array.isArray(parameters.allOf)) {
    input_schema = mergeAllOf(input_schema, []).schema;
    notes.push({ kind: 'root-combinator', path: ['allOf'], keyword: 'allOf', provider: 'anthropic' });
  }
  for (const keyword of ROOT_ALTERNATIVES) {
    if (!Array.isArray(parameters[keyword])) continue;
    delete input_schema[keyword];
    notes.push({ kind: 'root-combinator', path: [keyword], keyword, provider: 'anthropic' });
  }
  if (input_schema.type === undefined) input_schema.type = 'object';
  return { schema: input_schema, notes };
}

export function toAnthropicInputSchema(parameters: JsonSchema): JsonSchema {
  return toAnthropic(parameters).schema;
}

/** Most nesting followed; deeper schemas are emitted as given (a schema that deep is not a real tool contract). */
export const MAX_DEPTH = 64;

/** Where each key of a schema folded from allOf came from (path of the schema that wrote it). */
interface Merged {
  schema: Record<string, unknown>;
  /** Keyword → path of the schema object it came from. */
  origin: Map<string, SchemaPath>;
  /** Property name → path of the `properties` object it came from. */
  propOrigin: Map<string, SchemaPath>;
}

function strictify(input: unknown, depth: number, path: SchemaPath, notes: StrictNote[]): JsonSchema {
  // Boolean schemas have no strict-mode form; `true` and `false` both become `{}`.
  if (!isRecord(input)) {
    if (typeof input === 'boolean') notes.push({ kind: 'boolean-schema', path, value: input });
    return {};
  }
  if (depth > MAX_DEPTH) {
    notes.push({ kind: 'too-deep', path });
    return { ...input };
  }
  const { schema, origin, propOrigin } = mergeAllOf(input, path);
  const at = (key: string): SchemaPath => [...(origin.get(key) ?? path), key];
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (KEPT.has(key)) out[key] = cloneJson(value);
    else if (!STRUCTURAL.has(key) && !ANNOTATION_KEYWORDS.has(key)) {
      notes.push({ kind: 'dropped-keyword', path: at(key), keyword: key, known: DROPPED_CONSTRAINTS.has(key) });
    }
  }
  if (typeof schema.format === 'string') {
    if (STRICT_FORMATS.has(schema.format)) out.format = schema.format;
    else notes.push({ kind: 'dropped-format', path: at('format'), format: schema.format });
  }

  const branches: { b: unknown; p: SchemaPath }[] = [];
  if (Array.isArray(schema.anyOf)) schema.anyOf.forEach((b, i) => branches.push({ b, p: [...at('anyOf'), i] }));
  if (Array.isArray(schema.oneOf)) {
    notes.push({ kind: 'one-of', path: at('oneOf') });
    schema.oneOf.forEach((b, i) => branches.push({ b, p: [...at('oneOf'), i] }));
  }
  if (branches.length > 0) out.anyOf = branches.map(({ b, p }) => strictify(b, depth + 1, p, notes));

  for (const defsKey of ['$defs', 'definitions']) {
    const defs = schema[defsKey];
    if (isRecord(defs)) out[defsKey] = mapValues(defs, (k, d) => strictify(d, depth + 1, [...at(defsKey), k], notes));
  }

  const items = arrayItems(schema, at, notes);
  if (items !== undefined)
    out.items =
      items.anyOf !== undefined
        ? { anyOf: items.anyOf.map(({ b, p }) => strictify(b, depth + 1, p, notes)) }
        : strictify(items.one!.b, depth + 1, items.one!.p, notes);

  if (isObjectSchema(schema)) {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
    const ap = schema.additionalProperties;
    if (ap !== false) {
      const where = ap !== undefined ? 'additionalProperties' : schema.type !== undefined ? 'type' : 'schema';
      const notePath = where === 'schema' ? path : at(where);
      notes.push({ kind: 'open-object', path: notePath, at: where });
    }
    // fromEntries: a property named "__proto__" stays an own property.
    const strictProps: Record<string, JsonSchema> = Object.fromEntries(
      Object.entries(properties).map(([name, prop]) => {
        const strictProp = strictify(prop, depth + 1, [...(propOrigin.get(name) ?? at('properties')), name], notes);
        return [name, required.has(name) ? strictProp : nullable(strictProp)];
      }),
    );
    out.properties = strictProps;
    out.required = Object.keys(strictProps);
    out.additionalProperties = false;
  }
  return out;
}

/** The same schema, also accepting `null`. */
export function nullable(schema: JsonSchema): JsonSchema {
  if (acceptsNull(schema)) return schema;
  const out: JsonSchema = { ...schema };
  if ('const' in out) {
    out.enum = [out.const, null];
    delete out.const;
  } else if (Array.isArray(out.enum) && !out.enum.includes(null)) {
    out.enum = [...(out.enum as unknown[]), null];
  }
  if (typeof out.type === 'string') {
    if (out.type !== 'null') out.type = [out.type, 'null'];
    return out;
  }
  if (Array.isArray(out.type)) {
    if (!out.type.includes('null')) out.type = [...(out.type as unknown[]), 'null'];
    return out;
  }
  if (Array.isArray(out.enum)) return out;
  if (Array.isArray(out.anyOf)) {
    out.anyOf = [...(out.anyOf as unknown[]), NULL_SCHEMA];
    return out;
  }
  // No simple type to widen ($ref, or an unconstrained schema): wrap it.
  const inner: JsonSchema = { ...out };
  const wrapper: JsonSchema = {};
  for (const key of ANNOTATIONS) {
    if (key in inner) {
      wrapper[key] = inner[key];
      delete inner[key];
    }
  }
  wrapper.anyOf = [inner, NULL_SCHEMA];
  return wrapper;
}

function acceptsNull(schema: JsonSchema): boolean {
  const t = schema.type;
  if (t === 'null' || (Array.isArray(t) && t.includes('null'))) {
    return !Array.isArray(schema.enum) || schema.enum.includes(null);
  }
  if (t !== undefined) return false;
  if ('const' in schema) return schema.const === null;
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  if (Array.isArray(schema.anyOf)) return schema.anyOf.some((b) => isRecord(b) && acceptsNull(b));
  return false;
}

function isObjectSchema(schema: JsonSchema): boolean {
  const t = schema.type;
  if (t === 'object' || (Array.isArray(t) && t.includes('object'))) return true;
  return t === undefined && (isRecord(schema.properties) || Array.isArray(schema.required));
}

/** The one schema every array item must match, from `items` or the tuple forms (a tuple is noted). */
function arrayItems(
  schema: JsonSchema,
  at: (key: string) => SchemaPath,
  notes: StrictNote[],
): { one?: { b: unknown; p: SchemaPath }; anyOf?: { b: unknown; p: SchemaPath }[] } | undefined {
  const tupleKey = Array.isArray(schema.prefixItems) ? 'prefixItems' : Array.isArray(schema.items) ? 'items' : undefined;
  if (tupleKey !== undefined) {
    notes.push({ kind: 'tuple', path: at(tupleKey) });
    const all = (schema[tupleKey] as unknown[]).map((b, i) => ({ b, p: [...at(tupleKey), i] as SchemaPath }));
    if (tupleKey === 'prefixItems' && isRecord(schema.items)) all.push({ b: schema.items, p: at('items') });
    return all.length === 1 ? { one: all[0]! } : { anyOf: all };
  }
  return isRecord(schema.items) ? { one: { b: schema.items, p: at('items') } } : undefined;
}

/** allOf folded into its parent: properties and required unioned, other keywords fill gaps. */
function mergeAllOf(schema: Record<string, unknown>, path: SchemaPath): Merged {
  const origin = new Map<string, SchemaPath>();
  const propOrigin = new Map<string, SchemaPath>();
  if (isRecord(schema.properties)) for (const k of Object.keys(schema.properties)) propOrigin.set(k, [...path, 'properties']);
  if (!Array.isArray(schema.allOf)) return { schema, origin, propOrigin };
  const merged: Record<string, unknown> = { ...schema };
  delete merged.allOf;
  schema.allOf.forEach((raw, i) => {
    if (!isRecord(raw)) return;
    const branch = mergeAllOf(raw, [...path, 'allOf', i]);
    for (const [key, value] of Object.entries(branch.schema)) {
      if (key === 'properties' && isRecord(value)) {
        // The parent's (and earlier branches') definition of a property wins; order is kept.
        const current = isRecord(merged.properties) ? merged.properties : {};
        const added = Object.entries(value).filter(([k]) => !(k in current));
        for (const [k] of added) propOrigin.set(k, branch.propOrigin.get(k) ?? [...path, 'allOf', i, 'properties']);
        merged.properties = { ...current, ...Object.fromEntries(added) };
      } else if (key === 'required' && Array.isArray(value)) {
        const current: unknown[] = Array.isArray(merged.required) ? merged.required : [];
        merged.required = [...new Set([...current, ...(value as unknown[])])];
      } else if (!(key in merged)) {
        merged[key] = value;
        origin.set(key, branch.origin.get(key) ?? [...path, 'allOf', i]);
      }
    }
  });
  return { schema: merged, origin, propOrigin };
}

function mapValues(record: Record<string, unknown>, fn: (k: string, v: unknown) => JsonSchema): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fn(k, v)]));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
