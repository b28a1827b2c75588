/** Parses schemas/tools/<name>.{yaml,json} into a Tool (SPEC §1.3). JSON is parsed as YAML 1.2 (a superset) to keep positions. */
import type { DiagnosticBag } from '../diagnostics/diagnostic.js';
import type { SourceFile } from '../load/source.js';
import type { JsonSchema, Tool } from './types.js';
import { findJsonSyntaxError } from './json.js';
import { isPlainObject, stemOf } from './util.js';
import { checkValues, validateFormat, yamlNumber } from './validate.js';
import { parseYaml } from './yaml.js';

export function parseTool(file: SourceFile, bag: DiagnosticBag): Tool | undefined {
  const stem = stemOf(file.path);
  if (file.path.endsWith('.json') && file.text.trim() !== '') {
    // YAML would accept trailing commas, comments and unquoted strings: a .json file must be JSON.
    const json = findJsonSyntaxError(file.text);
    if (json) {
      const range = file.rangeAt(json.offset, json.offset + 1);
      bag.add({ rule: 'yaml-syntax', file: file.path, range, data: { detail: `JSON syntax error: ${json.message}.` } });
      return undefined;
    }
  }
  const yaml = parseYaml(file);
  for (const e of yaml.errors) bag.add({ rule: 'yaml-syntax', file: file.path, range: e.range, data: { detail: e.message } });
  if (yaml.errors.length > 0) return undefined;
  const raw = yaml.value;
  if (!isPlainObject(raw)) {
    bag.add({
      rule: 'schema',
      file: file.path,
      range: yaml.locate([]),
      data: { detail: raw == null ? `Tool contract ${file.path} is empty.` : `Tool contract ${file.path} must hold a mapping with name, description and parameters.` },
    });
    return undefined;
  }
  const subject = `tool "${typeof raw.name === 'string' ? raw.name : stem}"`;
  const bad = validateFormat('tool-contract', raw, { file: file.path, locate: yaml.locate, subject }, bag);
  checkValues(raw, { file: file.path, locate: yaml.locate, subject }, bag, bad, yamlNumber(file));
  const ok = (k: string) => !bad.has(k) && raw[k] !== undefined;
  const name = ok('name') ? (raw.name as string) : stem;
  if (ok('name') && name !== stem) {
    bag.add({
      rule: 'id-mismatch',
      file: file.path,
      range: yaml.locate(['name']),
      data: { kind: 'Tool', id: name, file: file.path, field: 'name', stem },
      hint: `Rename the file to schemas/tools/${name}${file.path.slice(file.path.lastIndexOf('.'))}, or set name: ${stem}.`,
    });
  }
  return {
    kind: 'tool',
    file,
    stem,
    data: {
      name,
      description: ok('description') ? (raw.description as string) : '',
      parameters: ok('parameters') ? (raw.parameters as JsonSchema) : { type: 'object', properties: {} },
      envelope: ok('envelope') ? (raw.envelope as boolean) : false,
      status_events: ok('status_events') ? (raw.status_events as string[]) : [],
    },
    locate: yaml.locate,
  };
}
