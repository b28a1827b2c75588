/** In-process runs of `agentc import` / `agentc export` into temporary directories. */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CliIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { sharedConfigs } from '../helpers/shared-config.js';
import { tempDir as suiteTempDir } from '../helpers/temp-dirs.js';

export const SAMPLES = join(import.meta.dirname, 'samples');

/** A fresh directory, removed after the test file (test/helpers/temp-dirs.ts). */
export function tempDir(): string {
  return suiteTempDir('agentc-import-');
}

export async function agentc(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  // The check that `import` runs reuses a config evaluated by an earlier run with the same config text
  // (test/helpers/shared-config.ts): most imports write the same agentc.config.ts.
  const configs = sharedConfigs();
  const io: CliIO = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), cwd, env: {}, isTTY: false, compileCache: configs.compileCache };
  const code = await main(args, io);
  configs.settle();
  return { code, stdout, stderr };
}

/** Writes `files` (path → text) under `root`. */
export async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [p, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, p)), { recursive: true });
    await writeFile(join(root, p), text);
  }
}

export function read(root: string, p: string): string {
  return readFileSync(join(root, p), 'utf8');
}
