import type { CompileCache } from '../compile.js';

/**
 * What a command may touch of the outside world. Commands take an `io` rather
 * than using `process` directly, so tests run them in-process and capture output.
 */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Absolute directory the command resolves `--cwd` against. */
  cwd: string;
  env: Record<string, string | undefined>;
  /** Whether stdout is a terminal (pretty format and colour by default). */
  isTTY: boolean;
  /** True once the reader of stdout went away (EPIPE): the rest of the output is dropped and the exit code is 0. */
  stdoutClosed?: () => boolean;
  /**
   * The running build's id for the persistent result cache; by default dist/build-id.json's
   * (none when agentc runs from its sources). A seam for in-process tests of the cache.
   */
  buildId?: string;
  /**
   * A test seam: the compile cache `check` (and build, run, eval, import, export, prompt, graph, diff)
   * compiles the workspace at `root` with, so in-process
   * runs reuse an evaluated config while its text and inputs are unchanged (as a watch session
   * does). None by default: each run evaluates the config.
   */
  compileCache?: (root: string) => CompileCache;
}

/** The compile option for `io.compileCache` (the test seam): `{ cache }` for `root`, or nothing. */
export function cacheFor(io: CliIO, root: string): { cache?: CompileCache } {
  return io.compileCache ? { cache: io.compileCache(root) } : {};
}

export function processIO(): CliIO {
  // `agentc … | head` closes the pipe early, which is not an error of ours: the rest
  // of stdout is dropped, the command finishes (a build still completes its write)
  // and the exit code is 0, as with other Unix tools. Any other stdout error still
  // ends in one line and exit 2, not a stack. A closed stderr ends the run quietly.
  let closed = false;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') {
      closed = true;
      // Also when the command has already returned its code (the error arrives after the write).
      process.exitCode = 0;
      return;
    }
    process.stderr.write(`agentc: cannot write to stdout: ${e.code ?? e.message}\n`);
    process.exit(2);
  });
  process.stderr.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(process.exitCode ?? 0);
  });
  return {
    stdoutClosed: () => closed,
    stdout: (t) => void (closed || process.stdout.write(t)),
    stderr: (t) => void process.stderr.write(t),
    cwd: process.cwd(),
    env: process.env,
    isTTY: process.stdout.isTTY === true,
  };
}

/**
 * Colour: FORCE_COLOR (any value but "0"/"false") turns it on even when piped;
 * FORCE_COLOR=0 and `--no-color` (which the CLI turns into FORCE_COLOR=0) turn
 * it off; otherwise only on a TTY, never when NO_COLOR is set
 * (https://no-color.org) or TERM is "dumb". As in Node, FORCE_COLOR wins over NO_COLOR.
 */
export function useColor(io: CliIO): boolean {
  const force = io.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  return io.isTTY && !('NO_COLOR' in io.env && io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') && io.env.TERM !== 'dumb';
}

/** Exit codes of docs/cli.md#exit-codes. */
export const EXIT = { ok: 0, findings: 1, failure: 2 } as const;
