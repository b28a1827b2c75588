/**
 * JSON Schema → TypeScript type text, for the argument interfaces of bundle.ts.
 *
 * Covered: object (properties, required → `?`, additionalProperties → index
 * signature), string / number / integer / boolean / null, type arrays, enum and
 * const (literal types), arrays (items; tuple forms → union of the items), anyOf /
 * oneOf (union), allOf (intersection), local $ref into $defs / definitions
 * (inlined; a recursive reference is `unknown`), descriptions (JSDoc). Anything
 * else — remote $ref, `not`, conditionals, an empty schema — is `unknown`: the
 * type is never narrower than the schema, so a valid argument always type-checks.
 *
 * Output is deterministic for a given schema (property order as in the schema,
 * which the bundle has already sorted).
 */
import type { JsonSchema } from '../parse/types.js';

const MAX_DEPTH = 32;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Members of an object type (one per line, indented by `indent`), for `interface X { … }`. */
export function objectMembers(schema: JsonSchema, indent: string): string {
  return members(schema, indent, 0, { root: schema, refs: [] });
}

/** A type expression for `schema` (may span lines; nested lines indented relative to `indent`). */
export function schemaToType(schema: unknown, indent = ''): string {
  return typeOf(schema, indent, 0, { root: schema, refs: [] });
}

/** The document a schema belongs to (for local $ref) and the refs being expanded (cycle guard). */
interface Ctx {
  root: unknown;
  refs: string[];
}

function resolveRef(ref: string, ctx: Ctx): unknown {
  const m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (!m || !isRecord(ctx.root)) return undefined;
  const defs = ctx.root[m[1]!];
  const name = m[2]!.replace(/~1/g, '/').replace(/~0/g, '~');
  return isRecord(defs) && Object.hasOwn(defs, name) ? defs[name] : undefined;
}

function typeOf(schema: unknown, indent: string, depth: number, ctx: Ctx): string {
  if (schema === false) return 'never';
  if (!isRecord(schema) || depth > MAX_DEPTH) return 'unknown';

  if (typeof schema.$ref === 'string') {
    const target = resolveRef(schema.$ref, ctx);
    if (target === undefined || ctx.refs.includes(schema.$ref)) return 'unknown';
    return typeOf(target, indent, depth + 1, { ...ctx, refs: [...ctx.refs, schema.$ref] });
  }
  const parts: string[] = [];
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.length === 0 ? 'never' : union(schema.enum.map(literal));

  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (alternatives !== undefined) {
    parts.push(alternatives.length === 0 ? 'never' : union(alternatives.map((s) => typeOf(s, indent, depth + 1, ctx))));
  } else if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    parts.push(union(types.map((t) => primitive(String(t), schema, indent, depth, ctx))));
  } else if (isRecord(schema.properties) || schema.additionalProperties !== undefined) {
    parts.push(objectType(schema, indent, depth, ctx));
  } else if (schema.items !== undefined || schema.prefixItems !== undefined) {
    parts.push(arrayType(schema, indent, depth, ctx));
  }

  if (Array.isArray(schema.allOf)) {
    for (const branch of schema.allOf) {
      const t = typeOf(branch, indent, depth + 1, ctx);
      if (t !== 'unknown') parts.push(t);
    }
  }
  if (parts.length === 0) return 'unknown';
  // Intersection operands are parenthesized: `&` binds tighter than `|`.
  return parts.length === 1 ? parts[0]! : parts.map((p) => `(${p})`).join(' & ');
}

function primitive(type: string, schema: Record<string, unknown>, indent: string, depth: number, ctx: Ctx): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return arrayType(schema, indent, depth, ctx);
    case 'object':
      return objectType(schema, indent, depth, ctx);
    default:
      return 'unknown';
  }
}

function arrayType(schema: Record<string, unknown>, indent: string, depth: number, ctx: Ctx): string {
  const tuple: unknown[] | undefined = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
  if (tuple !== undefined) {
    const rest = isRecord(schema.items) ? [schema.items] : [];
    const all = [...tuple, ...rest];
    if (all.length === 0) return 'unknown[]';
    return `Array<${union(all.map((s) => typeOf(s, indent, depth + 1, ctx)))}>`;
  }
  if (schema.items === undefined || schema.items === true) return 'unknown[]';
  return `Array<${typeOf(schema.items, indent, depth + 1, ctx)}>`;
}

function objectType(schema: Record<string, unknown>, indent: string, depth: number, ctx: Ctx): string {
  const body = members(schema, `${indent}  `, depth, ctx);
  return body === '' ? '{}' : `{\n${body}${indent}}`;
}

function members(schema: Record<string, unknown>, indent: string, depth: number, ctx: Ctx): string {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  let out = '';
  const propTypes: string[] = [];
  for (const [name, prop] of Object.entries(properties)) {
    const target = isRecord(prop) && typeof prop.$ref === 'string' ? resolveRef(prop.$ref, ctx) : undefined;
    const description = isRecord(prop) ? (prop.description ?? (isRecord(target) ? target.description : undefined)) : undefined;
    out += jsDoc(description, indent);
    const t = typeOf(prop, indent, depth + 1, ctx);
    propTypes.push(t);
    out += `${indent}${propertyName(name)}${required.has(name) ? '' : '?'}: ${t};\n`;
  }
  const extra = schema.additionalProperties;
  const hasProps = propTypes.length > 0;
  if (extra === true || isRecord(extra)) {
    // Declared properties must fit the index signature; with any declared, the extras are `unknown`.
    const t = hasProps || extra === true ? 'unknown' : typeOf(extra, indent, depth + 1, ctx);
    out += `${indent}[key: string]: ${t};\n`;
  } else if (extra === undefined && !hasProps && schema.type === 'object' && schema.properties === undefined) {
    // A bare `{ type: object }` accepts any object.
    out += `${indent}[key: string]: unknown;\n`;
  }
  return out;
}

/** `/** … *\/` for a description, or '' when there is none. */
export function jsDoc(description: unknown, indent: string): string {
  if (typeof description !== 'string' || description.trim() === '') return '';
  const lines = description.trim().replace(/\*\//g, '*\\/').split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l === '' ? '' : ` ${l}`}`).join('\n')}\n${indent} */\n`;
}

export function propertyName(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** A JSON value as a TypeScript literal type (JSON text is valid type syntax for every JSON value). */
export function literal(value: unknown): string {
  if (value === undefined) return 'undefined';
  return JSON.stringify(value);
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes('unknown')) return 'unknown';
  return unique.join(' | ');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
