/**
 * Runs in a worker thread (see ./config.ts): evaluates agentc.config.ts with
 * jiti and posts back a structured-clone-safe snapshot of its default export.
 *
 * Invariants: this thread is the only place user config code runs; every
 * getter is read here; functions, symbols and class instances are replaced by
 * markers (see ./config-value.ts) so the value always crosses the thread
 * boundary; anything the config does that agentc must hear about — a throw
 * (of anything, `null` included), a rejection, `process.exit`, a write to
 * stdout — is posted as a message, never printed raw. Writes to stdout go to
 * stderr, so a report on stdout stays clean.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toTransferable, type ConfigInputs, type ConfigWorkerMessage, type ConfigWorkerInput, type SerializedError } from './config-value.js';

const input = workerData as ConfigWorkerInput;
const port = parentPort!;
let loaded = false;
const post = (m: ConfigWorkerMessage): void => port.postMessage(m);

/** Where the config called us from: the stack of a fresh Error, taken in the caller's frame. */
const callerStack = (): string => new Error().stack ?? '';

const stderrWrite = process.stderr.write.bind(process.stderr);
process.stdout.write = ((chunk: unknown, ...rest: unknown[]): boolean => {
  if (loaded) {
    // agentc ends this worker at once: the text travels with the message, to be printed on stderr there.
    post({
      type: 'stdout',
      afterLoad: true,
      stack: callerStack(),
      text: typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'),
    });
    return true;
  }
  return (stderrWrite as (c: unknown, ...r: unknown[]) => boolean)(chunk, ...rest);
}) as typeof process.stdout.write;

// fs.writeSync(1, …) / fs.write(1, …) reach the same file descriptor as stdout: routed the same way.
const fsMutable = fs as unknown as Record<string, unknown>;
const realWriteSync = fs.writeSync;
const realWrite = fs.write;
/** The text a `write(1, data, offset?, length?)` call would put on the descriptor. */
const writtenText = (data: unknown, offset: unknown, length: unknown): string => {
  if (typeof data === 'string') return data;
  const bytes = data as Uint8Array;
  const start = typeof offset === 'number' ? offset : 0;
  const end = typeof length === 'number' ? start + length : bytes.byteLength;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8', start, end);
};
fsMutable.writeSync = (...args: unknown[]): number => {
  if (args[0] !== 1) return (realWriteSync as (...a: unknown[]) => number)(...args);
  const text = writtenText(args[1], args[2], args[3]);
  process.stdout.write(text);
  return Buffer.byteLength(text);
};
fsMutable.write = (...args: unknown[]): void => {
  if (args[0] !== 1) return (realWrite as (...a: unknown[]) => void)(...args);
  const last = args[args.length - 1];
  const text = writtenText(args[1], typeof args[2] === 'function' ? undefined : args[2], typeof args[3] === 'function' ? undefined : args[3]);
  process.stdout.write(text);
  if (typeof last === 'function') queueMicrotask(() => (last as (e: null, n: number) => void)(null, Buffer.byteLength(text)));
};

// What the value depends on (ConfigInputs): every file read through fs while loading
// (jiti reads modules with readFileSync) and every environment variable looked at.
const filesRead = new Set<string>();
const agentcDir = dirname(input.selfEntry) + sep;
const noteRead = (p: unknown): void => {
  let path: string | undefined;
  if (typeof p === 'string') path = p;
  else if (p instanceof URL && p.protocol === 'file:') path = fileURLToPath(p);
  if (path === undefined) return;
  const abs = isAbsolute(path) ? path : resolve(path);
  // agentc's own dist/ is covered by its build id, the loader's files by agentc's lockfile;
  // caches (jiti's transpile cache) are derived from the sources.
  if (abs.startsWith(agentcDir) || abs.includes(LOADER_DIR) || abs.includes(`${sep}.cache${sep}`) || abs.startsWith(LOADER_TMP_CACHE)) return;
  filesRead.add(abs);
};
for (const name of ['readFileSync', 'readFile'] as const) {
  const real = fsMutable[name] as (...a: unknown[]) => unknown;
  fsMutable[name] = (...args: unknown[]): unknown => {
    noteRead(args[0]);
    return real(...args);
  };
}
const realPromisesReadFile = fs.promises.readFile;
(fs.promises as unknown as Record<string, unknown>).readFile = (...args: unknown[]): unknown => {
  noteRead(args[0]);
  return (realPromisesReadFile as (...a: unknown[]) => unknown)(...args);
};
syncBuiltinESMExports();

