/**
 * Strict-mode tolerance: OpenAI strict tools (bundle `tools.openai`) make every
 * optional property required-but-nullable, so a model sends `null` for "not
 * given". Before validating against the neutral schema (the contract), such a
 * `null` is removed.
 *
 * Invariants: only a `null` whose property is optional in the neutral schema AND
 * whose neutral schema does not itself accept null is removed; the input is never
 * mutated; objects nested under `properties` and `items` are treated the same way.
 */
type Schema = Record<string, unknown>;

export function dropNullOptionals(schema: unknown, value: unknown): unknown {
  if (!isRecord(schema)) return value;
  if (Array.isArray(value)) {
    const items = schema.items;
    return isRecord(items) ? value.map((v) => dropNullOptionals(items, v)) : value;
  }
  if (!isRecord(value)) return value;
  const props = isRecord(schema.properties) ? schema.properties : undefined;
  if (props === undefined) return value;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const prop = Object.prototype.hasOwnProperty.call(props, key) ? props[key] : undefined;
    if (v === null && !required.has(key) && prop !== undefined && !acceptsNull(prop)) continue;
    // defineProperty: an argument named "__proto__" stays an argument (and is then judged by the schema).
    Object.defineProperty(out, key, { value: prop === undefined ? v : dropNullOptionals(prop, v), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function acceptsNull(schema: unknown): boolean {
  if (!isRecord(schema)) return schema === true;
  const t = schema.type;
  if (t === 'null' || (Array.isArray(t) && t.includes('null'))) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  if (schema.const === null) return true;
  for (const key of ['anyOf', 'oneOf']) {
    const list = schema[key];
    if (Array.isArray(list) && list.some(acceptsNull)) return true;
  }
  // No type constraint at all ({} or description-only) accepts null.
  return (
    t === undefined &&
    schema.enum === undefined &&
    schema.const === undefined &&
    schema.anyOf === undefined &&
    schema.oneOf === undefined &&
    schema.$ref === undefined
  );
}

function isRecord(v: unknown): v is Schema {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
