/**
 * Positions from real parsers (issue 13): config ranges through a spread and a
 * local const (TypeScript parser), a card key that is not written (the card's
 * explicit fallback, its `id`), and a JSON syntax error's range (jsonc-parser).
 * Whole diagnostics: rule, file, full range, related ranges.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { cleanup, materialize } from './fixture-workspace.js';

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map(cleanup));
});

async function diagnostics(fixture: string, files: Record<string, string> = {}): Promise<Diagnostic[]> {
  const root = await materialize(fixture);
  roots.push(root);
  for (const [path, text] of Object.entries(files)) await writeFile(join(root, path), text);
  const result = await compile({ root, persistentCache: false });
  expect(result.fatal).toBeUndefined();
  return result.diagnostics;
}

const span = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, column: c1 }, end: { line: l2, column: c2 } });
const where = (d: Diagnostic | undefined) =>
  d && { rule: d.rule, file: d.file, range: d.range, related: d.related?.map((r) => ({ file: r.file, range: r.range })) };

describe('positions from real parsers', () => {
  it('a config key written in a spread local object', async () => {
    const ds = await diagnostics('config-spread');
    expect(ds.map(where)).toEqual([{ rule: 'unused-model', file: 'agentc.config.ts', range: span(6, 5, 6, 18), related: undefined }]);
  });

  it('a config value held in a local const, the config exported by name through defineConfig((x))', async () => {
    const ds = await diagnostics('config-const');
    expect(ds.map(where)).toEqual([{ rule: 'unknown-block', file: 'agentc.config.ts', range: span(4, 35, 4, 52), related: undefined }]);
  });

  it('a card key that is not written points at the card id (explicit fallback), never at an ancestor', async () => {
    const ds = await diagnostics('card-key-not-written');
    // `prompt_blocks` is not written (the prompt is the required platform block alone).
    expect(where(ds.find((d) => d.rule === 'prompt-budget'))).toEqual({
      rule: 'prompt-budget',
      file: 'cards/helper.yaml',
      range: span(1, 5, 1, 11),
      related: [{ file: 'agentc.config.ts', range: span(21, 22, 21, 26) }],
    });
    expect(ds.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('a JSON syntax error keeps the parser range', async () => {
    const ds = await diagnostics('json-syntax-range');
    const json = ds.filter((d) => d.file === 'schemas/tools/get_weather.json');
    expect(json.map(where)).toEqual([{ rule: 'yaml-syntax', file: 'schemas/tools/get_weather.json', range: span(6, 48, 6, 49), related: undefined }]);
    expect(json[0]!.message).toBe("JSON syntax error: a trailing comma before '}' is not allowed in JSON.");
  });

  it('a duplicate key in a JSON contract is still reported, at the second key', async () => {
    const text = '{\n  "name": "get_weather",\n  "description": "Weather at a place.",\n  "name": "get_weather"\n}\n';
    const ds = await diagnostics('json-syntax-range', { 'schemas/tools/get_weather.json': text });
    const json = ds.filter((d) => d.file === 'schemas/tools/get_weather.json');
    expect(json.map((d) => ({ rule: d.rule, start: d.range?.start }))).toEqual([{ rule: 'yaml-syntax', start: { line: 4, column: 3 } }]);
    expect(json[0]!.message).toMatch(/unique|duplicate/i);
  });
});
