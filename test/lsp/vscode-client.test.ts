import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const dir = join(import.meta.dirname, '..', '..', 'editors', 'vscode');

test('the VS Code client is valid JavaScript that starts `agentc lsp --stdio` from the workspace CLI', () => {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { main: string; dependencies: Record<string, string> };
  expect(pkg.dependencies['vscode-languageclient']).toMatch(/^\^\d+/);
  const main = join(dir, pkg.main);
  execFileSync(process.execPath, ['--check', main]);
  const source = readFileSync(main, 'utf8');
  expect(source).toContain("args: ['lsp', '--stdio']");
  expect(source).toContain("join(folder, 'node_modules', '.bin'");
});
