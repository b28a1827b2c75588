/**
 * The shared front half of parsing a YAML file that holds one record (a card, a
 * tool contract): YAML → a mapping → schema validation → the id checked
 * against the file's stem. Returns undefined when nothing usable is left.
 */
import type { DiagnosticBag } from '../diagnostics/diagnostic.js';
import type { SourceFile } from '../load/source.js';
import { isPlainObject, stemOf } from './util.js';
import { checkValues, validateFormat, yamlNumber, type FormatName } from './validate.js';
import { parseYaml, type Locator } from './yaml.js';

export interface MappingSpec {
  format: FormatName;
  /** 'Card' / 'Tool', as messages name it. */
  kind: string;
  /** The field that must equal the file's stem. */
  idKey: string;
  empty: string;
  notMapping: string;
  hint?: string;
  /** Where the file would have to be renamed to, given its id. */
  renameTo: (id: string) => string;
}

export interface MappingFile {
  raw: Record<string, unknown>;
  locate: Locator;
  stem: string;
  /** The id field's value when well-typed, else the stem. */
  id: string;
  /** Whether top-level field `k` is present and passed validation. */
  ok: (k: string) => boolean;
}

export function parseMappingFile(file: SourceFile, bag: DiagnosticBag, spec: MappingSpec): MappingFile | undefined {
  const stem = stemOf(file.path);
  const yaml = parseYaml(file);
  for (const e of yaml.errors) bag.add({ rule: 'yaml-syntax', file: file.path, range: e.range, data: { detail: e.message } });
  if (yaml.errors.length > 0) return undefined;
  const raw = yaml.value;
  if (!isPlainObject(raw)) {
    bag.add({
      rule: 'schema',
      file: file.path,
      range: yaml.locate([]),
      data: { detail: raw == null ? spec.empty : spec.notMapping.replace('{what}', Array.isArray(raw) ? 'a list' : 'a single value') },
      ...(spec.hint ? { hint: spec.hint } : {}),
    });
    return undefined;
  }
  const declared = raw[spec.idKey];
  const subject = `${spec.kind.toLowerCase()} "${typeof declared === 'string' ? declared : stem}"`;
  const target = { file: file.path, locate: yaml.locate, subject };
  const bad = validateFormat(spec.format, raw, target, bag);
  checkValues(raw, target, bag, bad, yamlNumber(file));
  const ok = (k: string) => !bad.has(k) && raw[k] !== undefined;
  const id = ok(spec.idKey) ? (declared as string) : stem;
  if (ok(spec.idKey) && id !== stem) {
    bag.add({
      rule: 'id-mismatch',
      file: file.path,
      range: yaml.locate([spec.idKey]),
      data: { kind: spec.kind, id, file: file.path, field: spec.idKey, stem },
      hint: `Rename the file to ${spec.renameTo(id)}, or set ${spec.idKey}: ${stem}.`,
    });
  }
  return { raw, locate: yaml.locate, stem, id, ok };
}
