/**
 * `agentc build --watch`: build, then rebuild on every change to cards, blocks,
 * tool contracts, the config or a file the config imports, until interrupted. `agentc check --watch`: the
 * same loop, reporting diagnostics and writing nothing (status lines "check:").
 *
 * Invariants:
 * - Incremental: unchanged files are not re-parsed (CompileCache), unchanged
 *   text is not re-tokenized (the session's TokenCounter and the persistent cache), an
 *   agent whose inputs are unchanged is neither resolved again (CompileCache.agents)
 *   nor re-emitted (EmitCache: its bundle entry, JSON piece and prompt files; the
 *   bundle's texts and tool shapes per entry), and files already written are neither
 *   read back nor rewritten (its WriteCache).
 * - Changes are debounced (2 ms of quiet: one save's events — a write, or an
 *   atomic save's create, write and rename — reach the event loop together, within
 *   half a millisecond of each other, measured on a loaded 2-core machine; a longer
 *   burst at worst costs one extra build); a change during a build schedules one more build.
 * - Each build is told the paths reported since the last one (CompileOptions.changed):
 *   only those are read, unless one cannot be placed in the last listing (src/load/reload.ts).
 * - A build with errors prints its diagnostics and leaves the output untouched;
 *   the watcher keeps running and recovers on the next good build.
 * - Each build prints exactly one status line starting with "build:" ("check:"
 *   in check mode; tools and tests wait for it). The token counts builds added are
 *   saved to the persistent cache once the watcher is idle (500 ms), and when it stops.
 * - Only the generated files the output watcher names are stat'ed before a write
 *   (src/cli/watch-output.ts). Rehearsals (JIT warm-up, see `rehearseLater`) print and
 *   write nothing and never delay a change by more than the one under way.
 */
import { formatInt } from '../../diagnostics/format-number.js';
import { relative, resolve, sep } from 'node:path';
import { compile, configImports, createCompileCache, saveTokenCounts } from '../../compile.js';
import { countBySeverity } from '../../diagnostics/diagnostic.js';
import type { ReportFormat } from '../../diagnostics/render/index.js';
import { createBundle } from '../../emit/bundle.js';
import { emitFiles } from '../../emit/files.js';
import { settled, writeOutput } from '../../emit/write.js';
import { dropSpares, openSpares, type Spares } from '../../emit/write-spares.js';
import { cacheDir } from '../../cache/token-store.js';
import { CONFIG_NAMES } from '../../load/workspace.js';
import { WORKSPACE_LAYOUT } from '../../load/layout.js';
import { countTokens } from '../../tokenize/index.js';
import { AGENTC_VERSION } from '../../version.js';
import { EXIT, type CliIO } from '../io.js';
import { OutputWatcher } from '../watch-output.js';
import { FilesWatcher } from '../watch-files.js';
import { TreeWatcher } from '../watch-tree.js';
import { DEFAULT_OUT_DIR, displayDir, printDiagnostics, refuseOutDir } from './build.js';

export interface WatchOptions {
  cwd: string;
  out?: string;
  format?: ReportFormat;
  /** Stops watching (tests); otherwise SIGINT/SIGTERM stop it. */
  signal?: AbortSignal;
  debounceMs?: number;
  /** 'check' (`agentc check --watch`): report diagnostics on every change, write nothing. Default 'build'. */
  mode?: 'build' | 'check';
  /** Files of at least this size get spare inodes (tests; default SPARE_MIN_BYTES, src/emit/write-spares.ts). */
  spareMinBytes?: number;
  /** Called after each rehearsal (tests; see `rehearseLater`). */
  onRehearsal?: () => void;
}

/** Rebuilds rehearsed after the first build, and the idle time in front of each (see `rehearseLater`). */
const REHEARSALS = 3;
const REHEARSAL_IDLE_MS = 100;

/** How long the watcher is idle before it saves the token counts its builds added. */
const TOKEN_SAVE_IDLE_MS = 500;

const WATCHED_DIRS = [WORKSPACE_LAYOUT.cards.dir, WORKSPACE_LAYOUT.blocks.dir, WORKSPACE_LAYOUT.tools.dir, WORKSPACE_LAYOUT.evals.dir];

