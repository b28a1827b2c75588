/**
 * The shared front half of parsing a YAML file that holds one record (a card, a
 * tool contract): YAML → a mapping → schema validation → the id checked
 * against the file's stem. Returns undefined when nothing usable is left.
 */
import type { DiagnosticBag, DiagnosticPlace, Range } from '../diagnostics/diagnostic.js';
import type { MessageRef } from '../diagnostics/catalog.js';
import type { SourceFile } from '../load/source.js';
import { isPlainObject, stemOf } from './util.js';
import { checkValues, invalidPlaces, validateFormat, validPart, yamlNumber, type FormatName } from './validate.js';
import { locatorOf, parseYaml, type Finder, type Locator } from './yaml.js';

export interface MappingSpec {
  format: FormatName;
  /** 'Card' / 'Tool', as messages name it. */
  kind: string;
  /** The field that must equal the file's stem. */
  idKey: string;
  /** The schema messages for an empty file and for one that holds no mapping. */
  empty: 'cardEmpty' | 'toolEmpty';
  notMapping: 'cardNotMapping' | 'toolNotMapping';
  hint?: 'startCard';
  /** Where the file would have to be renamed to, given its id. */
  renameTo: (id: string) => string;
}

export interface MappingFile {
  raw: Record<string, unknown>;
  /** Where a path is written, or undefined. */
  find: Finder;
  locate: Locator;
  stem: string;
  /** The id field's value when well-typed, else the stem. */
  id: string;
  /** Whether top-level field `k` is present and passed validation. */
  ok: (k: string) => boolean;
  /** Field `k` without its invalid entries; undefined when absent or invalid as a whole. */
  valid: (k: string) => unknown;
}

export function parseMappingFile(file: SourceFile, bag: DiagnosticBag, spec: MappingSpec): MappingFile | undefined {
  const stem = stemOf(file.path);
  const m = readMapping(file, bag, {
    format: spec.format,
    syntaxRule: 'yaml-syntax',
    shape: (raw, locate) => ({
      rule: 'schema',
      range: locate([]),
      ...(raw == null
        ? { message: spec.empty, data: { file: file.path } }
        : { message: spec.notMapping, data: { file: file.path, what: Array.isArray(raw) ? 'a list' : 'a single value' } }),
      ...(spec.hint ? { hint: { id: spec.hint } } : {}),
    }),
    subject: (raw) => `${spec.kind.toLowerCase()} "${typeof raw[spec.idKey] === 'string' ? (raw[spec.idKey] as string) : stem}"`,
  });
  if (!m) return undefined;
  const { raw, ok, valid, locate, find } = m;
  const id = ok(spec.idKey) ? (raw[spec.idKey] as string) : stem;
  if (ok(spec.idKey) && id !== stem) {
    bag.add({
      rule: 'id-mismatch',
      file: file.path,
      range: locate([spec.idKey]),
      message: 'mismatch',
      data: { kind: spec.kind, id, file: file.path, field: spec.idKey, stem },
      hint: { id: 'rename', data: { renameTo: spec.renameTo(id), field: spec.idKey, stem } },
    });
  }
  return { raw, find, locate: recordLocator(file, find, spec.idKey), stem, id, ok, valid };
}

/** A record's locator: where a path is written, else (explicitly) its id key, else its first line. */
function recordLocator(file: SourceFile, find: Finder, idKey: string): Locator {
  return locatorOf(find, () => find([idKey]) ?? file.rangeAt(0, Math.max(1, file.lineText(1).length)));
}

/** The diagnostic when the YAML is not a mapping: a schema message (cards, tools) or a frontmatter one (blocks). */
export type ShapeProblem = { range: Range } & (
  ({ rule: 'schema' } & MessageRef<'schema'> & { hint?: { id: 'startCard' } }) | ({ rule: 'frontmatter' } & MessageRef<'frontmatter'>)
);

export interface ReadMappingSpec {
  format: FormatName;
  /** Rule for YAML syntax errors (`yaml-syntax`, or `frontmatter` for a block). */
  syntaxRule: 'yaml-syntax' | 'frontmatter';
  /** The diagnostic when the YAML is not a mapping. */
  shape: (raw: unknown, locate: Locator) => ShapeProblem;
  subject: (raw: Record<string, unknown>) => string;
  /** YAML that sits inside the file (front matter): its text and offset. */
  text?: string;
  offset?: number;
}

export interface ReadMapping {
  raw: Record<string, unknown>;
  find: Finder;
  locate: Locator;
  /** Field k is present and valid. */
  ok: (k: string) => boolean;
  /** Field k without its invalid entries (validPart); undefined when absent or invalid as a whole. */
  valid: (k: string) => unknown;
}

/** YAML → a mapping → schema-validated. */
export function readMapping(file: SourceFile, bag: DiagnosticBag, spec: ReadMappingSpec): ReadMapping | undefined {
  const yaml = parseYaml(file, spec.text ?? file.text, spec.offset ?? 0);
  for (const e of yaml.errors) {
    const place: DiagnosticPlace = { file: file.path, range: e.range };
    if (spec.syntaxRule === 'yaml-syntax') bag.add({ rule: 'yaml-syntax', ...place, ...e.problem });
    else bag.add({ rule: 'frontmatter', ...place, ...e.problem });
  }
  if (yaml.errors.length > 0) return undefined;
  const raw = yaml.value;
  if (!isPlainObject(raw)) {
    bag.add({ ...spec.shape(raw, yaml.locate), file: file.path });
    return undefined;
  }
  const target = { file: file.path, locate: yaml.locate, subject: spec.subject(raw) };
  const invalid = invalidPlaces(spec.format);
  const bad = validateFormat(spec.format, raw, target, bag, invalid);
  const unsafe = new Set(bad);
  checkValues(raw, target, bag, unsafe, yamlNumber(file));
  for (const k of unsafe) {
    if (bad.has(k)) continue;
    bad.add(k);
    invalid.cuts.push([k]);
  }
  return {
    raw,
    find: yaml.find,
    locate: yaml.locate,
    ok: (k) => !bad.has(k) && raw[k] !== undefined,
    valid: (k) => validPart(raw, k, invalid),
  };
}
