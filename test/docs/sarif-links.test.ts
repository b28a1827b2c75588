/** SARIF rules link to their docs/rules page, at the repository package.json names. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_URL, ruleDocUrl } from '../../src/diagnostics/docs-url.js';
import { sarifRules } from '../../src/diagnostics/render/sarif.js';
import { REPO } from '../robustness/workspace.js';

describe('SARIF helpUri', () => {
  it('REPOSITORY_URL is the repository of package.json', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { repository?: { url?: string } | string };
    const url = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
    expect(url?.replace(/^git\+/, '').replace(/\.git$/, '')).toBe(REPOSITORY_URL);
  });

  it('every rule carries helpUri to its page, and the page exists', () => {
    for (const rule of sarifRules()) {
      expect(rule.helpUri).toBe(ruleDocUrl(rule.id));
      expect(rule.helpUri).toMatch(new RegExp(`/docs/rules/${rule.id}\\.md$`));
      expect(existsSync(join(REPO, 'docs', 'rules', `${rule.id}.md`)), rule.id).toBe(true);
      expect(rule.fullDescription.text).toContain(rule.id);
    }
  });

  it('docs/ ships in the package', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('docs');
  });
});
