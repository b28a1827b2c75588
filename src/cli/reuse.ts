/**
 * `check` and `build` through the persistent result cache (src/cache/check-result.ts):
 * the workspace is read once; when the stored result was computed from exactly these
 * inputs it is returned without loading the config, the parsers or the tokenizer
 * (the compiler is imported only on a miss). `AGENTC_CACHE_DIR=` (empty) turns it off.
 */
import { readBuildId } from '../cache/build-id.js';
import { ResultCache, storedConfigInputs, workspaceKey, type StoredResult } from '../cache/check-result.js';
import { cacheDir } from '../cache/token-store.js';
import type { CompileOptions, CompileResult } from '../compile.js';
import { readConfigText } from '../load/config.js';
import type { SourceFile } from '../load/source.js';
import { loadWorkspace, workspaceFiles, type LoadResult } from '../load/workspace.js';
import { AGENTC_VERSION } from '../version.js';

/** The workspace as read for the lookup, and what to store a full result under. */
export interface Reusable {
  cache: ResultCache;
  key: string;
  loaded: LoadResult;
  configText: string | undefined;
  /** Every file read, by workspace-relative path (for code frames). */
  files: Map<string, SourceFile>;
  /** The stored result for these inputs, if there is one. */
  hit: StoredResult | undefined;
}

/** The workspace as read for a cache lookup: its key, and what a compile on a miss reuses. */
export interface ReadWorkspace {
  key: string;
  loaded: LoadResult;
  configText: string | undefined;
  /** Every file read, by workspace-relative path (for code frames). */
  files: Map<string, SourceFile>;
  /** The cache directory (token-store.ts `cacheDir`) and the running build's id. */
  dir: string;
  build: string;
}

/**
 * Reads the workspace at `root` once and computes its key (check-result.ts
 * `workspaceKey`); undefined when there is no cache to use. `cacheRoot`: whose cache
 * directory to use (diff's "before" tree uses the real workspace's). `build`: the running
 * build's id (CliIO `buildId`; by default dist/build-id.json's).
 */
export async function readForCache(
  root: string,
  env: NodeJS.ProcessEnv,
  cacheRoot = root,
  build: string | undefined = readBuildId(),
): Promise<ReadWorkspace | undefined> {
  const dir = cacheDir(cacheRoot, env);
  if (dir === undefined || build === undefined) return undefined;
  const loaded = await loadWorkspace(root);
  if (loaded.fatal !== undefined) return undefined;
  const files = new Map<string, SourceFile>();
  for (const f of workspaceFiles(loaded.workspace)) files.set(f.path, f);
  let configText: string | undefined;
  const configPath = loaded.workspace.configPath;
  if (configPath !== undefined) {
    const read = readConfigText(root, configPath);
    if (!read.ok) return undefined;
    configText = read.file.text;
    files.set(read.file.path, read.file);
  }
  return { key: workspaceKey(loaded, configText), loaded, configText, files, dir, build };
}

/** Reads the workspace and looks its result up; undefined when there is no cache to use (then compile as usual). */
export async function lookupResult(root: string, env: NodeJS.ProcessEnv, build?: string): Promise<Reusable | undefined> {
  const read = await readForCache(root, env, root, build);
  if (read === undefined) return undefined;
  const cache = ResultCache.open(read.dir, AGENTC_VERSION, read.build);
  return { cache, key: read.key, loaded: read.loaded, configText: read.configText, files: read.files, hit: cache.lookup(read.key, env) };
}

/** A full compile of the workspace already read (imports the compiler), stored for next time when it can be. */
export async function compileAndStore(reuse: Reusable | undefined, options: CompileOptions): Promise<CompileResult> {
  const { compile } = await import('../compile.js');
  const result = await compile({ ...options, ...(reuse ? { preloaded: reuse.loaded } : {}) });
  if (reuse !== undefined && storable(reuse, result)) {
    const config = storedConfigInputs(result.configInputs);
    if (config !== 'untrackable') reuse.cache.store(reuse.key, config, result.diagnostics);
  }
  return result;
}

/**
 * A result is stored only when it is a function of the inputs the key names: the
 * workspace was read, the config (if any) loaded and reported what it read, and the
 * config's text did not change while the compile ran.
 */
export function storable(reuse: Pick<Reusable, 'loaded' | 'configText'>, result: CompileResult): boolean {
  if (result.fatal !== undefined || result.diagnostics.some((d) => d.rule === 'config-load')) return false;
  const configPath = reuse.loaded.workspace.configPath;
  if (configPath === undefined) return true;
  return result.configInputs !== undefined && result.files.get(configPath)?.text === reuse.configText;
}
