/**
 * The format pages document every field their JSON Schema declares: a property
 * added to schemas/<format>.schema.json fails here until docs/formats/<page>.md
 * names it (as `field` or a dotted path ending in it, e.g. `policy.max_tool_calls`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../robustness/workspace.js';

const PAGES: Record<string, string> = {
  'agent-card.schema.json': 'agent-card.md',
  'prompt-block.schema.json': 'prompt-block.md',
  'tool-contract.schema.json': 'tool-contract.md',
  'config.schema.json': 'config.md',
  'eval-suite.schema.json': '../eval.md',
};

/** Schemas in schemas/ that describe agentc's outputs, not a file a user writes (documented in docs/cli.md). */
const NOT_FORMATS = new Set<string>(['check-report.schema.json', 'diff-report.schema.json', 'run-report.schema.json', 'eval-report.schema.json']);

type Schema = { properties?: Record<string, Schema>; additionalProperties?: unknown; items?: unknown; $defs?: Record<string, Schema> };

/** Every property of the schema, as dotted paths (`<key>` for additionalProperties maps). */
export function propertyPaths(schema: Schema, prefix = ''): string[] {
  const out: string[] = [];
  for (const [name, sub] of Object.entries(schema.properties ?? {})) {
    out.push(prefix + name);
    out.push(...propertyPaths(sub, `${prefix}${name}.`));
  }
  if (schema.additionalProperties !== null && typeof schema.additionalProperties === 'object') {
    out.push(...propertyPaths(schema.additionalProperties as Schema, `${prefix}<key>.`));
  }
  if (schema.items !== null && typeof schema.items === 'object') out.push(...propertyPaths(schema.items as Schema, prefix));
  for (const sub of Object.values(schema.$defs ?? {})) out.push(...propertyPaths(sub, prefix));
  return out;
}

/** The last dotted segment of every `code span` of the page. */
function documentedNames(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const m of markdown.matchAll(/`([^`\n]+)`/g)) {
    const span = m[1]!.trim();
    names.add(span);
    names.add(span.split('.').pop()!);
  }
  return names;
}

describe('docs/formats', () => {
  it('covers every format schema in schemas/', () => {
    const schemas = readdirSync(join(REPO, 'schemas')).filter((f) => f.endsWith('.schema.json'));
    const formats = schemas.filter((f) => !NOT_FORMATS.has(f));
    expect(formats.filter((f) => PAGES[f] === undefined).map((f) => `schemas/${f} has no page: add it to PAGES here and write docs/formats/<page>.md`)).toEqual(
      [],
    );
  });

  it.each(Object.entries(PAGES))('%s: every property is documented in docs/formats/%s', (schemaFile, page) => {
    const schema = JSON.parse(readFileSync(join(REPO, 'schemas', schemaFile), 'utf8')) as Schema;
    const names = documentedNames(readFileSync(join(REPO, 'docs', 'formats', page), 'utf8'));
    const paths = propertyPaths(schema);
    expect(paths.length).toBeGreaterThan(4);
    const missing = paths.filter((p) => !names.has(p) && !names.has(p.split('.').pop()!));
    expect(missing.map((p) => `document "${p}" (schemas/${schemaFile}) in docs/formats/${page}`)).toEqual([]);
  });

  it('docs/cli.md links the JSON Schema of every JSON report', () => {
    const cli = readFileSync(join(REPO, 'docs', 'cli.md'), 'utf8');
    const missing = [...NOT_FORMATS].filter((f) => !cli.includes(`(../schemas/${f})`));
    expect(missing.map((f) => `link schemas/${f} from docs/cli.md`)).toEqual([]);
  });

  it('finds nested properties (the walker itself)', () => {
    const paths = propertyPaths({ properties: { a: { properties: { b: {} } }, m: { additionalProperties: { properties: { c: {} } } } } });
    expect(paths).toEqual(['a', 'a.b', 'm', 'm.<key>.c']);
  });
});
