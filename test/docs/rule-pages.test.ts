/**
 * One documentation page per catalog rule, true to the catalog: a rule added to
 * src/diagnostics/catalog.ts fails here until docs/rules/<id>.md is written
 * (`node scripts/rule-docs.mjs` writes a skeleton; replace its TODOs).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOG, RULE_IDS, type RuleId } from '../../src/diagnostics/catalog.js';
import { REPO } from '../robustness/workspace.js';

const RULES_DIR = join(REPO, 'docs', 'rules');
const SECTIONS = ['## What it checks', '## Why', '## Failing example', '## Fixed example', '## Configure'];

function page(id: RuleId): string {
  return readFileSync(join(RULES_DIR, `${id}.md`), 'utf8');
}

describe('docs/rules', () => {
  it('every catalog rule has a page', () => {
    const missing = RULE_IDS.filter((id) => !existsSync(join(RULES_DIR, `${id}.md`)));
    expect(missing.map((id) => `add docs/rules/${id}.md (node scripts/build.mjs && node scripts/rule-docs.mjs writes a skeleton)`)).toEqual([]);
  });

  it('every page is a catalog rule', () => {
    const pages = readdirSync(RULES_DIR).filter((f) => f.endsWith('.md') && f !== 'README.md');
    const stray = pages.filter((f) => !(RULE_IDS as string[]).includes(f.slice(0, -3)));
    expect(stray.map((f) => `docs/rules/${f} names no rule in src/diagnostics/catalog.ts: rename or delete it`)).toEqual([]);
  });

  it.each(RULE_IDS.filter((id) => existsSync(join(RULES_DIR, `${id}.md`))))('%s: title, code, severity and group match the catalog', (id) => {
    const e = CATALOG[id];
    const lines = page(id).split('\n');
    expect(lines[0], `docs/rules/${id}.md must start with "# ${id}"`).toBe(`# ${id}`);
    expect(lines[2], `docs/rules/${id}.md line 3 must be the catalog header (re-run node scripts/rule-docs.mjs on a fresh copy to see it)`).toBe(
      `**Code:** ${e.code} · **Default severity:** ${e.severity} · **Group:** ${e.group}`,
    );
    expect(lines[4], `docs/rules/${id}.md line 5 quotes the catalog summary`).toBe(`> ${e.summary}`);
  });

  it.each(RULE_IDS.filter((id) => existsSync(join(RULES_DIR, `${id}.md`))))('%s: every section is written', (id) => {
    const text = page(id);
    const absent = SECTIONS.filter((s) => !text.includes(`\n${s}\n`));
    expect(absent, `docs/rules/${id}.md lacks sections`).toEqual([]);
    expect(text.includes('TODO'), `docs/rules/${id}.md still has a TODO: write the prose`).toBe(false);
    const configure = text.slice(text.indexOf('\n## Configure\n'));
    expect(configure, `docs/rules/${id}.md: the Configure section names the rule`).toContain(`'${id}'`);
    if ((CATALOG[id] as { configurable?: boolean }).configurable === false) {
      expect(configure, `docs/rules/${id}.md: say that the rule is not configurable`).toContain('not configurable');
    } else {
      expect(configure, `docs/rules/${id}.md: show how to change the severity`).toMatch(/'error' \| 'warning' \| 'off'/);
    }
  });

  it('the index lists every rule', () => {
    const index = readFileSync(join(RULES_DIR, 'README.md'), 'utf8');
    const absent = RULE_IDS.filter((id) => !index.includes(`](${id}.md)`));
    expect(absent.map((id) => `docs/rules/README.md lacks ${id}: run node scripts/rule-docs.mjs`)).toEqual([]);
  });
});
