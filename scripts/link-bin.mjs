#!/usr/bin/env node
// Makes `npx agentc …` run this checkout's CLI from the repo root (npm links a
// package's bins only into its dependents, never into itself; without this link
// npx would fetch an unrelated registry package named "agentc"). Runs on
// `npm ci` / `npm install` through the `prepare` script.
import { chmodSync, existsSync, lstatSync, mkdirSync, symlinkSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const binDir = join(root, 'node_modules', '.bin');
if (existsSync(join(root, 'node_modules'))) {
  mkdirSync(binDir, { recursive: true });
  const link = join(binDir, 'agentc');
  try {
    if (lstatSync(link)) unlinkSync(link);
  } catch {
    // no previous link
  }
  symlinkSync('../../bin/agentc.js', link);
  chmodSync(join(root, 'bin', 'agentc.js'), 0o755);
}
