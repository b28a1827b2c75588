/**
 * `agentc build [--check] [--out DIR]`: check, then emit generated/ (docs/cli.md#agentc-build).
 *
 * - Any error: the report is printed, nothing is written, exit 1.
 * - `--check`: nothing is written; exit 1 naming every stale, missing or extra file.
 * - `--out DIR` is resolved against the workspace root (`--cwd`), like the default
 *   `generated`. The output directory is replaced as a whole, so agentc refuses a
 *   directory that holds the workspace or that is not agentc output (exit 2).
 * - With `--format json` or `sarif`, stdout holds only the report; the build's own
 *   messages go to stderr.
 */
import { formatInt } from '../../diagnostics/format-number.js';
import { appendFile, readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { outputMatches, type OutputHashes } from '../../cache/check-result.js';
import { sha256Hex } from '../../bundle/canonical-json.js';
import type { CompileCache, CompileResult } from '../../compile.js';
import { countBySeverity } from '../../diagnostics/diagnostic.js';
import { plural } from '../../diagnostics/render/common.js';
import { renderGithubSummary, renderReport, type ReportFormat } from '../../diagnostics/render/index.js';
import type { OutputFiles } from '../../emit/content.js';
import { WORKSPACE_LAYOUT } from '../../load/layout.js';
import { AGENTC_VERSION } from '../../version.js';
import { EXIT, useColor, type CliIO } from '../io.js';
import { startProgress, type ProgressHandle } from '../progress.js';
import { compileAndStore, lookupResult } from '../reuse.js';

export interface BuildOptions {
  /** Workspace root (absolute, or relative to io.cwd). */
  cwd: string;
  /** Output directory, relative to the workspace root; default `generated`. */
  out?: string;
  check?: boolean;
  format?: ReportFormat;
}

export const DEFAULT_OUT_DIR = WORKSPACE_LAYOUT.generated;

export async function buildCommand(opts: BuildOptions, io: CliIO): Promise<number> {
  // One progress line from the first read to the last write (cleared to print, stopped before the summary).
  const progress = startProgress(io, 'Building', 'reading files');
  try {
    return await build(opts, io, progress);
  } finally {
    progress.stop();
  }
}

async function build(opts: BuildOptions, io: CliIO, progress: ProgressHandle): Promise<number> {
  const root = resolve(io.cwd, opts.cwd);
  const format: ReportFormat = opts.format ?? (io.isTTY ? 'pretty' : 'text');
  const machine = format === 'json' || format === 'sarif';
  const say = (text: string): void => (machine ? io.stderr(text) : io.stdout(text));

  const reuse = await lookupResult(root, io.env, io.buildId);
  const outDir = resolve(root, opts.out ?? DEFAULT_OUT_DIR);
  const shown = displayDir(outDir, io.cwd);
  const outKey = relative(root, outDir).split(sep).join('/');
  // Nothing changed since the output was last written or verified: the same result, and the
  // directory still holds exactly those bytes. Nothing is compiled, emitted or written.
  const recorded = reuse?.hit?.outputs[outKey];
  const matched =
    reuse?.hit && recorded !== undefined && !reuse.hit.diagnostics.some((d) => d.severity === 'error') ? outputMatches(outDir, recorded) : undefined;
  if (reuse?.hit && recorded !== undefined && matched?.ok) {
    if (matched.refreshed) reuse.cache.refreshOutput(reuse.key, outKey, matched.refreshed);
    progress.clear();
    await printDiagnostics({ diagnostics: reuse.hit.diagnostics, files: reuse.files }, format, root, io);
    progress.stop();
    const n = Object.keys(recorded).length;
    say(opts.check ? `${shown} is up to date (${plural(n, 'file')}).\n` : `Wrote 0 files (${formatInt(n)} unchanged) to ${shown}\n`);
    return EXIT.ok;
  }

  const { result, files: emitted } = await compileAndEmit(reuse, root, progress, io.compileCache?.(root));
  progress.clear();
  if (result.fatal !== undefined) {
    io.stderr(`agentc: ${result.fatal}\n`);
    return EXIT.failure;
  }
  await printDiagnostics(result, format, root, io);
  const { errors } = countBySeverity(result.diagnostics);
  if (errors > 0 || emitted === undefined) {
    io.stderr(`agentc build: ${opts.check ? 'cannot check the output' : 'nothing written'}: fix the error${errors === 1 ? '' : 's'} above first.\n`);
    return EXIT.findings;
  }

  const refusal = await refuseOutDir(outDir, root);
  if (refusal !== undefined) {
    io.stderr(`agentc build: refusing to use ${shown} as the output directory: ${refusal}\n`);
    return EXIT.failure;
  }
  const { checkOutput, writeOutput } = await import('../../emit/write.js');
  // Each file is made once, as it is compared or written, and hashed then (the result cache's record of the output).
  const hashes = new Map<string, string>();
  const files = hashing(emitted, hashes);

  if (opts.check) {
    progress.phase(`comparing ${formatInt(files.size)} files`);
    const { stale, missing, extra } = await checkOutput(outDir, files);
    progress.stop();
    const problems = [
      ...stale.map((f) => `  stale    ${shown}${f}`),
      ...missing.map((f) => `  missing  ${shown}${f}`),
      ...extra.map((f) => `  extra    ${shown}${f}`),
    ];
    if (problems.length === 0) {
      if (reuse) reuse.cache.storeOutput(reuse.key, outKey, outDir, outputHashes(files, hashes));
      say(`${shown} is up to date (${plural(files.size, 'file')}).\n`);
      return EXIT.ok;
    }
    io.stderr(`${shown} is out of date: run \`agentc build\` and commit the result.\n${problems.join('\n')}\n`);
    return EXIT.findings;
  }

  let written: string[];
  let unchanged: string[];
  let removed: string[];
  try {
    progress.phase(`writing ${formatInt(files.size)} files`);
    ({ written, unchanged, removed } = await writeOutput(outDir, files));
    progress.add('files written', written.length);
  } catch (e) {
    progress.stop();
    io.stderr(`agentc build: could not write ${shown}: ${(e as Error).message}\nThe previous output was left as it was.\n`);
    return EXIT.failure;
  }
  progress.stop();
  if (reuse) reuse.cache.storeOutput(reuse.key, outKey, outDir, outputHashes(files, hashes));
  const extras = [`${formatInt(unchanged.length)} unchanged`, ...(removed.length > 0 ? [`${formatInt(removed.length)} removed`] : [])];
  say(`Wrote ${plural(written.length, 'file')} (${extras.join(', ')}) to ${shown}\n`);
  return EXIT.ok;
}

/**
 * Compile, make the bundle, emit the files: the output files, or none when the
 * workspace has errors. The bundle is made here rather than by compile, with an
 * EmitCache that emitOutput then reuses (each agent is serialized once, for the hash
 * and for the files). The Program and the EmitCache live only in this scope; the
 * prompt files are made one at a time while the output is compared or written (peak memory).
 */
async function compileAndEmit(
  reuse: Awaited<ReturnType<typeof lookupResult>>,
  root: string,
  progress: ProgressHandle,
  cache?: CompileCache,
): Promise<{ result: Omit<CompileResult, 'program' | 'bundle'>; files: OutputFiles | undefined }> {
  const [{ createBundle }, { createEmitCache }, { emitOutput }] = await Promise.all([
    import('../../emit/bundle.js'),
    import('../../emit/cache.js'),
    import('../../emit/files.js'),
  ]);
  const emitCache = createEmitCache({ once: true });
  const { program, bundle: _none, ...result } = await compileAndStore(reuse, { root, progress, ...(cache ? { cache } : {}) });
  if (program === undefined || result.fatal !== undefined || result.diagnostics.some((d) => d.severity === 'error')) return { result, files: undefined };
  progress.phase('making the bundle');
  const bundle = createBundle(program, AGENTC_VERSION, emitCache);
  progress.phase('emitting files');
  return { result, files: emitOutput(bundle, emitCache) };
}

/**
 * The diagnostics report, in the chosen format. A clean run prints nothing in
 * the human formats (the build's own summary follows) and the full report in
 * the machine formats.
 */
export async function printDiagnostics(result: Pick<CompileResult, 'diagnostics' | 'files'>, format: ReportFormat, root: string, io: CliIO): Promise<void> {
  const machine = format === 'json' || format === 'sarif';
  if (result.diagnostics.length === 0 && !machine) return;
  io.stdout(renderReport(format, result.diagnostics, result.files, { color: useColor(io), cwd: io.cwd, root, toolVersion: AGENTC_VERSION }));
  if (format === 'github' && io.env.GITHUB_STEP_SUMMARY) {
    await appendFile(io.env.GITHUB_STEP_SUMMARY, renderGithubSummary(result.diagnostics, { cwd: io.cwd, root, title: 'agentc build' }));
  }
}

/** Why `outDir` must not be replaced wholesale, or undefined when it is safe. */
export async function refuseOutDir(outDir: string, root: string): Promise<string | undefined> {
  // Real paths, compared by segment: `out/..ws` is inside `out` (its name only starts with ".."),
  // and a symlinked output directory is judged by where it leads.
  if (isWithin(await realPathOf(root), await realPathOf(outDir))) return 'it contains the workspace itself.';
  let entries: string[];
  try {
    if (!(await stat(outDir)).isDirectory()) return 'it exists and is not a directory.';
    entries = await readdir(outDir);
  } catch {
    return undefined; // does not exist yet
  }
  if (entries.length > 0 && !entries.includes('bundle.json')) {
    return 'it is not empty and holds no bundle.json, so it is not agentc output (agentc replaces the whole directory).';
  }
  return undefined;
}

/** Whether `inner` is `outer` or below it (absolute, resolved paths). */
export function isWithin(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  if (rel === '') return true;
  if (isAbsolute(rel)) return false;
  return rel.split(sep)[0] !== '..';
}

/** The real path of `p`; for a path that does not exist yet, that of its nearest existing ancestor plus the rest. */
async function realPathOf(p: string): Promise<string> {
  const rest: string[] = [];
  let at = resolve(p);
  for (;;) {
    try {
      return join(await realpath(at), ...rest.reverse());
    } catch {
      const parent = dirname(at);
      if (parent === at) return resolve(p);
      rest.push(basename(at));
      at = parent;
    }
  }
}

/** `generated/`, relative to where the user is, `/`-separated, with a trailing slash. */
export function displayDir(dir: string, cwd: string): string {
  const rel = relative(cwd, dir);
  const shown = rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? dir : rel;
  return `${shown.split(sep).join('/')}/`;
}

/** `files`, with each file's sha256 recorded in `hashes` as it is made (hashed as it is: a string as UTF-8, chunks in order). */
function hashing(files: OutputFiles, hashes: Map<string, string>): OutputFiles {
  const get: OutputFiles['get'] = (rel) => {
    const content = files.get(rel);
    if (content !== undefined) hashes.set(rel, sha256Hex(content));
    return content;
  };
  return {
    size: files.size,
    keys: () => files.keys(),
    has: (rel) => files.has(rel),
    get,
    *[Symbol.iterator]() {
      for (const rel of files.keys()) yield [rel, get(rel)!];
    },
  };
}

/** What the result cache records of an output: each file's sha256, as written (in path order). */
function outputHashes(files: OutputFiles, hashes: ReadonlyMap<string, string>): OutputHashes {
  const out: OutputHashes = {};
  for (const rel of files.keys()) out[rel] = hashes.get(rel) ?? sha256Hex(files.get(rel)!);
  return out;
}
