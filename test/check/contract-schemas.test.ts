/**
 * Contracts are JSON Schema (issue 9, item 1): the reproductions of the issue as
 * whole diagnostics (rule, severity, message, full range, hint), and `build`
 * writing nothing when a contract is invalid.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { compile } from '../../src/compile.js';
import { compileInMemory } from '../helpers/memory-workspace.js';
import { toAnthropic, toOpenAIStrict } from '../../src/contracts/openai-strict.js';
import { appendFile } from 'node:fs/promises';
import { copyExample, edit, removeTempDirs, runCli } from '../robustness/workspace.js';
import { cleanup, materialize } from './fixture-workspace.js';

const roots: string[] = [];
afterAll(async () => {
  await removeTempDirs();
  await Promise.all(roots.map(cleanup));
});

const TYPES = 'array, boolean, integer, null, number, object, string';

function whole(ds: Awaited<ReturnType<typeof compile>>['diagnostics'], rule: string) {
  return ds.filter((d) => d.rule === rule).map((d) => ({ severity: d.severity, file: d.file, range: d.range, message: d.message, hint: d.hint }));
}

describe('json-schema', () => {
  it('`type: strng` in tool parameters: the range of `strng`, the allowed types, a did-you-mean; build writes nothing', async () => {
    const dir = await copyExample('json-schema');
    await edit(dir, 'schemas/tools/get_order_status.yaml', (t) => t.replace(/(order_id:\n\s+type: )string/, '$1strng'));
    const r = await compileInMemory(dir, { bundle: true });
    const ds = whole(r.diagnostics, 'json-schema');
    expect(ds).toHaveLength(1);
    const d = ds[0]!;
    expect(d.severity).toBe('error');
    expect(d.message).toBe(
      `Invalid JSON Schema in tool "get_order_status" at parameters.properties.order_id.type: "strng" is not a JSON Schema type (types: ${TYPES}).`,
    );
    expect(d.hint).toBe('Did you mean "string"?');
    const text = r.files.get('schemas/tools/get_order_status.yaml')!;
    const line = text.lineText(d.range!.start.line);
    expect(line.slice(d.range!.start.column - 1, d.range!.end.column - 1)).toBe('strng');
    expect(r.bundle).toBeUndefined();

    const before = existsSync(join(dir, 'generated', 'bundle.json'));
    const cli = await runCli(['build', '--cwd', dir]);
    expect(cli.code).toBe(1);
    // Nothing new is written: generated/ is as it was (the example's committed copy or none).
    expect(existsSync(join(dir, 'generated', 'bundle.json'))).toBe(before);
    if (before) expect(await import('node:fs/promises').then((fs) => fs.readFile(join(dir, 'generated', 'bundle.json'), 'utf8'))).not.toContain('strng');
  });

  it('`required` naming an undeclared property: the range of the entry, with a did-you-mean', async () => {
    const dir = await copyExample('json-schema-req');
    await edit(dir, 'schemas/tools/get_order_status.yaml', (t) =>
      t.replace('  additionalProperties: false', '  required: [order_id, item, retailr]\n  additionalProperties: false'),
    );
    const r = await compileInMemory(dir);
    const ds = whole(r.diagnostics, 'json-schema');
    expect(ds.map((d) => [d.message, d.hint])).toEqual([
      ['Tool "get_order_status" requires "item" at parameters.required, but declares no property "item" there.', 'Declared properties: order_id, retailer.'],
      ['Tool "get_order_status" requires "retailr" at parameters.required, but declares no property "retailr" there.', 'Did you mean "retailer"?'],
    ]);
    const file = r.files.get('schemas/tools/get_order_status.yaml')!;
    expect(ds.map((d) => file.lineText(d.range!.start.line).slice(d.range!.start.column - 1, d.range!.end.column - 1))).toEqual(['item', 'retailr']);
  });

  it('input_required against the default handoff (query, prior_context) when the card declares no input', async () => {
    const root = await materialize('clean');
    roots.push(root);
    await appendFile(join(root, 'cards/travel.yaml'), 'input_required: [query, querry]\n');
    const r = await compileInMemory(root);
    expect(whole(r.diagnostics, 'json-schema').map((d) => [d.message, d.hint])).toEqual([
      ['Card "travel" lists "querry" in input_required, but input declares no field "querry".', 'Did you mean "query"?'],
    ]);
  });

  it('cannot be turned off: build never writes an invalid schema', async () => {
    const dir = await copyExample('json-schema-off');
    await edit(dir, 'schemas/tools/get_order_status.yaml', (t) => t.replace(/(order_id:\n\s+type: )string/, '$1strng'));
    await edit(dir, 'agentc.config.ts', (t) => t.replace('defineConfig({', "defineConfig({\n  rules: { 'json-schema': 'off' },"));
    const r = await compileInMemory(dir, { bundle: true });
    expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.rule)).toEqual(['schema', 'json-schema']);
    expect(r.bundle).toBeUndefined();
  });

  it('the repo workspace has clean contracts (no json-schema or provider-schema finding)', async () => {
    const r = await compileInMemory(await copyExample('json-schema-clean'));
    expect(r.diagnostics.filter((d) => d.rule === 'json-schema' || d.rule === 'provider-schema')).toEqual([]);
  });
});

describe("provider-schema shares the emitter's transformation", () => {
  it('every note is a place where the emitted shape differs from the contract', () => {
    const contract = {
      type: 'object',
      properties: {
        meta: { type: 'object' },
        note: { type: 'string', maxLength: 3, default: 'x' },
        pick: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      },
      additionalProperties: false,
    };
    const { schema, notes } = toOpenAIStrict(contract);
    expect(notes).toEqual([
      { kind: 'open-object', path: ['properties', 'meta', 'type'], at: 'type' },
      { kind: 'dropped-keyword', path: ['properties', 'note', 'maxLength'], keyword: 'maxLength', known: true },
      { kind: 'one-of', path: ['properties', 'pick', 'oneOf'] },
    ]);
    const props = schema.properties as Record<string, Record<string, unknown>>;
    expect(props.meta!.additionalProperties).toBe(false);
    expect(props.note).not.toHaveProperty('maxLength');
    expect(props.note).not.toHaveProperty('default'); // an annotation: dropped without a note
    expect(props.pick).not.toHaveProperty('oneOf');
  });

  it('anyOf / oneOf / allOf at the root: dropped (allOf merged) for both providers, each noted', () => {
    const contract = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      anyOf: [{ required: ['a'] }, { required: ['b'] }],
      allOf: [{ properties: { c: { type: 'integer' } } }],
      additionalProperties: false,
    };
    const openai = toOpenAIStrict(contract);
    expect(openai.schema).not.toHaveProperty('anyOf');
    expect(openai.notes).toEqual([{ kind: 'root-combinator', path: ['anyOf'], keyword: 'anyOf', provider: 'openai' }]);
    const anthropic = toAnthropic(contract);
    expect(anthropic.schema).not.toHaveProperty('anyOf');
    expect(anthropic.schema).not.toHaveProperty('allOf');
    expect(Object.keys(anthropic.schema.properties as object)).toEqual(['a', 'b', 'c']);
    expect(anthropic.notes.map((n) => n.path[0])).toEqual(['allOf', 'anyOf']);
  });
});
