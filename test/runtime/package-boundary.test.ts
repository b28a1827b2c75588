/**
 * `@agentc/runtime` is built from src/runtime + src/bundle alone: a service
 * installs it without the compiler. This keeps every import of those folders
 * inside them, on node builtins, or on the runtime package's declared
 * dependencies — and keeps those dependencies free of the compiler's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '..', '..');
const RUNTIME_PKG = JSON.parse(readFileSync(join(REPO, 'packages', 'runtime', 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  /** Optional peers (OpenTelemetry): imported as types, or by a guarded dynamic import. */
  peerDependencies?: Record<string, string>;
};
const CLI_PKG = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
};
const COMPILER_ONLY = ['yaml', 'handlebars', 'gpt-tokenizer', 'jiti', 'commander', 'typescript'];

function sources(dir: string): string[] {
  return readdirSync(join(REPO, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f))
    .sort();
}

/** Every module specifier of static imports/exports and dynamic `import()`. */
function specifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g)) out.push(m[1]!);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) out.push(m[1]!);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]!);
  return out;
}

function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

describe('runtime package boundary', () => {
  const files = [...sources('src/runtime'), ...sources('src/bundle')];

  it('finds the runtime sources', () => {
    expect(files).toContain(join('src', 'runtime', 'index.ts'));
    expect(files).toContain(join('src', 'bundle', 'types.ts'));
  });

  it('imports only its own folders, node builtins and its declared dependencies', () => {
    const bad: string[] = [];
    for (const file of files) {
      for (const spec of specifiers(readFileSync(join(REPO, file), 'utf8'))) {
        if (spec.startsWith('.')) {
          const target = relative(REPO, resolve(REPO, dirname(file), spec));
          if (!target.startsWith(join('src', 'runtime') + '/') && !target.startsWith(join('src', 'bundle') + '/')) bad.push(`${file}: ${spec}`);
        } else if (spec.startsWith('node:') || builtinModules.includes(spec)) {
          continue;
        } else if (!(packageName(spec) in RUNTIME_PKG.dependencies) && !(packageName(spec) in (RUNTIME_PKG.peerDependencies ?? {}))) {
          bad.push(`${file}: ${spec} (not a dependency of ${RUNTIME_PKG.name})`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('depends on none of the compiler-only packages, at the versions the CLI uses', () => {
    for (const name of COMPILER_ONLY) expect(RUNTIME_PKG.dependencies).not.toHaveProperty(name);
    for (const [name, range] of Object.entries(RUNTIME_PKG.dependencies)) expect(CLI_PKG.dependencies[name]).toBe(range);
  });

  it('is released together with the CLI', () => {
    expect(CLI_PKG.name).toBe('@agentc/cli');
    expect(RUNTIME_PKG.name).toBe('@agentc/runtime');
    expect(RUNTIME_PKG.version).toBe(CLI_PKG.version);
  });
});
