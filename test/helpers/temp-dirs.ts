/**
 * Temp directories a test file makes and does not have to remove itself: each is removed
 * after the file's tests (test/setup/temp-dirs.ts registers the hook for every file).
 * A hook registered by a shared helper module would run for the first file that imports
 * it only: with `isolate: false` a worker imports the module once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** This worker's temp directories not yet removed (an explicit registry, emptied after each file). */
const live = new Set<string>();

/** A new directory `<os temp dir>/<prefix>XXXXXX`, removed after the current test file. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  live.add(dir);
  return dir;
}

/** Removes every directory tempDir made so far (the setup file calls it after each test file). */
export function removeTempDirs(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
}