const LOADER_DIR = `${sep}node_modules${sep}jiti${sep}`;
/** jiti's transpile cache when the workspace has no node_modules. */
const LOADER_TMP_CACHE = join(tmpdir(), 'jiti') + sep;
/** Whether the caller is the loader itself (its bundled babel enumerates the environment for DEBUG settings). */
const byLoader = (): boolean => {
  // Frames: Error, byLoader, the proxy trap, then whoever touched process.env (skipping builtins such as Object.keys).
  const frames = (new Error().stack ?? '').split('\n').slice(3);
  const caller = frames.find((f) => !f.includes('(<anonymous>)') && !f.includes('(node:')) ?? '';
  return caller.includes(LOADER_DIR);
};
const envRead = new Map<string, string | null>();
let envEnumerated = false;
const realEnv = process.env;
const trackEnv = (): void => {
  process.env = new Proxy(realEnv, {
    get(target, key) {
      if (typeof key === 'string' && !byLoader()) envRead.set(key, target[key] ?? null);
      return Reflect.get(target, key) as unknown;
    },
    has(target, key) {
      if (typeof key === 'string' && !byLoader()) envRead.set(key, target[key] ?? null);
      return Reflect.has(target, key);
    },
    ownKeys(target) {
      if (!byLoader()) envEnumerated = true;
      return Reflect.ownKeys(target);
    },
  });
};
const configInputs = (): ConfigInputs => ({
  files: [...filesRead].sort(),
  env: envEnumerated ? 'all' : Object.fromEntries([...envRead].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
});

const realExit = process.exit.bind(process);
process.exit = ((code?: number | string | null) => {
  const n = code === undefined || code === null ? 0 : Number(code);
  post({ type: 'exit', afterLoad: loaded, code: n, stack: callerStack(), how: `process.exit(${n})` });
  return realExit(typeof code === 'number' ? code : 0);
}) as typeof process.exit;

// The worker shares agentc's process: a config must not signal or abort it either.
const realKill = process.kill.bind(process);
process.kill = ((pid: number, signal?: string | number) => {
  if (pid !== process.pid && pid !== 0 && pid !== -process.pid) return realKill(pid, signal);
  post({
    type: 'exit',
    afterLoad: loaded,
    code: 1,
    stack: callerStack(),
    how: `process.kill(process.pid${signal === undefined ? '' : `, ${JSON.stringify(signal)}`})`,
  });
  return realExit(1);
}) as typeof process.kill;
process.abort = (() => {
  post({ type: 'exit', afterLoad: loaded, code: 1, stack: callerStack(), how: 'process.abort()' });
  return realExit(1);
}) as typeof process.abort;

process.on('uncaughtException', (e) => post({ type: 'error', afterLoad: loaded, via: 'uncaught', error: serializeError(e) }));
process.on('unhandledRejection', (e) => post({ type: 'error', afterLoad: loaded, via: 'rejection', error: serializeError(e) }));

async function run(): Promise<void> {
  try {
    const { createJiti } = await import('jiti');
    const jiti = createJiti(input.abs, {
      // Both package names resolve to this package, installed in the workspace or not.
      alias: { agentc: input.selfEntry, '@agentc/cli': input.selfEntry },
      moduleCache: false,
      interopDefault: true,
    });
    trackEnv();
    const mod = (await jiti.import(input.abs)) as Record<string, unknown> | undefined;
    const hasDefault = mod !== null && typeof mod === 'object' && 'default' in mod;
    // Read everything now, while errors can still be placed in the config: a getter or a proxy may throw.
    const value = toTransferable(hasDefault ? mod.default : mod);
    post({ type: 'value', hasDefault, value, inputs: configInputs() });
    loaded = true;
  } catch (e) {
    post({ type: 'error', afterLoad: false, via: 'load', error: serializeError(e) });
  }
}

/** Plain data about a thrown value (an Error's fields; anything else described in words). */
function serializeError(e: unknown): SerializedError {
  if (e !== null && typeof e === 'object') {
    const err = e as { message?: unknown; stack?: unknown; loc?: { line?: unknown; column?: unknown }; code?: unknown };
    let message: string;
    try {
      message = typeof err.message === 'string' ? err.message : `it threw a value that is not an Error (${describeThrown(e)})`;
    } catch {
      message = 'it threw an object whose message cannot be read';
    }
    const safe = <T>(f: () => T): T | undefined => {
      try {
        return f();
      } catch {
        return undefined;
      }
    };
    const stack = safe(() => (typeof err.stack === 'string' ? err.stack : undefined));
    const loc = safe(() =>
      err.loc && typeof err.loc.line === 'number' && typeof err.loc.column === 'number' ? { line: err.loc.line, column: err.loc.column } : undefined,
    );
    const code = safe(() => (typeof err.code === 'string' ? err.code : undefined));
    return { message, ...(stack ? { stack } : {}), ...(loc ? { loc } : {}), ...(code ? { code } : {}) };
  }
  return { message: `it threw ${describeThrown(e)}, not an Error` };
}

function describeThrown(e: unknown): string {
  if (e === null) return 'null';
  if (e === undefined) return 'undefined';
  if (typeof e === 'string') return JSON.stringify(e.length > 200 ? `${e.slice(0, 200)}…` : e);
  if (typeof e === 'object') return 'an object';
  try {
    return String(e);
  } catch {
    return typeof e;
  }
}

void run();
