import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { RULE_IDS } from '../../src/diagnostics/catalog.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { cleanup, FIXTURES, fixtureNames, materialize, readExpected, type Expected } from './fixture-workspace.js';

const names = await fixtureNames();
const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map(cleanup));
});

function matches(d: Diagnostic, e: Expected): boolean {
  return (
    d.rule === e.rule &&
    d.file === e.file &&
    d.range?.start.line === e.line &&
    d.range?.start.column === e.column &&
    (e.severity === undefined || d.severity === e.severity) &&
    (e.message === undefined || d.message.includes(e.message)) &&
    (e.hint === undefined || (d.hint ?? '').includes(e.hint))
  );
}

function show(ds: readonly Diagnostic[]): string {
  return ds
    .map((d) => `${d.file ?? '-'}:${d.range?.start.line ?? 0}:${d.range?.start.column ?? 0} ${d.severity} ${d.rule}: ${d.message}${d.hint ? `\n    hint: ${d.hint}` : ''}`)
    .join('\n');
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

  it.each(names)('%s', async (name) => {
    const root = await materialize(name);
    roots.push(root);
    const result = await compile({ root });
    expect(result.fatal).toBeUndefined();
    const ds = result.diagnostics;
    const expected = await readExpected(name);
    const context = `\nfixture ${name} reported:\n${show(ds)}\n`;

    if (name === 'clean') {
      expect(ds, context).toEqual([]);
      return;
    }
    const missing = expected.filter((e) => !ds.some((d) => matches(d, e)));
    expect(missing, `expected diagnostics not reported${context}`).toEqual([]);
    const unexpected = ds.filter((d) => d.severity === 'error' && !expected.some((e) => matches(d, e)));
    expect(unexpected.map((d) => `${d.rule} ${d.file}:${d.range?.start.line}:${d.range?.start.column}`), `unexpected errors${context}`).toEqual([]);
    for (const d of ds) {
      // docs/cli.md#diagnostics: every diagnostic points somewhere precise.
      expect(d.range, `${d.rule} without a range${context}`).toBeDefined();
      expect(d.message).not.toMatch(/\{\w+\}/);
    }
  });
});
