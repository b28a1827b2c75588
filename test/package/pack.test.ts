/**
 * What `npm pack` puts in each package (offline, no scripts): the CLI ships its
 * bin, dist and the format schemas; the runtime ships only its compiled dist —
 * no sources, no compiler — and every module its entry point reaches is in it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '..', '..');

interface Packed {
  name: string;
  filename: string;
  files: { path: string }[];
}

const packed = JSON.parse(
  execFileSync('npm', ['pack', '--dry-run', '--json', '--workspaces', '--include-workspace-root', '--ignore-scripts', '--loglevel=error'], {
    cwd: REPO,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }),
) as Packed[];
const byName = new Map(packed.map((p) => [p.name, new Set(p.files.map((f) => f.path))]));

describe('npm pack', () => {
  it('packs @agentc/cli with its bin, dist and the published schemas, and nothing of the runtime package folder', () => {
    const cli = byName.get('@agentc/cli')!;
    expect(cli).toBeDefined();
    for (const path of ['bin/agentc.js', 'dist/index.js', 'dist/index.d.ts', 'dist/cli/main.js', 'package.json', 'README.md'])
      expect(cli, path).toContain(path);
    for (const schema of ['agent-card', 'config', 'prompt-block', 'tool-contract', 'check-report', 'diff-report', 'run-report']) {
      expect(cli).toContain(`schemas/${schema}.schema.json`);
    }
    expect([...cli].filter((p) => p.startsWith('src/') || p.startsWith('packages/') || p.startsWith('test/') || p.startsWith('schemas/tools/'))).toEqual([]);
  });

  it('packs @agentc/runtime as its compiled dist only, entry point and declarations included', () => {
    const runtime = byName.get('@agentc/runtime')!;
    expect(runtime).toBeDefined();
    expect([...runtime].filter((p) => p !== 'package.json' && p !== 'README.md' && !p.startsWith('dist/'))).toEqual([]);
    for (const path of [
      'dist/runtime/index.js',
      'dist/runtime/index.d.ts',
      'dist/bundle/types.js',
      'dist/bundle/types.d.ts',
      'dist/runtime/did-you-mean.js',
      'dist/bundle/template/interpret.js',
      'dist/bundle/template/ast.d.ts',
    ]) {
      expect(runtime, path).toContain(path);
    }
    expect([...runtime].some((p) => /^dist\/(parse|check|emit|diagnostics|cli|load|resolve)\//.test(p))).toBe(false);
  });

  it('names the tarballs the README installs', () => {
    const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    expect(packed.map((p) => p.filename).sort()).toEqual([`agentc-cli-${version}.tgz`, `agentc-runtime-${version}.tgz`]);
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    expect(readme).toContain(`npm install --save-dev ../agentc-packs/agentc-cli-${version}.tgz\n`);
    expect(readme).toContain(`npm install ../agentc-packs/agentc-runtime-${version}.tgz\n`);
  });
});
