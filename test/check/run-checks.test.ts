import { afterAll, describe, expect, it } from 'vitest';
import { runChecks } from '../../src/check/index.js';
import type { Rule } from '../../src/check/rule.js';
import { RULES } from '../../src/check/rules/index.js';
import { compile } from '../../src/compile.js';
import { CATALOG, RULE_IDS } from '../../src/diagnostics/catalog.js';
import type { DiagnosticInput } from '../../src/diagnostics/diagnostic.js';
import type { Program } from '../../src/resolve/types.js';
import { cleanup, fixtureNames, materialize } from './fixture-workspace.js';

// Reported outside src/check/rules: by the parse phase, or (template-render) after the rule settings are applied.
const PARSE_PHASE = new Set(['yaml-syntax', 'frontmatter', 'schema', 'config-load', 'id-mismatch', 'template-syntax', 'file-too-large', 'template-render']);

describe('runChecks', () => {
  it('registers exactly one rule per non-parse-phase catalog id, in catalog order', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(RULE_IDS.filter((id) => !PARSE_PHASE.has(id)));
  });

  it('rethrows a rule crash as an agentc bug naming the rule', () => {
    const broken: Rule = {
      id: 'unused-tool',
      run() {
        throw new Error('boom');
      },
    };
    expect(() => runChecks({ config: { file: undefined }, files: new Map() } as unknown as Program, [broken])).toThrow(/agentc bug: check rule "unused-tool" threw: boom/);
  });
});

describe('catalog data', () => {
  const roots: string[] = [];
  afterAll(async () => {
    await Promise.all(roots.map(cleanup));
  });

  it('every rule passes exactly the keys its message template names', async () => {
    const problems = new Set<string>();
    for (const name of await fixtureNames()) {
      const root = await materialize(name);
      roots.push(root);
      const { program } = await compile({ root });
      if (!program) continue;
      for (const rule of RULES) {
        const want = [...CATALOG[rule.id].message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
        rule.run(program, (d: Omit<DiagnosticInput, 'rule'>) => {
          const got = Object.keys(d.data ?? {}).sort();
          if (JSON.stringify(got) !== JSON.stringify(want)) problems.add(`${rule.id}: passes [${got}] for [${want}]`);
        });
      }
    }
    expect([...problems]).toEqual([]);
  });
});
