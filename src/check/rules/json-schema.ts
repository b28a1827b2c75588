import { didYouMean } from '../../diagnostics/did-you-mean.js';
import { metaSchemaErrors, type MetaSchemaError } from '../../parse/validate.js';
import type { PathSegment } from '../../parse/yaml.js';
import { contractRange, contracts, schemaPathText, type Contract } from '../contracts.js';
import type { Report, Rule } from '../rule.js';
import { sortedCards } from '../support.js';

const TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];

/** Subschema-holding keywords of 2020-12, by shape. */
const SCHEMA_KEYS = ['additionalProperties', 'items', 'contains', 'not', 'if', 'then', 'else', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
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
export const jsonSchema: Rule = {
  id: 'json-schema',
  run(program, report) {
    for (const c of contracts(program)) {
      const errors = metaSchemaErrors(c.schema);
      for (const e of errors) reportMeta(c, e, report);
      walk(c.schema, [], undefined, 0, c, report);
    }
    for (const card of sortedCards(program)) {
      // An `input` that failed validation was replaced by the default: its fields are unknown, say nothing.
      if (!card.explicitInput && /^["']?input["']?[ \t]*:/m.test(card.file.text)) continue;
      const declared = Object.keys(card.data.input);
      card.data.input_required.forEach((name, i) => {
        if (Object.prototype.hasOwnProperty.call(card.data.input, name)) return;
        const hint = didYouMean(name, declared) ?? (declared.length > 0 ? `Declared input fields: ${declared.join(', ')}.` : 'Declare it under input, or remove it from input_required.');
        report({
          file: card.file.path,
          range: card.locate(['input_required', i]),
          data: { detail: `Card "${card.data.id}" lists "${name}" in input_required, but input declares no field "${name}".` },
          hint,
        });
      });
    }
  },
};

function reportMeta(c: Contract, e: MetaSchemaError, report: Report): void {
  const where = schemaPathText([...c.base, ...e.path]);
  const keyword = [...e.path].reverse().find((s): s is string => typeof s === 'string') ?? '';
  const range = contractRange(c, e.path);
  const lead = `Invalid JSON Schema in ${c.subject} at ${where}:`;
  if (e.keyword === 'enum' && keyword === 'type') {
    const value = String(e.data);
    report({
      file: c.file,
      range,
      data: { detail: `${lead} "${value}" is not a JSON Schema type (types: ${TYPES.join(', ')}).` },
      hint: didYouMean(value, TYPES) ?? `Use one of ${TYPES.join(', ')}, or a list of them.`,
    });
    return;
  }
  const hint = hintFor(e, keyword);
  report({ file: c.file, range, data: { detail: `${lead} ${describe(e, keyword)}.` }, ...(hint ? { hint } : {}) });
}

function hintFor(e: MetaSchemaError, keyword: string): string | undefined {
  if (e.keyword === 'minimum') return `Use 0 or a positive whole number for ${keyword}.`;
  if (e.keyword === 'type') {
    const t = ([] as unknown[]).concat(e.params.type).map(String);
    if (t.includes('object') && t.includes('boolean')) return `Write ${keyword} as a schema mapping, e.g. ${keyword}: { type: string }.`;
  }
  return undefined;
}

function describe(e: MetaSchemaError, keyword: string): string {
  const got = valueText(e.data);
  switch (e.keyword) {
    case 'type': {
      const t = ([] as unknown[]).concat(e.params.type).map(String);
      if (t.includes('object') && t.includes('boolean')) return `"${keyword}" must be a schema (a mapping, or true/false), not ${got}`;
      return `"${keyword}" must be ${t.map((x) => (x === 'object' ? 'a mapping' : x === 'array' ? 'a list' : `a ${x}`)).join(' or ')}, not ${got}`;
    }
    case 'minimum':
      return `"${keyword}" must be a non-negative integer, not ${got}`;
    case 'minItems':
      return `"${keyword}" must not be an empty list`;
    case 'uniqueItems':
      return `"${keyword}" lists the same value twice`;
    default:
      return `"${keyword}" ${e.message}`;
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
function walk(schema: unknown, path: PathSegment[], inherited: Set<string> | undefined, depth: number, c: Contract, report: Report): void {
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
        data: { detail: `${capital(c.subject)} requires "${name}" at ${schemaPathText([...c.base, ...path, 'required'])}, but declares no property "${name}" there.` },
        hint: didYouMean(name, names) ?? (names.length > 0 ? `Declared properties: ${names.join(', ')}.` : 'Declare it under properties, or remove it from required.'),
      });
    });
  }
  if (typeof s.$ref === 'string') checkRef(s.$ref, [...path, '$ref'], c, report);
  if (typeof s.pattern === 'string') checkPattern(s.pattern, [...path, 'pattern'], 'value', c, report);
  if (isRecord(s.patternProperties)) for (const p of Object.keys(s.patternProperties)) checkPattern(p, [...path, 'patternProperties', p], 'key', c, report);

  for (const key of SCHEMA_KEYS) if (key in s && !Array.isArray(s[key])) walk(s[key], [...path, key], BRANCH_ONE_KEYS.includes(key) ? declared : undefined, depth + 1, c, report);
  for (const key of SCHEMA_LIST_KEYS) if (Array.isArray(s[key])) (s[key] as unknown[]).forEach((b, i) => walk(b, [...path, key, i], undefined, depth + 1, c, report));
  for (const key of BRANCH_KEYS) if (Array.isArray(s[key])) (s[key] as unknown[]).forEach((b, i) => walk(b, [...path, key, i], declared, depth + 1, c, report));
  for (const key of SCHEMA_MAP_KEYS) if (isRecord(s[key])) for (const [k, v] of Object.entries(s[key] as object)) walk(v, [...path, key, k], undefined, depth + 1, c, report);
}

