import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix, sep } from 'node:path';
import { describe, expect, it, test } from 'vitest';
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

/**
 * Imports between the folders of src/ run one way. Shared modules sit at the bottom;
 * the pipeline load → parse → resolve → check → emit imports only earlier phases and
 * shared modules; the features on top (cli, lsp, diff, eval, …) import what they need
 * but not the CLI; the runtime imports only itself and the bundle types. Type-only and
 * dynamic imports count: they are dependencies too.
 */
describe('phase imports run one way', () => {
  const SHARED: Record<string, string[]> = {
    bundle: [],
    version: [],
    // mkdir -p that always returns (Node's recursive mkdir loops under /proc).
    'make-dirs': [],
    tokenize: [],
    runtime: ['bundle'],
    // did-you-mean ranks names as the runtime does (one implementation, in the runtime).
    diagnostics: ['runtime'],
    contracts: ['bundle', 'diagnostics'],
  };
  const PIPELINE = ['load', 'parse', 'resolve', 'check', 'emit'];
  /** The units above the pipeline, and everything below them they may use. */
  const belowTop = [...Object.keys(SHARED), ...PIPELINE, 'cache'];
  const ALLOWED: Record<string, string[]> = {
    ...SHARED,
    ...Object.fromEntries(PIPELINE.map((phase, i) => [phase, [...Object.keys(SHARED).filter((s) => s !== 'runtime'), ...PIPELINE.slice(0, i)]])),
    // Memos that outlive one compile: token counts, and whole-run results keyed by the loaded files.
    cache: ['bundle', 'version', 'make-dirs', 'tokenize', 'diagnostics', 'load'],
    compile: belowTop,
    // Rendering reads the source files the loader produced (code frames).
    'diagnostics/render': [...belowTop, 'diagnostics'],
    // The user-facing defineConfig() names parse's config types.
    config: ['bundle', 'parse'],
    ...Object.fromEntries(['lsp', 'diff', 'eval', 'export', 'import', 'init'].map((f) => [f, [...belowTop, 'compile', 'diagnostics/render', 'config']])),
    cli: [...belowTop, 'compile', 'diagnostics/render', 'config', 'lsp', 'diff', 'eval', 'export', 'import', 'init'],
    index: [...belowTop, 'compile', 'diagnostics/render', 'config'],
  };

  /** Known exceptions, each to be removed: the LSP reuses the CLI's watched-file set (it belongs below both, e.g. in src/load). */
  const KNOWN = new Set(['src/lsp/server.ts → src/cli/watch-files.js']);

  /** The unit a file of src/ belongs to: its top folder, `diagnostics/render`, or a top-level file's name. */
  function unitOf(file: string): string {
    const parts = file.split('/');
    if (parts[1] === 'diagnostics' && parts[2] === 'render') return 'diagnostics/render';
    return parts.length > 2 ? parts[1]! : parts[1]!.replace(/\.[jt]s$/, '');
  }

  const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `src/${f.split(sep).join('/')}`)
    .sort();

  function relativeImports(file: string): string[] {
    const text = readFileSync(join(root, file), 'utf8');
    const out: string[] = [];
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"](\.[^'"]+)['"]/g)) out.push(m[1]!);
    for (const m of text.matchAll(/(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]/g)) out.push(m[1]!);
    for (const m of text.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g)) out.push(m[1]!);
    return out.map((spec) => posix.normalize(posix.join(posix.dirname(file), spec)));
  }

  it('knows every unit of src/', () => {
    const unknown = [...new Set(files.map(unitOf))].filter((u) => !(u in ALLOWED));
    expect(unknown, 'a new folder of src/: place it in a layer above').toEqual([]);
  });

  it('finds imports to check', () => {
    expect(relativeImports('src/compile.ts').length).toBeGreaterThan(5);
  });

  it('has no import against the layering', () => {
    const bad: string[] = [];
    for (const file of files) {
      const from = unitOf(file);
      for (const target of relativeImports(file)) {
        const to = unitOf(target);
        if (KNOWN.has(`${file} → ${target}`)) continue;
        if (to !== from && !(ALLOWED[from] ?? []).includes(to)) bad.push(`${file} → ${target} (${from} may not import ${to})`);
      }
    }
    expect(bad).toEqual([]);
  });
});
