import type { CliIO } from '../io.js';

export async function watchCommand(_opts: { cwd: string; out: string; format?: string }, io: CliIO): Promise<number> {
  io.stderr('agentc build --watch: not implemented yet\n');
  return 2;
}
