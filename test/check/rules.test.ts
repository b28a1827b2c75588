/**
 * Golden rule fixtures: each fixture compiles in memory and reports exactly its
 * expected.json — every diagnostic whole (rule, code, severity, message, range start
 * and end, hint, related), nothing more. `UPDATE_GOLDEN=1` rewrites the files from
 * what is reported; review every changed line before committing it.
 *
 * Two fixtures also run on disk, through the loader and the config worker: `clean`
 * (a config that loads) and `config-load` (one that throws while loading; its value
 * cannot exist in memory, so it is checked on disk only).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { RULE_IDS } from '../../src/diagnostics/catalog.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { cleanup, compileFixture, DISK_ONLY, FIXTURES, fixtureNames, materialize, readExpected, toExpected, writeExpected } from './fixture-workspace.js';

const UPDATE = process.env.UPDATE_GOLDEN === '1';
/** Fixtures also compiled on disk, end to end, to keep the loader and the config worker covered. */
const ON_DISK = ['clean', 'config-load'];

const names = await fixtureNames();
const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map(cleanup));
});

async function assertGolden(name: string, ds: readonly Diagnostic[]): Promise<void> {
  if (UPDATE) await writeExpected(name, ds);
  const expected = await readExpected(name);
  expect(ds.map(toExpected), `fixture ${name}: the whole diagnostic list (UPDATE_GOLDEN=1 rewrites expected.json)`).toEqual(expected);
  for (const d of ds) {
    // docs/cli.md#diagnostics: every diagnostic points somewhere precise, in plain words.
    expect(d.range, `${d.rule} without a range in ${name}`).toBeDefined();
    expect(d.message).not.toMatch(/\{\w+\}/);
  }
}

describe('rule fixtures', () => {
  it('every catalog rule has a fixture that triggers it', async () => {
    const missing: string[] = [];
    for (const id of RULE_IDS) {
      if (!existsSync(join(FIXTURES, id, 'expected.json'))) {
        missing.push(id);
        continue;
      }
      const expected = await readExpected(id);
      if (!expected.some((e) => e.rule === id)) missing.push(`${id} (expected.json never names it)`);
    }
    expect(missing).toEqual([]);
  });

  it('clean reports nothing', async () => {
    expect(await readExpected('clean')).toEqual([]);
  });

  it.each(names.filter((n) => !DISK_ONLY.has(n)))('%s (in memory)', async (name) => {
    const result = await compileFixture(name, roots);
    expect(result.fatal).toBeUndefined();
    await assertGolden(name, result.diagnostics);
  });

  it.each(ON_DISK)('%s (on disk: loader and config worker)', async (name) => {
    const root = await materialize(name);
    roots.push(root);
    const result = await compile({ root, persistentCache: false });
    expect(result.fatal).toBeUndefined();
    if (DISK_ONLY.has(name)) await assertGolden(name, result.diagnostics);
    else expect(result.diagnostics.map(toExpected)).toEqual(await readExpected(name));
  });
});
