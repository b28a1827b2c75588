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
}

export function processIO(): CliIO {
  return {
    stdout: (t) => void process.stdout.write(t),
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

/** Exit codes of docs/cli.md#exit-codes. */
export const EXIT = { ok: 0, findings: 1, failure: 2 } as const;
