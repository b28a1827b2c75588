/**
 * Loads agentc.config.ts without a build step (jiti), isolated and bounded in
 * time: the config is user code, so it runs in a worker thread (./config-worker.ts)
 * that is terminated after AGENTC_CONFIG_TIMEOUT_MS (default 5 s). `agentc` and
 * `@agentc/cli` are aliased to this package so `import { defineConfig } from …`
 * resolves in any workspace, installed or not.
 *
 * Invariant: no config makes agentc pass silently, hang, crash or print on
 * stdout. A hang (top-level await that never settles, an endless loop, a getter
 * that loops), `process.exit`, a throw of anything, a throw in a timer, a late
 * rejection, or a write to stdout after the value was read are each a
 * `config-load` error (with the config's own line where a stack shows it).
 * The value is validated later, in the parse phase, because loaders strip
 * types without checking them.
 */
import { closeSync, constants, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { HintRef, MessageRef } from '../diagnostics/catalog.js';
import type { Range } from '../diagnostics/diagnostic.js';
import { revive, type ConfigInputs, type ConfigWorkerInput, type ConfigWorkerMessage, type SerializedError } from './config-value.js';
import { decodeText, SourceFile } from './source.js';

export interface ConfigLoad {
  file: SourceFile | undefined;
  /** The module's default export (or the module namespace when there is none). */
  value: unknown;
  error: ConfigLoadError | undefined;
  /** What the value was computed from besides the config's text (set when it loaded). */
  inputs?: ConfigInputs;
}

/** Why the config did not load: a config-load catalog message, where, and a hint. */
export type ConfigLoadError = MessageRef<'config-load'> & { range: Range | undefined; hint?: HintRef<'config-load'> };

const here = dirname(fileURLToPath(import.meta.url));
/** dist/load → dist/index.js; src/load (tests) → src/index.ts. */
const selfEntry = [join(here, '..', 'index.js'), join(here, '..', 'index.ts')].find((p) => existsSync(p))!;
/** The worker is plain JS: dist/load/config-worker.js, also when agentc itself runs from src/ (tests, after a build). */
const workerEntry = [join(here, 'config-worker.js'), join(here, '..', '..', 'dist', 'load', 'config-worker.js')].find((p) => existsSync(p));

/** Default bound on loading the config; `AGENTC_CONFIG_TIMEOUT_MS` overrides it (tests use a short one). */
export const DEFAULT_CONFIG_TIMEOUT_MS = 5000;
/** Heap of the config worker. */
const CONFIG_HEAP_MB = 512;
/** A config larger than this is not read (a link to /dev/zero must not fill memory). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

export type ConfigText = { ok: true; file: SourceFile } | { ok: false; error: ConfigLoadError };

/**
 * Reads the config's text without ever blocking: opened non-blocking (a FIFO
 * would otherwise wait for a writer), refused unless a regular file of at most
 * MAX_CONFIG_BYTES (a link to /dev/zero is a character device).
 */
export function readConfigText(root: string, relPath: string): ConfigText {
  let fd: number;
  try {
    fd = openSync(join(root, relPath), constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    return unreadable(relPath, e);
  }
  try {
    const s = fstatSync(fd);
    if (!s.isFile()) return refused({ message: 'notRegularFile', data: { file: relPath, kind: fileKind(s) } });
    if (s.size > MAX_CONFIG_BYTES)
      return refused({ message: 'tooLarge', data: { file: relPath, size: Math.ceil(s.size / 1024), max: MAX_CONFIG_BYTES / 1024 } });
    const buf = Buffer.alloc(s.size);
    let off = 0;
    while (off < s.size) {
      const n = readSync(fd, buf, off, s.size - off, off);
      if (n === 0) break;
      off += n;
    }
    const decoded = decodeText(buf.subarray(0, off));
    if (!decoded.ok) return refused({ message: decoded.reason, data: { file: relPath } });
    return { ok: true, file: new SourceFile(relPath, decoded.text) };
  } catch (e) {
    return unreadable(relPath, e);
  } finally {
    closeSync(fd);
  }
}

function refused(problem: MessageRef<'config-load'>): ConfigText {
  return { ok: false, error: { ...problem, range: undefined } };
}

function unreadable(relPath: string, e: unknown): ConfigText {
  return refused({ message: 'unreadable', data: { file: relPath, reason: (e as NodeJS.ErrnoException).code ?? (e as Error).message } });
}

function fileKind(s: { isDirectory(): boolean; isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): string {
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a named pipe';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  if (s.isSocket()) return 'a socket';
  return 'not a file';
}

export async function loadConfig(root: string, relPath: string, env: Record<string, string | undefined> = process.env): Promise<ConfigLoad> {
  const read = readConfigText(root, relPath);
  if (!read.ok) return { file: undefined, value: undefined, error: read.error };
  return evaluateConfig(root, read.file, env);
}

/** Evaluates the (already read) config in a worker; see the module comment for what becomes an error. */
export async function evaluateConfig(root: string, file: SourceFile, env: Record<string, string | undefined> = process.env): Promise<ConfigLoad> {
  const abs = join(root, file.path);
  if (!workerEntry) throw new Error('agentc bug: dist/load/config-worker.js is missing (run the build)');
  const timeoutMs = configTimeout(env);
  const input: ConfigWorkerInput = { abs, selfEntry };
  const fail = (error: ConfigLoadError): ConfigLoad => ({ file, value: undefined, error });
  const data = { file: file.path };
  const at = (stack: string): Range | undefined => {
    const pos = stackPosition(stack, abs);
    return pos ? clampedPoint(file, pos) : undefined;
  };

  return new Promise<ConfigLoad>((resolveLoad) => {
    let received: { hasDefault: boolean; value: unknown; inputs: ConfigInputs } | undefined;
    let settled = false;
    // stdout: true — the worker's stdout is ours to read; whatever reaches it goes to stderr.
    // A heap limit of its own: a config that allocates without end fails alone, not agentc's process.
    const worker = new Worker(workerEntry, { workerData: input, stdout: true, env: { ...env }, resourceLimits: { maxOldGenerationSizeMb: CONFIG_HEAP_MB } });
    worker.stdout.on('data', (d: Buffer) => process.stderr.write(d));
    const finish = (load: ConfigLoad): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolveLoad(load);
    };
    const timer = setTimeout(() => {
      finish(
        received
          ? fail({ message: 'keepsRunning', data: { ...data, ms: timeoutMs }, range: undefined, hint: { id: 'closeHandles' } })
          : fail({ message: 'timedOut', data: { ...data, ms: timeoutMs }, range: undefined, hint: { id: 'finishQuickly' } }),
      );
    }, timeoutMs);
    worker.on('message', (m: ConfigWorkerMessage) => {
      if (settled) return;
      if (m.type === 'value') received = { hasDefault: m.hasDefault, value: m.value, inputs: m.inputs };
      else if (m.type === 'error') {
        const kind = m.via === 'rejection' ? 'unhandledRejection' : m.via === 'uncaught' && m.afterLoad ? 'thrownLater' : 'loadFailed';
        finish(fail(describeLoadError(m.error, file, abs, kind)));
      } else if (m.type === 'exit') {
        finish(
          fail({ message: m.afterLoad ? 'exitAfterLoad' : 'exitWhileLoading', data: { ...data, call: m.how }, range: at(m.stack), hint: { id: 'noExit' } }),
        );
      } else if (m.type === 'stdout' && m.afterLoad) {
        process.stderr.write(m.text);
        finish(fail({ message: 'lateStdout', data, range: at(m.stack), hint: { id: 'useStderr' } }));
      }
    });
    worker.on('error', (e) => finish(fail({ ...describeLoadError(serializeForeign(e), file, abs), range: undefined })));
    worker.on('exit', (code) => {
      if (settled) return;
      if (!received) {
        // Exit 0 with nothing posted: the event loop ran dry while the module still awaited something.
        return finish(
          fail(
            code === 0 ? { message: 'neverSettled', data, range: undefined } : { message: 'stopped', data: { ...data, code: String(code) }, range: undefined },
          ),
        );
      }
      if (!received.hasDefault && !/\bmodule\.exports\b|\bexports\.default\b/.test(file.text))
        return finish({ file, value: undefined, error: noDefaultExport(file) });
      let value: unknown;
      try {
        value = revive(received.value);
      } catch (e) {
        return finish(fail({ message: 'valueTooDeep', data: { ...data, reason: (e as Error).message }, range: undefined }));
      }
      finish({ file, value, error: undefined, inputs: received.inputs });
    });
  });
}

function configTimeout(env: Record<string, string | undefined>): number {
  const raw = env.AGENTC_CONFIG_TIMEOUT_MS;
  const n = raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_CONFIG_TIMEOUT_MS;
}

/** An error raised by the worker machinery itself (not posted by the worker). */
function serializeForeign(e: unknown): SerializedError {
  if (e instanceof Error) return { message: e.message, ...(e.stack ? { stack: e.stack } : {}) };
  return { message: `it threw ${e === null ? 'null' : typeof e}, not an Error` };
}

/** 1-based line and column of the first stack frame inside the config file. */
function stackPosition(stack: string, abs: string): { line: number; column: number } | undefined {
  const m = new RegExp(`${escapeRegExp(abs)}:(\\d+):(\\d+)`).exec(stack);
  return m ? { line: Number(m[1]), column: Number(m[2]) } : undefined;
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

/** How a thrown value reached agentc: while loading, later from a timer or callback, or as an unhandled rejection. */
type ThrowKind = 'loadFailed' | 'thrownLater' | 'unhandledRejection';

function describeLoadError(err: SerializedError, file: SourceFile, abs: string, kind: ThrowKind = 'loadFailed'): ConfigLoadError {
  const raw = (err.message.split('\n')[0] ?? '').replace(abs, file.path).trim();
  let pos = err.loc ? { line: err.loc.line, column: err.loc.column + 1 } : undefined;
  // A runtime error thrown while evaluating the config: take its frame in the config file.
  if (!pos && err.stack) pos = stackPosition(err.stack, abs);
  const missing = /Cannot find (module|package) '([^']+)'/.exec(raw);
  let range = pos ? clampedPoint(file, pos) : undefined;
  if (missing) {
    // The stack points into the transpiled module; the import's specifier is what the author wrote.
    const spec = [`'${missing[2]}'`, `"${missing[2]}"`].map((q) => file.text.indexOf(q)).find((i) => i !== -1);
    if (spec !== undefined) range = file.rangeAt(spec, spec + missing[2]!.length + 2);
  }
  const reason = raw.replace(/^\[.*?\]\s*/, '').replace(/^ParseError: /, 'syntax error: ');
  return {
    message: kind,
    // Followed by " (…)" in the later kinds: a reason's own final period would end the sentence early.
    data: { file: file.path, reason: kind === 'loadFailed' ? reason : reason.replace(/\.+$/, '') },
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