function checkPattern(pattern: string, path: PathSegment[], part: 'key' | 'value', c: Contract, report: Report): void {
  try {
    new RegExp(pattern, 'u');
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^Invalid regular expression: /, '') : String(e);
    report({
      file: c.file,
      range: contractRange(c, path, part),
      data: { detail: `Invalid JSON Schema in ${c.subject} at ${schemaPathText([...c.base, ...path])}: the pattern is not a valid regular expression (${why}).` },
      hint: 'JSON Schema patterns are ECMA-262 regular expressions (Unicode mode); escape literal characters such as ( [ { with \\.',
    });
  }
}

/** A `$ref` must resolve inside the contract: "#", "#/json/pointer" or "#anchor"; nothing is fetched. */
function checkRef(ref: string, path: PathSegment[], c: Contract, report: Report): void {
  const at = schemaPathText([...c.base, ...path]);
  let problem: string | undefined;
  let suggestion: string | undefined;
  if (!ref.startsWith('#')) {
    problem = `"${ref}" is not a local reference; agentc, providers and the runtime resolve only references inside the contract ("#/$defs/…")`;
  } else if (ref.startsWith('#/') || ref === '#') {
    if (resolvePointer(c.root, ref.slice(1)) === undefined) {
      problem = `"${ref}" points to nothing in the contract`;
      const cut = ref.lastIndexOf('/');
      const parent = resolvePointer(c.root, ref.slice(1, cut));
      if (isRecord(parent)) suggestion = didYouMean(ref.slice(cut + 1), Object.keys(parent));
    }
  } else if (!hasAnchor(c.root, ref.slice(1), 0)) {
    problem = `"${ref}" names no $anchor in the contract`;
  }
  if (!problem) return;
  report({
    file: c.file,
    range: contractRange(c, path),
    data: { detail: `Invalid JSON Schema in ${c.subject} at ${at}: ${problem}.` },
    hint: suggestion ?? 'Define the shared schema under $defs and refer to it as "#/$defs/<name>".',
  });
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

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
