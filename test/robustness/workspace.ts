/**
 * Temp copies of the repository's example workspace (cards/, blocks/,
 * schemas/tools/, agentc.config.ts), for tests that break one thing in a
 * known-clean workspace and look at what agentc says about it.
 *
 * Invariant: the example workspace compiles with no diagnostics (asserted in
 * bad-input.test.ts), so every diagnostic a test sees comes from its mutation.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/io.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { sharedConfigs } from '../helpers/shared-config.js';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const EXAMPLE_PATHS = ['cards', 'blocks', join('schemas', 'tools'), 'agentc.config.ts'];

const created: string[] = [];

/** A fresh copy of the example workspace in a temp directory; returns its absolute path. */
export async function copyExample(label = 'ws'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `agentc-${label}-`));
  created.push(dir);
  for (const p of EXAMPLE_PATHS) {
    await mkdir(dirname(join(dir, p)), { recursive: true });
    await cp(join(REPO, p), join(dir, p), { recursive: true });
  }
  return dir;
}

/** A fresh empty temp directory (removed by removeTempDirs). */
export async function tempDir(label = 'tmp'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `agentc-${label}-`));
  created.push(dir);
  return dir;
}

/** Removes every directory this module created (call from afterAll). */
export async function removeTempDirs(): Promise<void> {
  await Promise.all(created.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/** Rewrites a workspace file; fails loudly when `fn` changes nothing (a stale mutation). */
export async function edit(dir: string, rel: string, fn: (text: string) => string): Promise<void> {
  const path = join(dir, rel);
  const before = await readFile(path, 'utf8');
  const after = fn(before);
  if (after === before) throw new Error(`test bug: edit of ${rel} changed nothing`);
  await writeFile(path, after);
}

export async function write(dir: string, rel: string, content: string | Uint8Array): Promise<void> {
  await mkdir(dirname(join(dir, rel)), { recursive: true });
  await writeFile(join(dir, rel), content);
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `agentc <argv>` in-process with captured output; cwd defaults to the repo. `buildId` (CliIO's)
 * lets the persistent result cache work in-process (with AGENTC_CACHE_DIR in `env`). `check` reuses a
 * config evaluated by an earlier run with the same config text (test/helpers/shared-config.ts) unless
 * `freshConfig` is set: for tests whose subject is the config's evaluation itself.
 */
export async function runCli(
  argv: string[],
  opts: { cwd?: string; env?: Record<string, string | undefined>; isTTY?: boolean; buildId?: string; freshConfig?: boolean } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    cwd: opts.cwd ?? REPO,
    env: opts.env ?? {},
    isTTY: opts.isTTY ?? false,
    ...(opts.buildId !== undefined ? { buildId: opts.buildId } : {}),
  };
  const configs = opts.freshConfig ? undefined : sharedConfigs();
  if (configs) io.compileCache = configs.compileCache;
  const code = await main(argv, io);
  configs?.settle();
  return { code, stdout, stderr };
}

export interface JsonReport {
  formatVersion: string;
  valid: boolean;
  errorCount: number;
  warningCount: number;
  diagnostics: Diagnostic[];
}

/** `agentc check --cwd DIR --format json`: asserts stdout is JSON and nothing else. */
export async function checkJson(dir: string): Promise<CliRun & { report: JsonReport }> {
  const run = await runCli(['check', '--cwd', dir, '--format', 'json']);
  let report: JsonReport;
  try {
    report = JSON.parse(run.stdout) as JsonReport;
  } catch (e) {
    throw new Error(`stdout of check --format json is not JSON (${(e as Error).message}):\n${run.stdout.slice(0, 2000)}\nstderr:\n${run.stderr}`);
  }
  return { ...run, report };
}

/** "    at foo (file.js:1:2)": what a leaked JS stack trace looks like. */
export const STACK_FRAME = /\n\s+at /;

/** A short `rule file:line:col-line:col` line per diagnostic, for readable failure output. */
export function summarize(ds: readonly Diagnostic[]): string {
  return ds
    .map((d) => {
      const r = d.range ? `${d.range.start.line}:${d.range.start.column}-${d.range.end.line}:${d.range.end.column}` : '-';
      return `${d.rule} ${d.severity} ${d.file ?? '-'}:${r} ${d.message}`;
    })
    .join('\n');
}

/** Values of other types that the fuzz tests put in place of a `key: value` line's value. */
export const RETYPE_VALUES = [
  '[]',
  '{}',
  '0',
  '-1',
  '123',
  '1e309',
  'true',
  'null',
  '~',
  '"text"',
  "'q'",
  '- x',
  '.nan',
  '[a, [b]]',
  '{ a: 1 }',
  '|',
  '>-',
  '&x 1',
  '*x',
  '',
];

const KEYED_LINE = /^(\s*(?:- )?[A-Za-z_][\w-]*:).*$/;

/** The `key: value` lines (any indentation, list items too) with their indexes. */
export function keyedLines(lines: readonly string[]): (readonly [string, number])[] {
  return lines.map((l, i) => [l, i] as const).filter(([l]) => KEYED_LINE.test(l));
}

/** A `key: value` line with its value replaced. */
export function retype(line: string, value: string): string {
  return line.replace(KEYED_LINE, `$1 ${value}`);
}
