/**
 * Workspace discovery: the root is the nearest directory, from the start
 * directory up to the filesystem root, that holds an agentc config file (as tsc,
 * eslint and vite find theirs). Without one anywhere above, the start directory
 * itself is the root (a workspace may have cards/ and blocks/ but no config);
 * so is a start that is not a directory, for the loader to report as such.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CONFIG_NAMES } from './workspace.js';

export function findWorkspaceRoot(start: string): string {
  const from = resolve(start);
  if (statSync(from, { throwIfNoEntry: false })?.isDirectory() !== true) return from;
  for (let dir = from; ; dir = dirname(dir)) {
    if (CONFIG_NAMES.some((name) => existsSync(join(dir, name)))) return dir;
    if (dirname(dir) === dir) return from;
  }
}
