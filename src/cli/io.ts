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
}

export function processIO(): CliIO {
  // `agentc rules | head -1`: the reader left, which is not an error of ours. Any
  // other stdout error is, but still ends in one line and exit 2, not a stack.
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
  return {
    stdoutClosed: () => closed,
    stdout: (t) => void (closed || process.stdout.write(t)),
    stderr: (t) => void process.stderr.write(t),
    cwd: process.cwd(),
    env: process.env,
    isTTY: process.stdout.isTTY === true,
  };
}

/** Colour only on a TTY and never when NO_COLOR is set (https://no-color.org). */
export function useColor(io: CliIO): boolean {
  return io.isTTY && !('NO_COLOR' in io.env && io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') && io.env.TERM !== 'dumb';
}

/** Exit codes of SPEC §3.2. */
export const EXIT = { ok: 0, findings: 1, failure: 2 } as const;
