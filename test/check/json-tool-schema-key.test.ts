/**
 * Editor support that is true: a JSON tool contract may carry the standard
 * `"$schema"` key (editors read it; agentc ignores it), and the bundle is the
 * same as without it. A `$schema` that is not a string is still a schema error.
 */
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { compileInMemory } from '../helpers/memory-workspace.js';
import { copyExample, removeTempDirs, REPO, write } from '../robustness/workspace.js';

afterAll(removeTempDirs);

const TOOL = 'calculate_redemption';
const contract = () => {
  const data = parseYaml(readFileSync(join(REPO, 'schemas', 'tools', `${TOOL}.yaml`), 'utf8')) as Record<string, unknown>;
  return data;
};

async function withJsonTool(value: unknown): Promise<string> {
  const ws = await copyExample('json-schema-key');
  await rm(join(ws, 'schemas', 'tools', `${TOOL}.yaml`));
  await write(ws, `schemas/tools/${TOOL}.json`, JSON.stringify({ $schema: value, ...contract() }, null, 2) + '\n');
  return ws;
}

describe('"$schema" in a JSON tool contract', () => {
  it('is accepted and changes nothing in the bundle', async () => {
    const original = await compileInMemory(await copyExample('json-schema-ref'), { bundle: true });
    const ws = await withJsonTool('../tool-contract.schema.json');
    const result = await compileInMemory(ws, { bundle: true });
    expect(result.diagnostics).toEqual(original.diagnostics);
    expect(result.bundle!.tools[TOOL]).toEqual(original.bundle!.tools[TOOL]);
    expect(result.bundle!.agents).toEqual(original.bundle!.agents);
  });

  it('must be a string', async () => {
    const ws = await withJsonTool(5);
    const result = await compileInMemory(ws);
    const schema = result.diagnostics.filter((d) => d.rule === 'schema');
    expect(schema).toHaveLength(1);
    expect(schema[0]).toMatchObject({ code: 'AGC1003', file: `schemas/tools/${TOOL}.json`, range: { start: { line: 2, column: 14 } } });
  });
});
