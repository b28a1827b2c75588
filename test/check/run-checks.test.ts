import { afterAll, describe, expect, it } from 'vitest';
import { runChecks } from '../../src/check/index.js';
import type { Rule } from '../../src/check/rule.js';
import { freshCheckRun } from '../../src/check/item-findings.js';
import { RULES } from '../../src/check/rules/index.js';
import { CATALOG, hintTemplate, messageTemplate, RULE_IDS, type CatalogEntry } from '../../src/diagnostics/catalog.js';
import { placeholders } from '../../src/diagnostics/template.js';
import type { Program } from '../../src/resolve/types.js';
import { cleanup, compileFixture, fixtureNames } from './fixture-workspace.js';

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
    expect(() => runChecks({ config: { file: undefined }, files: new Map() } as unknown as Program, [broken])).toThrow(
      /agentc bug: check rule "unused-tool" threw: boom/,
    );
  });
});

describe('catalog data', () => {
  const roots: string[] = [];
  afterAll(async () => {
    await Promise.all(roots.map(cleanup));
  });

  it('every report names a catalog message and hint of its rule and passes exactly the keys their templates name', async () => {
    const problems = new Set<string>();
    const keys = (t: string | undefined) => (t === undefined ? ['<no such template>'] : placeholders(t).sort());
    for (const name of await fixtureNames()) {
      const { program } = await compileFixture(name, roots);
      if (!program) continue;
      for (const rule of RULES) {
        rule.run(
          program,
          (input) => {
            const d = input as { message: string; data?: Record<string, unknown>; hint?: { id: string; data?: Record<string, unknown> } };
            const want = keys(messageTemplate(rule.id, d.message));
            const got = Object.keys(d.data ?? {}).sort();
            if (JSON.stringify(got) !== JSON.stringify(want)) problems.add(`${rule.id}.${d.message}: passes [${got}] for [${want}]`);
            if (d.hint) {
              const wantHint = keys(hintTemplate(rule.id, d.hint.id));
              const gotHint = Object.keys(d.hint.data ?? {}).sort();
              if (JSON.stringify(gotHint) !== JSON.stringify(wantHint)) problems.add(`${rule.id} hint ${d.hint.id}: passes [${gotHint}] for [${wantHint}]`);
            }
          },
          freshCheckRun(program),
        );
      }
    }
    expect([...problems]).toEqual([]);
  });

  it('no catalog message or hint is a bare passthrough, and did-you-mean hints use the shared template', () => {
    for (const id of RULE_IDS) {
      const e = CATALOG[id] as CatalogEntry;
      for (const [mid, t] of [...Object.entries(e.messages), ...Object.entries(e.hints ?? {})]) {
        expect(t.replace(/\{\w+\}/g, '').trim().length, `${id}.${mid} has words of its own`).toBeGreaterThan(3);
        if (/did you mean/i.test(t)) expect(t, `${id}.${mid}`).toBe('Did you mean {suggestions}?');
      }
    }
  });
});
