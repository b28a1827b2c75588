import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { CATALOG, RULE_IDS } from '../src/diagnostics/catalog.js';
import { RULES } from '../src/check/rules/index.js';

const root = join(import.meta.dirname, '..');
const doc = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');

test('ARCHITECTURE.md lists every rule with its code and existing files', () => {
  for (const id of RULE_IDS) {
    const row = doc.split('\n').find((l) => l.startsWith(`| \`${id}\` |`));
    expect(row, `row for ${id}`).toBeDefined();
    expect(row).toContain(CATALOG[id].code);
    for (const [, file] of row!.matchAll(/`(src\/[^`]+\.ts)`/g)) expect(existsSync(join(root, file!)), file).toBe(true);
  }
});

test('every check rule is registered once and has its own file', () => {
  const ids = RULES.map((r) => r.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(existsSync(join(root, 'src/check/rules', `${id}.ts`)), id).toBe(true);
});

test('README opens with the install+run command and the test command', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const head = readme.split('\n').slice(0, 30).join('\n');
  expect(head).toContain('npm ci');
  expect(head).toContain('npx --no-install agentc check');
  expect(head).toContain('npm test');
  expect(readFileSync(join(root, '.ci/run'), 'utf8')).toContain('npm test');
});
