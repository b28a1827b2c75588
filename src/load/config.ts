/**
 * Loads agentc.config.ts without a build step (jiti), with `agentc` aliased to
 * this package so `import { defineConfig } from 'agentc'` resolves in any
 * workspace, installed or not. Evaluation errors become `config-load`
 * diagnostics; the value is validated later, in the parse phase, because
 * loaders strip types without checking them.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HintRef, MessageRef } from '../diagnostics/catalog.js';
import type { Range } from '../diagnostics/diagnostic.js';
import { decodeText, SourceFile } from './source.js';
import { readFile } from 'node:fs/promises';

export interface ConfigLoad {
  file: SourceFile | undefined;
  /** The module's default export (or the module namespace when there is none). */
  value: unknown;
  error: ConfigLoadError | undefined;
}

/** Why the config did not load: a config-load catalog message, where, and a hint. */
export type ConfigLoadError = MessageRef<'config-load'> & { range: Range | undefined; hint?: HintRef<'config-load'> };

const here = dirname(fileURLToPath(import.meta.url));
/** dist/load → dist/index.js; src/load (tests) → src/index.ts. */
const selfEntry = [join(here, '..', 'index.js'), join(here, '..', 'index.ts')].find((p) => existsSync(p))!;

export async function loadConfig(root: string, relPath: string): Promise<ConfigLoad> {
  const abs = join(root, relPath);
  let file: SourceFile | undefined;
  try {
    const decoded = decodeText(await readFile(abs));
    if (!decoded.ok) return { file: undefined, value: undefined, error: { message: decoded.reason, data: { file: relPath }, range: undefined } };
    file = new SourceFile(relPath, decoded.text);
  } catch (e) {
    return { file: undefined, value: undefined, error: { message: 'unreadable', data: { file: relPath, reason: (e as Error).message }, range: undefined } };
  }
  try {
    const { createJiti } = await import('jiti');
    const jiti = createJiti(abs, {
      alias: { '@agentc/cli': selfEntry, agentc: selfEntry },
      moduleCache: false,
      interopDefault: true,
    });
    return await withConsoleOnStderr(async () => {
      const mod = (await jiti.import(abs)) as Record<string, unknown> | undefined;
      const hasDefault = mod && typeof mod === 'object' && 'default' in mod;
      if (!hasDefault && !/\bmodule\.exports\b|\bexports\.default\b/.test(file!.text)) return { file, value: undefined, error: noDefaultExport(file!) };
      // Read everything now, while errors can still be placed in the config: a getter or a proxy may throw.
      const value = snapshot(hasDefault ? mod.default : mod);
      return { file, value, error: undefined };
    });
  } catch (e) {
    return { file, value: undefined, error: describeLoadError(e, file, abs) };
  }
}

const STDOUT_CONSOLE = ['log', 'info', 'debug', 'dir', 'dirxml', 'table'] as const;

/**
 * Runs `fn` with the console's stdout methods writing to stderr: the config is
 * user code, and a debug `console.log` in it must not corrupt `--format json`.
 */
async function withConsoleOnStderr<T>(fn: () => Promise<T>): Promise<T> {
  const saved = STDOUT_CONSOLE.map((m) => [m, console[m]] as const);
  for (const m of STDOUT_CONSOLE) (console as unknown as Record<string, unknown>)[m] = console.error;
  try {
    return await fn();
  } finally {
    for (const [m, f] of saved) (console as unknown as Record<string, unknown>)[m] = f;
  }
}

/**
 * A copy of the config's plain objects and arrays with every property read once
 * (getters run here, inside the loader's try). Other values (functions, class
 * instances) are kept as they are for validation to reject; cycles are preserved.
 */
function snapshot(value: unknown, copies = new Map<object, unknown>()): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const done = copies.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    copies.set(value, out);
    for (let i = 0; i < value.length; i++) out.push(snapshot(value[i], copies));
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  copies.set(value, out);
  for (const key of Object.keys(value)) {
    Object.defineProperty(out, key, { value: snapshot((value as Record<string, unknown>)[key], copies), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** An ES module without `export default` (the namespace would be mistaken for the config). */
function noDefaultExport(file: SourceFile): ConfigLoadError {
  const m = /^[ \t]*export\b/m.exec(file.text);
  const start = m ? m.index + m[0].indexOf('export') : 0;
  return {
    message: 'noDefaultExport',
    data: { file: file.path },
    range: m ? file.rangeAt(start, start + 'export'.length) : { start: { line: 1, column: 1 }, end: { line: 1, column: 1 } },
    hint: { id: 'defaultExport' },
  };
}

function describeLoadError(e: unknown, file: SourceFile, abs: string): ConfigLoadError {
  const err = e as { message?: string; loc?: { line: number; column: number }; stack?: string; code?: string };
  const raw = String(err.message ?? e).split('\n')[0]!.replace(abs, file.path).trim();
  let pos = err.loc ? { line: err.loc.line, column: err.loc.column + 1 } : undefined;
  if (!pos && typeof err.stack === 'string') {
    // A runtime error thrown while evaluating the config: take its frame in the config file.
    const m = new RegExp(`${escapeRegExp(abs)}:(\\d+):(\\d+)`).exec(err.stack);
    if (m) pos = { line: Number(m[1]), column: Number(m[2]) };
  }
  const missing = /Cannot find (module|package) '([^']+)'/.exec(raw);
  let range = pos ? clampedPoint(file, pos) : undefined;
  if (missing) {
    // The stack points into the transpiled module; the import's specifier is what the author wrote.
    const spec = [`'${missing[2]}'`, `"${missing[2]}"`].map((q) => file.text.indexOf(q)).find((i) => i !== -1);
    if (spec !== undefined) range = file.rangeAt(spec, spec + missing[2]!.length + 2);
  }
  return {
    message: 'loadFailed',
    data: { file: file.path, reason: raw.replace(/^\[.*?\]\s*/, '').replace(/^ParseError: /, 'syntax error: ') },
    range,
    ...(missing ? { hint: { id: 'install' as const, data: { module: missing[2]! } } } : {}),
  };
}

/** A one-character range at `pos`, moved inside the file (stack positions of transpiled code can run past a line). */
function clampedPoint(file: SourceFile, pos: { line: number; column: number }): Range {
  const line = Math.max(1, Math.min(pos.line, file.lineCount));
  const column = Math.max(1, Math.min(pos.column, file.lineText(line).length + 1));
  return { start: { line, column }, end: { line, column: column + 1 } };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