export async function watchCommand(opts: WatchOptions, io: CliIO): Promise<number> {
  const root = resolve(io.cwd, opts.cwd);
  const outDir = resolve(root, opts.out ?? DEFAULT_OUT_DIR);
  const shown = displayDir(outDir, io.cwd);
  const format: ReportFormat = opts.format ?? (io.isTTY ? 'pretty' : 'text');
  const mode = opts.mode ?? 'build';
  const refusal = mode === 'check' ? undefined : await refuseOutDir(outDir, root);
  if (refusal !== undefined) {
    io.stderr(`agentc build: refusing to use ${shown} as the output directory: ${refusal}\n`);
    return EXIT.failure;
  }
  const cache = createCompileCache();
  const debounceMs = opts.debounceMs ?? 2;

  /** `changed`: the paths the watchers reported since the last build (none for the first: everything is read). Resolves to whether it succeeded. */
  const build = async (reason: string, changed?: readonly string[]): Promise<boolean> => {
    const t0 = performance.now();
    // The bundle is made here, with the emit cache (compile would make it from scratch).
    // Token counts are saved when the watcher is idle (see `finish`), not in front of the status line.
    const result = await compile({ root, cache, deferTokenSave: true, ...(changed ? { changed } : {}) });
    // The files the config imports (it may have new ones now) are watched like the config itself.
    imports.set(configImports(cache));
    if (result.fatal !== undefined) {
      io.stdout(`${mode}: failed (${reason}): ${result.fatal}\n`);
      return false;
    }
    await printDiagnostics(result, format, root, io);
    const { errors, warnings } = countBySeverity(result.diagnostics);
    if (mode === 'check') {
      const ms = Math.round(performance.now() - t0);
      io.stdout(
        `check: ${formatInt(errors)} error${errors === 1 ? '' : 's'}, ${formatInt(warnings)} warning${warnings === 1 ? '' : 's'} in ${formatInt(ms)} ms (${reason}). Watching for changes…\n`,
      );
      return errors === 0;
    }
    if (errors > 0 || !result.program) {
      io.stdout(`build: ${formatInt(errors)} error${errors === 1 ? '' : 's'} (${reason}); ${shown} left as it was. Watching for changes…\n`);
      return false;
    }
    try {
      const files = emitFiles(createBundle(result.program, AGENTC_VERSION, cache.emit), cache.emit);
      cache.emit.written.suspects = outputWatcher?.take(files.keys()) ?? 'all';
      const w = await writeOutput(outDir, files, undefined, cache.emit.written);
      // Once the output directory exists: big files get spare inodes from now on (src/emit/write-spares.ts).
      if (spares === undefined) {
        spares = openSpares(outDir, cacheDir(root), opts.spareMinBytes) ?? false;
        cache.emit.written.spares = spares || undefined;
      }
      const ms = Math.round(performance.now() - t0);
      const warn = warnings > 0 ? `, ${formatInt(warnings)} warning${warnings === 1 ? '' : 's'}` : '';
      io.stdout(
        `build: ok in ${formatInt(ms)} ms (${reason}): wrote ${formatInt(w.written.length)} file${w.written.length === 1 ? '' : 's'}, ${formatInt(w.unchanged.length)} unchanged${warn}.\n`,
      );
      return true;
    } catch (e) {
      io.stdout(`build: could not write ${shown}: ${(e as Error).message}; the previous output was kept.\n`);
      return false;
    }
  };

  /** The big files' spare inodes, made after the first write (false: none can be made). */
  let spares: Spares | false | undefined;
  /** The output folder's watcher: only the generated files it names are stat'ed before a write. */
  const outputWatcher = mode === 'build' ? new OutputWatcher(outDir) : undefined;

  /**
   * After a build's status line: the token counts it added go to the persistent store (about 7 ms
   * at 1,000 cards) once the watcher has been idle for a while, so a save never delays the next
   * edit's build; whatever is left is saved when the watcher stops.
   */
  let saveTimer: NodeJS.Timeout | undefined;
  const finish = (): void => {
    running = undefined;
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = setTimeout(() => {
      saveTimer = undefined;
      if (!running) saveTokenCounts(cache);
    }, TOKEN_SAVE_IDLE_MS);
  };
  /**
   * JIT warm-up. Once the watcher has been idle for REHEARSAL_IDLE_MS after its first build, it
   * goes through an edit's rebuild, writing and printing nothing, up to REHEARSALS times (each
   * after the same idle time): one block is parsed again (its parse is forgotten; the file is
   * not changed), so the agents that use it are resolved, checked and emitted again, as after
   * an edit; the bundle and its files are made. The first rehearsal also loads the tokenizer and counts that block's text with it. Without this the first edits take
   * about twice as long as later ones (V8 has not yet optimized those paths, the tokenizer is
   * not loaded); a rehearsal costs a rebuild's CPU (~50 ms at 1,000 cards), the tokenizer
   * ~0.3 s once. Any change cancels the rehearsals not yet started; one that arrives during a
   * rehearsal waits for it, as for a build.
   */
  let rehearsalTimer: NodeJS.Timeout | undefined;
  const rehearseLater = (left: number): void => {
    if (left === 0 || stopped) return;
    rehearsalTimer = setTimeout(() => {
      rehearsalTimer = undefined;
      if (running || pending) return;
      start(rehearse(left === REHEARSALS), () => rehearseLater(left - 1));
    }, REHEARSAL_IDLE_MS);
  };
  const rehearse = async (first: boolean): Promise<void> => {
    const probe = cache.listing?.blocks[0];
    if (probe !== undefined) cache.parsed.delete(probe.path);
    const result = await compile({ root, cache, deferTokenSave: true, changed: probe === undefined ? [] : [probe.path] });
    if (result.fatal !== undefined || !result.program || countBySeverity(result.diagnostics).errors > 0) return;
    if (first && probe !== undefined)
      for (const encoding of new Set([...result.program.agents.values()].map((a) => a.encoding))) countTokens(probe.text, encoding);
    if (mode === 'build') emitFiles(createBundle(result.program, AGENTC_VERSION, cache.emit), cache.emit);
    opts.onRehearsal?.();
  };

  let stopped = false;
  let running: Promise<void> | undefined;
  /** Runs `task` as the one under way; then the changes that came meanwhile are built, or else `next` runs. */
  const start = <T>(task: Promise<T>, next: (result: T) => void): void => {
    running = task.finally(finish).then((result) => {
      if (pending) flush();
      else next(result);
    });
  };
  let pending: Set<string> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const schedule = (path: string): void => {
    (pending ??= new Set()).add(path);
    if (rehearsalTimer) clearTimeout(rehearsalTimer);
    rehearsalTimer = undefined;
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  const flush = (): void => {
    timer = undefined;
    if (running || !pending) return;
    const changed = [...pending].sort();
    pending = undefined;
    const reason = changed.length === 1 ? `${changed[0]} changed` : `${formatInt(changed.length)} files changed`;
    start(build(reason, changed), () => undefined);
  };

  // One watcher per directory, re-synced after every event (see watch-tree.ts): atomic saves,
  // recreated folders and branch switches are seen.
  const tree = new TreeWatcher(root, WATCHED_DIRS, CONFIG_NAMES, schedule);
  const imports = new FilesWatcher((path) => schedule(relative(root, path).split(sep).join('/')));

  const output = mode === 'check' ? 'checking only' : `output in ${shown}`;
  io.stdout(`Watching ${WATCHED_DIRS.map((d) => `${d}/`).join(', ')} and the config; ${output} (Ctrl+C to stop).\n`);
  start(build(mode === 'check' ? 'initial check' : 'initial build'), (ok) => {
    if (ok) rehearseLater(REHEARSALS);
  });

  await new Promise<void>((done) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    if (opts.signal) {
      if (opts.signal.aborted) stop();
      else opts.signal.addEventListener('abort', stop, { once: true });
    } else {
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    }
  });
  stopped = true;
  if (timer) clearTimeout(timer);
  if (rehearsalTimer) clearTimeout(rehearsalTimer);
  tree.close();
  imports.close();
  await running;
  outputWatcher?.close();
  if (saveTimer) clearTimeout(saveTimer);
  saveTokenCounts(cache);
  await settled(cache.emit.written);
  if (spares) dropSpares(spares);
  return EXIT.ok;
}
