/**
 * Config positions from the TypeScript parser (src/parse/config-locate.ts): the
 * shapes a hand-written scan cannot follow, "not written" as an answer, and the
 * lazy load — a clean compile never loads `typescript`.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SourceFile } from '../../src/load/source.js';
import { configLocator } from '../../src/parse/config-locate.js';
import type { PathSegment } from '../../src/parse/yaml.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The text a path's range covers, or 'not written'. */
function at(path: string, text: string, p: PathSegment[], part: 'key' | 'value' = 'value'): string {
  const file = new SourceFile(path, text);
  const r = configLocator(file).find(p, part);
  if (!r) return 'not written';
  const lines = text.split('\n');
  if (r.start.line === r.end.line) return lines[r.start.line - 1]!.slice(r.start.column - 1, r.end.column - 1);
  return `${lines[r.start.line - 1]!.slice(r.start.column - 1)}…`;
}

describe('config positions (TypeScript parser)', () => {
  const spread = `import { defineConfig } from 'agentc';
import { shared } from './shared';
const cap = 9;
const base = { dispatch: { toolPrefix: 'ask_', fanOutCap: cap }, flags: ['a', 'b'] } as const;
const more = ['c'];
const config = {
  ...base,
  ...shared,
  models: { m: { provider: 'openai' } },
  flags: [...base.flags, ...more, 'd'],
} satisfies object;
export default defineConfig((config));
`;

  it('follows spreads of local objects, locals, satisfies, as const and parentheses', () => {
    expect(at('agentc.config.ts', spread, ['dispatch', 'fanOutCap'], 'key')).toBe('fanOutCap');
    // A value held in a local const is where the const is initialised.
    expect(at('agentc.config.ts', spread, ['dispatch', 'fanOutCap'])).toBe('9');
    expect(at('agentc.config.ts', spread, ['dispatch', 'toolPrefix'])).toBe("'ask_'");
    expect(at('agentc.config.ts', spread, ['models', 'm'], 'key')).toBe('m');
    expect(at('agentc.config.ts', spread, ['flags', 1])).toBe("'b'");
    expect(at('agentc.config.ts', spread, ['flags', 2])).toBe("'c'");
    expect(at('agentc.config.ts', spread, ['flags', 3])).toBe("'d'");
  });

  it('answers "not written" instead of an ancestor', () => {
    expect(at('agentc.config.ts', spread, ['flags', 4])).toBe('not written');
    expect(at('agentc.config.ts', spread, ['budgets'])).toBe('not written');
    expect(at('agentc.config.ts', spread, ['models', 'm', 'contextWindow'])).toBe('not written');
    // Imported: its keys are not in this file.
    expect(at('agentc.config.ts', `import c from './c';\nexport default c;\n`, ['models'])).toBe('not written');
  });

  it('reads .mjs, .js (CommonJS) and export { x as default } configs', () => {
    expect(at('agentc.config.mjs', `export default {\n  flags: ['x'],\n};\n`, ['flags', 0])).toBe("'x'");
    expect(at('agentc.config.js', `module.exports = { flags: ['y'] };\n`, ['flags', 0])).toBe("'y'");
    expect(at('agentc.config.ts', `import { defineConfig as define } from 'agentc';\nexport default define({ flags: ['z'] });\n`, ['flags', 0])).toBe("'z'");
    expect(
      at('agentc.config.mts', `const c = { rules: { 'unused-tool': 'off' } } as const;\nexport { c as default };\n`, ['rules', 'unused-tool'], 'key'),
    ).toBe("'unused-tool'");
  });

  it('ends references that cycle, and a config nested past the stack, as "not written" (no hang, no crash)', () => {
    const cycle = `const a = { x: b.x, ...b.y };\nconst b = { x: a.x, y: { ...a } };\nexport default defineConfig({ ...a, models: a.x });\n`;
    expect(() => at('agentc.config.ts', cycle, ['models', 'm'])).not.toThrow();
    expect(at('agentc.config.ts', cycle, ['flags'])).toBe('not written');
    const deep = `export default { flags: ${'['.repeat(50_000)}${']'.repeat(50_000)} };\n`;
    expect(at('agentc.config.ts', deep, ['flags', 0])).toBe('not written');
  });

  it('falls back explicitly to the line that exports the config', () => {
    const file = new SourceFile('agentc.config.ts', spread);
    expect(configLocator(file).exportLine()).toEqual({ start: { line: 12, column: 1 }, end: { line: 12, column: 39 } });
  });
});

/** Compiles `root` in a child process (from dist/) and says whether `typescript` was loaded. */
function loadsTypeScript(root: string): { loaded: boolean; diagnostics: number } {
  const script = `
    import { createRequire } from 'node:module';
    import { compile } from ${JSON.stringify(join(repo, 'dist', 'compile.js'))};
    const r = await compile({ root: ${JSON.stringify(root)}, persistentCache: false });
    const loaded = Object.keys(createRequire(import.meta.url).cache).some((k) => /[\\\\/]node_modules[\\\\/]typescript[\\\\/]/.test(k));
    console.log(JSON.stringify({ loaded, diagnostics: r.diagnostics.length }));`;
  // A script file, not --eval: the config's worker thread inherits the process's flags.
  const dir = mkdtempSync(join(tmpdir(), 'agentc-lazy-script-'));
  try {
    writeFileSync(join(dir, 'probe.mjs'), script);
    return JSON.parse(execFileSync(process.execPath, [join(dir, 'probe.mjs')], { cwd: repo, encoding: 'utf8' })) as { loaded: boolean; diagnostics: number };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the TypeScript parser is loaded lazily', () => {
  it('a clean compile of this repository does not load typescript', () => {
    expect(loadsTypeScript(repo)).toEqual({ loaded: false, diagnostics: 0 });
  });

  it('a diagnostic in the config loads it (the measure works)', () => {
    const root = mkdtempSync(join(tmpdir(), 'agentc-lazy-ts-'));
    try {
      cpSync(join(repo, 'test', 'check', 'fixtures', '_base'), root, { recursive: true });
      cpSync(join(repo, 'test', 'check', 'fixtures', 'config-spread', 'agentc.config.ts'), join(root, 'agentc.config.ts'));
      expect(loadsTypeScript(root)).toEqual({ loaded: true, diagnostics: 1 });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
