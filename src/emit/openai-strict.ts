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
 */
import type { JsonSchema } from '../parse/types.js';

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

const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** Keywords that describe a value without constraining it: they stay on the outside of a nullable wrapper. */
const ANNOTATIONS = ['description', 'title'];

const NULL_SCHEMA: JsonSchema = { type: 'null' };

/** Tool parameters in strict form. The root is always a closed object. */
export function toOpenAIStrictParameters(parameters: JsonSchema): JsonSchema {
  const root = strictify(parameters, 0);
  if (root.type === undefined) root.type = 'object';
  if (root.type === 'object' && root.properties === undefined) {
    root.properties = {};
    root.required = [];
    root.additionalProperties = false;
  }
  return root;
}

/** Most nesting followed; deeper schemas are emitted as given (a schema that deep is not a real tool contract). */
const MAX_DEPTH = 64;

function strictify(input: unknown, depth: number): JsonSchema {
  // Boolean schemas have no strict-mode form; `true` and `false` both become `{}`.
  if (!isRecord(input)) return {};
  if (depth > MAX_DEPTH) return { ...input };
  const schema = mergeAllOf(input);
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (KEPT.has(key)) out[key] = cloneJson(value);
  }
  if (typeof schema.format === 'string' && STRICT_FORMATS.has(schema.format)) out.format = schema.format;

  const branches = [
    ...(Array.isArray(schema.anyOf) ? schema.anyOf : []),
    ...(Array.isArray(schema.oneOf) ? schema.oneOf : []),
  ];
  if (branches.length > 0) out.anyOf = branches.map((b) => strictify(b, depth + 1));

  for (const defsKey of ['$defs', 'definitions']) {
    const defs = schema[defsKey];
    if (isRecord(defs)) out[defsKey] = mapValues(defs, (d) => strictify(d, depth + 1));
  }

  const items = arrayItems(schema);
  if (items !== undefined) out.items = strictify(items, depth + 1);

  if (isObjectSchema(schema)) {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
    // fromEntries: a property named "__proto__" stays an own property.
    const strictProps: Record<string, JsonSchema> = Object.fromEntries(
      Object.entries(properties).map(([name, prop]) => {
        const strictProp = strictify(prop, depth + 1);
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
    out.enum = [...out.enum, null];
  }
  if (typeof out.type === 'string') {
    if (out.type !== 'null') out.type = [out.type, 'null'];
    return out;
  }
  if (Array.isArray(out.type)) {
    if (!out.type.includes('null')) out.type = [...out.type, 'null'];
    return out;
  }
  if (Array.isArray(out.enum)) return out;
  if (Array.isArray(out.anyOf)) {
    out.anyOf = [...out.anyOf, NULL_SCHEMA];
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

/** The one schema every array item must match, from `items` or the tuple forms. */
function arrayItems(schema: JsonSchema): unknown {
  const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
  if (tuple !== undefined) {
    const rest = isRecord(schema.items) ? [schema.items] : [];
    const all = [...tuple, ...rest];
    return all.length === 1 ? all[0] : { anyOf: all };
  }
  return isRecord(schema.items) ? schema.items : undefined;
}

/** allOf folded into its parent: properties and required unioned, other keywords fill gaps. */
function mergeAllOf(schema: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(schema.allOf)) return schema;
  const merged: Record<string, unknown> = { ...schema };
  delete merged.allOf;
  for (const raw of schema.allOf) {
    if (!isRecord(raw)) continue;
    const branch = mergeAllOf(raw);
    for (const [key, value] of Object.entries(branch)) {
      if (key === 'properties' && isRecord(value)) {
        // The parent's (and earlier branches') definition of a property wins; order is kept.
        const current = isRecord(merged.properties) ? merged.properties : {};
        merged.properties = { ...current, ...Object.fromEntries(Object.entries(value).filter(([k]) => !(k in current))) };
      } else if (key === 'required' && Array.isArray(value)) {
        const current = Array.isArray(merged.required) ? merged.required : [];
        merged.required = [...new Set([...current, ...value])];
      } else if (!(key in merged)) {
        merged[key] = value;
      }
    }
  }
  return merged;
}

function mapValues(record: Record<string, unknown>, fn: (v: unknown) => JsonSchema): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fn(v)]));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
