/**
 * Whether a config would evaluate to the same value again: a snapshot of what it
 * read while loading (ConfigInputs — the files, hashed now, and the environment
 * variables with their values) and the test that the snapshot still holds. One
 * mechanism for both caches that skip re-evaluating a config: the in-process
 * CompileCache (src/compile.ts) and the persistent result cache
 * (src/cache/check-result.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ConfigInputs } from './config-value.js';

export interface ConfigInputsSnapshot {
  /** Absolute path → sha256 of its bytes when the snapshot was taken (null: unreadable). */
  files: Record<string, string | null>;
  /** As recorded by the worker; `'all'` when the config enumerated the environment. */
  env: ConfigInputs['env'];
}

/** The inputs with their files hashed now (right after the evaluation that reported them). */
export function snapshotConfigInputs(inputs: ConfigInputs): ConfigInputsSnapshot {
  const files: Record<string, string | null> = {};
  for (const path of inputs.files) files[path] = fileSha256(path);
  return { files, env: inputs.env };
}

/**
 * Whether every file still has its hash and every variable its value. `'all'` counts
 * as unchanged: it stands for the process's own environment (the persistent cache
 * never stores such a snapshot).
 */
export function configInputsUnchanged(snapshot: ConfigInputsSnapshot, env: Record<string, string | undefined>): boolean {
  if (snapshot.env !== 'all') for (const [name, value] of Object.entries(snapshot.env)) if ((env[name] ?? null) !== value) return false;
  for (const [path, hash] of Object.entries(snapshot.files)) if (fileSha256(path) !== hash) return false;
  return true;
}

/** The sha256 of a file's bytes, or null when it cannot be read. */
export function fileSha256(path: string): string | null {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return null;
  }
}
