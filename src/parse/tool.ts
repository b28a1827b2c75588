/** Parses schemas/tools/<name>.{yaml,json} into a Tool (docs/formats/tool-contract.md). JSON is checked by a JSON parser (./json.ts), then read as YAML 1.2 (a superset) for values and positions. */
import type { DiagnosticBag } from '../diagnostics/diagnostic.js';
import { toolPath } from '../load/layout.js';
import type { SourceFile } from '../load/source.js';
import type { JsonSchema, Tool } from './types.js';
import { findJsonSyntaxError } from './json.js';
import { parseMappingFile } from './mapping-file.js';

export function parseTool(file: SourceFile, bag: DiagnosticBag): Tool | undefined {
  if (file.path.endsWith('.json') && file.text.trim() !== '') {
    // YAML would accept trailing commas, comments and unquoted strings: a .json file must be JSON.
    const json = findJsonSyntaxError(file.text);
    if (json) {
      const range = file.rangeAt(json.offset, json.offset + Math.max(1, json.length));
      bag.add({ rule: 'yaml-syntax', file: file.path, range, message: 'jsonSyntax', data: { reason: json.message } });
      return undefined;
    }
  }
  const m = parseMappingFile(file, bag, {
    format: 'tool-contract',
    kind: 'Tool',
    idKey: 'name',
    empty: 'toolEmpty',
    notMapping: 'toolNotMapping',
    renameTo: (id) => toolPath(id, file.path.slice(file.path.lastIndexOf('.'))),
  });
  if (!m) return undefined;
  const { raw, ok, id: name } = m;
  return {
    kind: 'tool',
    file,
    stem: m.stem,
    data: {
      name,
      description: ok('description') ? (raw.description as string) : '',
      parameters: ok('parameters') ? (raw.parameters as JsonSchema) : { type: 'object', properties: {}, additionalProperties: false },
      envelope: ok('envelope') ? (raw.envelope as boolean) : false,
      status_events: ok('status_events') ? (raw.status_events as string[]) : [],
    },
    find: m.find,
    locate: m.locate,
  };
}
