/**
 * In-memory compiles for tests whose subject is not the loader: a workspace directory
 * (or the repository's example) read into memory, its config evaluated in this process
 * (jiti, no worker, no timeout), then compile({ files, config }). The loader and the
 * config worker keep their own end-to-end tests (test/check/rules.test.ts,
 * test/robustness/hostile-config.test.ts, test/load/memory-compile.test.ts).
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createJiti } from 'jiti';
import { compile, type CompileResult } from '../../src/compile.js';
import { CONFIG_NAMES } from '../../src/load/workspace.js';

const SELF = fileURLToPath(new URL('../../src/index.ts', import.meta.url));
const WORKSPACE_DIRS = ['cards', 'blocks', 'schemas/tools'];

/**
 * `files` with `edits` applied, by relative path: a pair replaces the first `from` with `to`
 * (and throws when the file does not hold `from`: an edit that silently did nothing would
 * make a test pass for the wrong reason); a string is the file's whole new text.
 */
export function withEdits(files: ReadonlyMap<string, Buffer>, edits: Record<string, readonly [string, string] | string>): Map<string, Buffer> {
  const changed = new Map(files);
  for (const [path, edit] of Object.entries(edits)) {
    if (typeof edit === 'string') {
      changed.set(path, Buffer.from(edit, 'utf8'));
      continue;
    }
    const text = changed.get(path)?.toString('utf8') ?? '';
    if (!text.includes(edit[0])) throw new Error(`test edit: ${path} does not contain ${JSON.stringify(edit[0])}`);
    changed.set(path, Buffer.from(text.replace(edit[0], edit[1]), 'utf8'));
  }
  return changed;
}

/** The workspace files under `root` (cards/, blocks/, schemas/tools/, the config) by relative path. */
export async function readWorkspace(root: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const dir of WORKSPACE_DIRS) {
    if (!existsSync(join(root, dir))) continue;
    for (const e of await readdir(join(root, dir), { withFileTypes: true, recursive: true })) {
      if (e.isFile()) files.set(relative(root, join(e.parentPath, e.name)).split('\\').join('/'), await readFile(join(e.parentPath, e.name)));
    }
  }
  // The config, and files named like one that agentc does not read (reported as such, as on disk).
  for (const name of await readdir(root)) if (/^agentc\.config\./i.test(name)) files.set(name, await readFile(join(root, name)));
  return files;
}

/** Evaluates a config's text in this process, as the config worker would (`agentc` resolves to this checkout). */
export async function evaluateConfigText(text: string, filename: string): Promise<unknown> {
  const jiti = createJiti(filename, { alias: { agentc: SELF, '@agentc/cli': SELF }, moduleCache: false, interopDefault: true });
  const mod = (await jiti.evalModule(text, { filename, async: true })) as { default?: unknown } | undefined;
  return mod && typeof mod === 'object' && 'default' in mod ? mod.default : mod;
}

/** compile({ root }) without the disk loader and the config worker: same files, same config value. */
export async function compileInMemory(root: string, options: { bundle?: boolean } = {}): Promise<CompileResult> {
  const files = await readWorkspace(root);
  const configName = CONFIG_NAMES.find((n) => files.has(n));
  if (configName === undefined) return compile({ files, ...options });
  const value = await evaluateConfigText(files.get(configName)!.toString('utf8'), join(root, configName));
  return compile({ files, config: { value }, ...options });
}
