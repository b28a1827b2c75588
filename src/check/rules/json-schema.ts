import { didYouMeanHint } from '../../diagnostics/did-you-mean.js';
import type { MetaSchemaError } from '../../parse/validate.js';
import type { PathSegment } from '../../parse/yaml.js';
import { contractRange, contracts, metaSchemaErrorsOf, schemaPathText, type Contract } from '../contracts.js';
import type { Report, Rule } from '../rule.js';
import { sortedCards } from '../support.js';

const TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];

/** Subschema-holding keywords of 2020-12, by shape. */
const SCHEMA_KEYS = [
  'additionalProperties',
  'items',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];
const SCHEMA_LIST_KEYS = ['prefixItems', 'items'];
const SCHEMA_MAP_KEYS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Branches whose `required` may name the parent's properties. */
const BRANCH_KEYS = ['allOf', 'anyOf', 'oneOf'];
const BRANCH_ONE_KEYS = ['not', 'if', 'then', 'else'];
const MAX_DEPTH = 64;

/**
 * Tool parameters and card input/output are valid JSON Schema 2020-12 (checked
 * against the meta-schema), patterns compile, and every `required` /
 * `input_required` entry names a declared property.
 */
export const jsonSchema: Rule<'json-schema'> = {
  id: 'json-schema',
  reads: ['cardTable', 'toolTable'],
  run(program, report) {
    for (const c of contracts(program)) {
      const errors = metaSchemaErrorsOf(program, c.schema);
      for (const e of errors) reportMeta(c, e, report);
      walk(c.schema, [], undefined, 0, c, report);
    }
    for (const card of sortedCards(program)) {
      // An `input` that failed validation was replaced by the default: its fields are unknown, say nothing.
      if (!card.explicitInput && card.find(['input'], 'key') !== undefined) continue;
      const declared = Object.keys(card.data.input);
      card.data.input_required.forEach((name, i) => {
        if (Object.prototype.hasOwnProperty.call(card.data.input, name)) return;
        report({
          file: card.file.path,
          range: card.locate(['input_required', i]),
          message: 'undeclaredInput',
          data: { card: card.data.id, name },
          hint:
            didYouMeanHint(name, declared) ?? (declared.length > 0 ? { id: 'declaredInputs', data: { names: declared.join(', ') } } : { id: 'declareInput' }),
        });
      });
    }
  },
};

type JsonSchemaReport = Report<'json-schema'>;

function reportMeta(c: Contract, e: MetaSchemaError, report: JsonSchemaReport): void {
  const where = schemaPathText([...c.base, ...e.path]);
  const keyword = [...e.path].reverse().find((s): s is string => typeof s === 'string') ?? '';
  const place = { file: c.file, range: contractRange(c, e.path) };
  const at = { subject: c.subject, where };
  const actual = valueText(e.data);
  if (e.keyword === 'enum' && keyword === 'type') {
    const value = String(e.data);
    const types = TYPES.join(', ');
    report({ ...place, message: 'notAType', data: { ...at, value, types }, hint: didYouMeanHint(value, TYPES) ?? { id: 'useType', data: { types } } });
    return;
  }
  switch (e.keyword) {
    case 'type': {
      const t = ([] as unknown[]).concat(e.params.type).map(String);
      if (t.includes('object') && t.includes('boolean')) {
        report({ ...place, message: 'notASchema', data: { ...at, keyword, actual }, hint: { id: 'schemaMapping', data: { keyword } } });
        return;
      }
      const expected = t.map((x) => (x === 'object' ? 'a mapping' : x === 'array' ? 'a list' : `a ${x}`)).join(' or ');
      report({ ...place, message: 'wrongType', data: { ...at, keyword, expected, actual } });
      return;
    }
    case 'minimum':
      report({ ...place, message: 'negative', data: { ...at, keyword, actual }, hint: { id: 'nonNegative', data: { keyword } } });
      return;
    case 'minItems':
      report({ ...place, message: 'emptyList', data: { ...at, keyword } });
      return;
    case 'uniqueItems':
      report({ ...place, message: 'duplicateValue', data: { ...at, keyword } });
      return;
    default:
      report({ ...place, message: 'invalid', data: { ...at, keyword, reason: e.message } });
  }
}

function valueText(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  return String(v);
}

/**
 * Walks a meta-valid schema: `required` entries must be declared (in the schema's
 * own properties, its allOf/anyOf/oneOf branches', or — for a branch — its
 * parent's), unless patternProperties could match them; patterns must compile.
 */
