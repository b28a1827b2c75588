/** In-process runs of `agentc import` / `agentc export` into temporary directories. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';
import type { CliIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

export const SAMPLES = join(import.meta.dirname, 'samples');

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

export function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'agentc-import-'));
  dirs.push(d);
  return d;
}

export async function agentc(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), cwd, env: {}, isTTY: false };
  const code = await main(args, io);
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
