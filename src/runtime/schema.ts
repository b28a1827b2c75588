/**
 * Argument validation against a tool's JSON Schema (draft 2020-12).
 *
 * Invariants: each schema object is compiled at most once per validator (lazily,
 * on first use); a schema that does not compile rejects every call (never
 * crashes the turn); error descriptions name schema paths and keywords only,
 * never the offending values (the model wrote them; we do not echo them).
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { safeName } from './failure.js';

type AddFormats = (ajv: Ajv2020) => unknown;
const addFormats: AddFormats = (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

export type SchemaCheck = { ok: true } | { ok: false; problems: string[] };

export interface SchemaValidator {
  check(schema: Record<string, unknown>, value: unknown): SchemaCheck;
}

export function createSchemaValidator(): SchemaValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, validateSchema: false });
  addFormats(ajv);
  const cache = new WeakMap<object, ValidateFunction | null>();
  const compiled = (schema: Record<string, unknown>): ValidateFunction | null => {
    let fn = cache.get(schema);
    if (fn === undefined) {
      try {
        // A fresh copy without $id, so that two tools sharing an $id cannot collide in ajv's registry.
        const { $id: _ignored, ...rest } = schema;
        fn = ajv.compile(rest);
      } catch {
        fn = null;
      }
      cache.set(schema, fn);
    }
    return fn;
  };
  return {
    check(schema, value) {
      const fn = compiled(schema);
      if (fn === null) return { ok: false, problems: ["the tool's parameter schema is unusable"] };
      if (fn(value)) return { ok: true };
      return { ok: false, problems: (fn.errors ?? []).slice(0, 5).map(describe) };
    },
  };
}

function describe(e: ErrorObject): string {
  const at = e.instancePath === '' ? 'arguments' : `arguments${e.instancePath.replace(/\//g, '.')}`;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${at}: missing required property "${String(p.missingProperty)}"`;
    case 'additionalProperties':
      return `${at}: property "${safeName(p.additionalProperty)}" is not allowed`;
    case 'type':
      return `${at}: must be ${String(p.type)}`;
    case 'enum':
      return `${at}: must be one of ${JSON.stringify(p.allowedValues)}`;
    default:
      return `${at}: breaks "${e.keyword}" (${e.message ?? 'invalid'})`;
  }
}