function walk(schema: unknown, path: PathSegment[], inherited: Set<string> | undefined, depth: number, c: Contract, report: JsonSchemaReport): void {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || depth > MAX_DEPTH) return;
  const s = schema as Record<string, unknown>;
  const declared = new Set<string>([...(inherited ?? []), ...ownProperties(s)]);
  for (const key of BRANCH_KEYS) {
    if (Array.isArray(s[key])) for (const b of s[key] as unknown[]) for (const p of ownProperties(b)) declared.add(p);
  }
  const patterned = isRecord(s.patternProperties) && Object.keys(s.patternProperties).length > 0;
  if (Array.isArray(s.required) && !patterned && (declared.size > 0 || isRecord(s.properties) || s.type === 'object')) {
    s.required.forEach((name, i) => {
      if (typeof name !== 'string' || declared.has(name)) return;
      const names = [...declared].sort();
      report({
        file: c.file,
        range: contractRange(c, [...path, 'required', i]),
        message: 'undeclaredRequired',
        data: { kind: c.kind, id: c.id, name, where: schemaPathText([...c.base, ...path, 'required']) },
        hint: didYouMeanHint(name, names) ?? (names.length > 0 ? { id: 'declaredProperties', data: { names: names.join(', ') } } : { id: 'declareProperty' }),
      });
    });
  }
  if (typeof s.$ref === 'string') checkRef(s.$ref, [...path, '$ref'], c, report);
  if (typeof s.pattern === 'string') checkPattern(s.pattern, [...path, 'pattern'], 'value', c, report);
  if (isRecord(s.patternProperties)) for (const p of Object.keys(s.patternProperties)) checkPattern(p, [...path, 'patternProperties', p], 'key', c, report);

  for (const key of SCHEMA_KEYS)
    if (key in s && !Array.isArray(s[key])) walk(s[key], [...path, key], BRANCH_ONE_KEYS.includes(key) ? declared : undefined, depth + 1, c, report);
  for (const key of SCHEMA_LIST_KEYS)
    if (Array.isArray(s[key])) (s[key] as unknown[]).forEach((b, i) => walk(b, [...path, key, i], undefined, depth + 1, c, report));
  for (const key of BRANCH_KEYS) if (Array.isArray(s[key])) (s[key] as unknown[]).forEach((b, i) => walk(b, [...path, key, i], declared, depth + 1, c, report));
  for (const key of SCHEMA_MAP_KEYS)
    if (isRecord(s[key])) for (const [k, v] of Object.entries(s[key] as object)) walk(v, [...path, key, k], undefined, depth + 1, c, report);
}

function checkPattern(pattern: string, path: PathSegment[], part: 'key' | 'value', c: Contract, report: JsonSchemaReport): void {
  try {
    new RegExp(pattern, 'u');
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^Invalid regular expression: /, '') : String(e);
    report({
      file: c.file,
      range: contractRange(c, path, part),
      message: 'badPattern',
      data: { subject: c.subject, where: schemaPathText([...c.base, ...path]), reason: why },
      hint: { id: 'regex' },
    });
  }
}

/** A `$ref` must resolve inside the contract: "#", "#/json/pointer" or "#anchor"; nothing is fetched. */
function checkRef(ref: string, path: PathSegment[], c: Contract, report: JsonSchemaReport): void {
  const place = { file: c.file, range: contractRange(c, path) };
  const data = { subject: c.subject, where: schemaPathText([...c.base, ...path]), ref };
  const hint = { id: 'useDefs' } as const;
  if (!ref.startsWith('#')) {
    report({ ...place, message: 'refNotLocal', data, hint });
  } else if (ref.startsWith('#/') || ref === '#') {
    if (resolvePointer(c.root, ref.slice(1)) !== undefined) return;
    const cut = ref.lastIndexOf('/');
    const parent = resolvePointer(c.root, ref.slice(1, cut));
    report({ ...place, message: 'refDangling', data, hint: (isRecord(parent) ? didYouMeanHint(ref.slice(cut + 1), Object.keys(parent)) : undefined) ?? hint });
  } else if (!hasAnchor(c.root, ref.slice(1), 0)) {
    report({ ...place, message: 'refNoAnchor', data, hint });
  }
}

/** The value at a JSON pointer ("" is the root), or undefined. */
function resolvePointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let cur: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    let seg: string;
    try {
      seg = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(cur) && /^\d+$/.test(seg)) cur = cur[Number(seg)];
    else if (isRecord(cur) && Object.prototype.hasOwnProperty.call(cur, seg)) cur = cur[seg];
    else return undefined;
  }
  return cur;
}

function hasAnchor(v: unknown, name: string, depth: number): boolean {
  if (depth > MAX_DEPTH || typeof v !== 'object' || v === null) return false;
  if (!Array.isArray(v) && (v as Record<string, unknown>).$anchor === name) return true;
  return Object.values(v).some((x) => hasAnchor(x, name, depth + 1));
}

function ownProperties(s: unknown): string[] {
  return isRecord(s) && isRecord(s.properties) ? Object.keys(s.properties) : [];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
