/**
 * The whole pipeline on one screen: load → parse → resolve → check (→ emit).
 * Each phase reads only earlier phases' output and returns diagnostics instead
 * of throwing; a thrown error here is an agentc bug.
 */
import type { Bundle } from './bundle/types.js';
import { RULES, runChecks } from './check/index.js';
import { PersistentRuleMemos } from './check/rule-memo.js';
import { unrenderedBlocks } from './check/render-guard.js';
import { isConfigurable, isDefaultOff, isRuleId } from './diagnostics/catalog.js';
import { dedupeDiagnostics, DiagnosticBag, sortDiagnostics, type Diagnostic } from './diagnostics/diagnostic.js';
import { evaluateConfig, loadConfig, readConfigText, type ConfigLoad } from './load/config.js';
import { normalizeNewlines, SourceFile } from './load/source.js';
import { configInputsUnchanged, snapshotConfigInputs, type ConfigInputsSnapshot } from './load/config-inputs.js';
import type { ConfigInputs } from './load/config-value.js';
import {
  CONFIG_NAMES,
  findConfigPath,
  loadWorkspace,
  workspaceFiles,
  type FileCache,
  type LoadResult,
  type Overlay,
  type Workspace,
} from './load/workspace.js';
import { reloadChanged, trustedListing } from './load/reload.js';
import { memorySource } from './load/workspace-source.js';
import { parseWorkspace, type ParseCache } from './parse/index.js';
import type { RuleSetting } from './parse/types.js';
import { loadValidators } from './parse/validate.js';
import { resolveProgram } from './resolve/index.js';
import type { Program } from './resolve/types.js';
import { AGENTC_VERSION } from './version.js';
import { cacheDir, PersistentTokenStore } from './cache/token-store.js';
import { createEmitCache, type EmitCache } from './emit/cache.js';
import { PersistentBlockMemos, runBlockMemos } from './resolve/block-memo.js';
import { PersistentAgentMemos } from './resolve/agent-memo.js';
import { LastingMemos } from './resolve/run-memo.js';
import { TokenCounter } from './tokenize/counter.js';

/** A workspace on disk (the CLI, the language server, watch mode). */
export interface CompileOptions extends CommonOptions {
  /** Absolute workspace root. */
  root: string;
  /** Reuse parse results of unchanged files across compiles (watch mode). */
  cache?: CompileCache;
  /** Unsaved editor buffers by workspace-relative path, read instead of the disk (`agentc lsp`). */
  overlay?: Overlay;
  /** Use the persistent cache (token counts) under cacheDir(root); default true. */
  persistentCache?: boolean;
  /** Take the persistent cache's directory from this workspace root instead of `root` (diff's "before" side, in a temp dir). */
  cacheRoot?: string;
  /** The workspace as already read by the caller (the CLI reads it once to look up the result cache). */
  preloaded?: LoadResult;
  /**
   * With `cache`: every workspace-relative path that changed since the last compile with this
   * cache (watch mode's file events). Only these files are stamped and read; the rest of the last
   * listing is trusted (src/load/reload.ts says when it is not, and the load is then in full).
   */
  changed?: readonly string[];
  /**
   * With `cache`: leave the persistent token store unsaved; the caller saves it (`saveTokenCounts`)
   * once its own work for this compile is reported (watch mode: when idle, never in front of a status line).
   */
  deferTokenSave?: boolean;
}

interface CommonOptions {
  /** Also create the bundle (only when there are no errors). */
  bundle?: boolean;
  /** Told the phase and counts as the compile goes (the CLI's progress line). */
  progress?: ProgressSink;
}

/**
 * A workspace held in memory (library users, tests): no disk, no config worker.
 * Paths are workspace-relative with `/` (`cards/billing.yaml`); the config is given
 * as its value, since nothing is evaluated.
 */
export interface MemoryCompileOptions extends CommonOptions {
  /** File texts by workspace-relative path (bytes are read as a file's bytes: not-text is a diagnostic). */
  files: ReadonlyMap<string, string | Uint8Array> | Readonly<Record<string, string | Uint8Array>>;
  /**
   * The config: its value (what `defineConfig` returns) and, for ranges into it, its
   * source text (else `files`' entry for the config path, if any). Omitted: the
   * workspace has no config (then `files` must not name one).
   */
  config?: { value: unknown; text?: string; path?: (typeof CONFIG_NAMES)[number] };
}

/** Where a compile reports what it is doing; must be cheap (it is called once per agent). */
export interface ProgressSink {
  phase(name: string): void;
  add(counter: 'files read' | 'agents compiled' | 'files written', n?: number): void;
}

/**
 * Everything kept between compiles of one workspace (watch mode, the language
 * server) — the only place memos survive a compile; derived data of one run
 * lives on its Program (`program.memo`). Each store names its key, and a
 * compile with a cache equals a fresh compile (test/compile-cache.test.ts):
 * - `files`: by path, valid while size, mtime, ctime and inode are unchanged;
 * - `listing`: the last load's file list, trusted only for a compile given `changed`;
 * - `parsed`: by path, valid while the file's text is unchanged (parsing reads no config);
 * - `config`: by the config's text and a snapshot of what it read while loading
 *   (each file's SHA-256, each environment variable's value; src/load/config-inputs.ts);
 * - `blocks`: per-block derived data (context roots read, stable
 *   render and counts) by path + SHA-256 of the text (reads no config);
 * - `agents`: resolved agents by card id, under a key naming the config's value and the
 *   identities of the card and of every block, tool and card it names (src/resolve/agent-memo.ts);
 * - `rules`: the reports of each rule that declares what it reads, under a key naming the
 *   config and the identities of those parts (src/check/rule-memo.ts);
 * - `objects`: derived data of one parsed object each, by the object (src/resolve/run-memo.ts);
 * - `emit`: bundle entries by their inputs' identities under one config key
 *   (the resolved config + agentc version, src/emit/cache.ts);
 * - `tokens`: counts by (encoding, text), backed by the persistent store.
 * `invalidate` forgets what is known about some paths, or everything.
 */
export interface CompileCache {
  files: FileCache;
  parsed: ParseCache;
  config?: CachedConfig;
  /** The last load's listing, when it reported nothing (src/load/reload.ts): what `changed` is applied to. */
  listing?: Workspace;
  blocks: PersistentBlockMemos;
  agents: PersistentAgentMemos;
  rules: PersistentRuleMemos;
  objects: LastingMemos;
  emit: EmitCache;
  /** The session's token counter and its persistent store, made by the first compile. */
  tokens?: { counter: TokenCounter; store: PersistentTokenStore | undefined };
  /**
   * Forgets what is known about these files (workspace-relative, or absolute for
   * files the config imports), or everything when none are given. Never needed for
   * correctness (every key is checked on use); frees memory and forces re-reading.
   */
  invalidate(paths?: readonly string[]): void;
}

/** The last evaluated config, reusable while its fingerprint holds (`imports` known: it loaded). */
interface CachedConfig {
  text: string;
  load: ConfigLoad;
  /** What the config read (files hashed, environment variables with their values); undefined when it did not load: then it is evaluated again. */
  inputs: ConfigInputsSnapshot | undefined;
  /** Files to watch: these imports, or the last known ones while the config fails to load. */
  watch: string[];
}

export function createCompileCache(): CompileCache {
  const cache: CompileCache = {
    files: new Map(),
    parsed: new Map(),
    blocks: new PersistentBlockMemos(),
    agents: new PersistentAgentMemos(),
    rules: new PersistentRuleMemos(),
    objects: new LastingMemos(),
    emit: createEmitCache(),
    invalidate(paths) {
      if (!paths) {
        cache.files.clear();
        cache.listing = undefined;
        cache.parsed.clear();
        cache.blocks.invalidate();
        cache.agents.invalidate();
        cache.rules.invalidate();
        cache.objects = new LastingMemos();
        cache.config = undefined;
        cache.emit = createEmitCache();
        cache.tokens = undefined;
        return;
      }
      for (const p of paths) {
        cache.files.delete(p);
        cache.parsed.delete(p);
      }
      cache.blocks.invalidate(paths);
      const config = cache.config;
      if (config && paths.some((p) => p === config.load.file?.path || config.watch.includes(p))) cache.config = undefined;
    },
  };
  return cache;
}

/** The files (absolute paths) the config read while loading — the last known ones while it fails: watch mode watches them too. */
/** Saves the token counts compiles with `deferTokenSave` left unsaved (a no-op when none were added). */
export function saveTokenCounts(cache: CompileCache): void {
  cache.tokens?.store?.save();
}

export function configImports(cache: CompileCache): string[] {
  return cache.config?.watch ?? [];
}

export interface CompileResult {
  /** Sorted, with severities from the config applied and 'off' rules removed. */
  diagnostics: Diagnostic[];
  /** Every file read, by workspace-relative path (for code frames). */
  files: Map<string, SourceFile>;
  program: Program | undefined;
  /** Present when requested and there is no error. */
  bundle: Bundle | undefined;
  /** Set when the workspace itself could not be read (exit 2, not 1). */
  fatal: string | undefined;
  /** What the config's value was computed from besides its text, when it loaded (the result cache re-checks it). */
  configInputs?: ConfigInputs;
}

export async function compile(options: CompileOptions | MemoryCompileOptions): Promise<CompileResult> {
  options.progress?.phase('reading files');
  return 'files' in options ? compileLoaded(options, await loadMemory(options)) : compileLoaded(options, await loadDisk(options));
}

/** The load phase's output: the workspace and the config (or why there is nothing to compile). */
/** `config` is awaited by compileLoaded. */
type Loaded = { fatal: string } | { fatal: undefined; loaded: LoadResult; config: Promise<ConfigLoad | undefined> };

async function loadDisk(options: CompileOptions): Promise<Loaded> {
  const { root } = options;
  // The config is evaluated in a worker thread (tens of ms to start): started first, it runs while the files are read.
  const configPath = findConfigPath(root);
  const configLoad = configPath ? loadConfigCached(root, configPath, options.cache) : Promise.resolve(undefined);
  const reading = options.preloaded ? Promise.resolve(options.preloaded) : loadCached(options);
  const [loaded] = await Promise.all([reading, loadValidators()]);
  // Taken before the compile adds its own diagnostics to the load's bag.
  if (options.cache) options.cache.listing = trustedListing(loaded);
  if (loaded.fatal) {
    await configLoad;
    return { fatal: loaded.fatal };
  }
  const ws = loaded.workspace;
  const config = ws.configPath === configPath ? configLoad : ws.configPath ? loadConfigCached(root, ws.configPath, options.cache) : Promise.resolve(undefined);
  // Awaited by compileLoaded; a rejection meanwhile is not "unhandled" (the await still sees it).
  config.catch(() => undefined);
  return { fatal: undefined, loaded, config };
}

/** The workspace through the cache: only the changed files when the caller names them and the last listing holds. */
async function loadCached(options: CompileOptions): Promise<LoadResult> {
  const { cache, changed, root } = options;
  const last = cache?.listing;
  const quick = cache && last && changed && !options.overlay ? await reloadChanged(root, last, changed, cache.files) : undefined;
  return quick ?? loadWorkspace(root, cache?.files, options.overlay);
}

/** The same load from memory: the config's value is taken as given (it was evaluated by the caller). */
async function loadMemory(options: MemoryCompileOptions): Promise<Loaded> {
  const files = new Map<string, string | Uint8Array>(options.files instanceof Map ? options.files : Object.entries(options.files));
  const named = CONFIG_NAMES.filter((n) => files.has(n));
  const given = options.config;
  if (!given && named.length > 0) throw new Error(`compile({ files }): ${named[0]} cannot be evaluated in memory; pass its value as \`config\``);
  const configPath = given ? (given.path ?? named[0] ?? 'agentc.config.ts') : undefined;
  const text = given?.text ?? (configPath !== undefined ? files.get(configPath) : undefined);
  if (configPath !== undefined) files.set(configPath, '');
  const [loaded] = await Promise.all([loadWorkspace(memorySource(files)), loadValidators()]);
  if (loaded.fatal) return { fatal: loaded.fatal };
  const file =
    configPath !== undefined && text !== undefined
      ? new SourceFile(configPath, typeof text === 'string' ? normalizeNewlines(text) : new TextDecoder().decode(text))
      : undefined;
  const config = given && configPath !== undefined ? { file, value: given.value, error: undefined } : undefined;
  return { fatal: undefined, loaded, config: Promise.resolve(config) };
}

async function compileLoaded(
  options: CommonOptions & Partial<Pick<CompileOptions, 'root' | 'cache' | 'cacheRoot' | 'persistentCache' | 'deferTokenSave'>>,
  load: Loaded,
): Promise<CompileResult> {
  const root = options.root ?? '';
  const progress = options.progress;
  const files = new Map<string, SourceFile>();
  if (load.fatal !== undefined) return { diagnostics: [], files, program: undefined, bundle: undefined, fatal: load.fatal };
  const { loaded } = load;
  const ws = loaded.workspace;
  const bag: DiagnosticBag = loaded.diagnostics;
  for (const f of workspaceFiles(ws)) files.set(f.path, f);
  progress?.add('files read', files.size);
  progress?.phase('parsing');

  // A memory compile has no cache directory: its token counts live only in this run.
  const onDisk = options.root !== undefined;
  const tokens = options.cache?.tokens ?? openTokens(options.cacheRoot ?? root, onDisk && (options.persistentCache ?? true));
  if (options.cache) options.cache.tokens = tokens;
  const blocks = options.cache?.blocks.forRun() ?? runBlockMemos();
  // The config first: its load is bounded by a timer, which a busy main thread would let expire unseen.
  const config = await load.config;
  if (config?.file) {
    files.set(config.file.path, config.file);
    progress?.add('files read');
  }
  const parsed = parseWorkspace(ws, config, bag, options.cache?.parsed);
  await yieldToEventLoop();
  progress?.phase('compiling agents');
  const program = resolveProgram(
    root,
    parsed,
    files,
    { tokens: tokens.counter, blocks, ...(options.cache ? { agents: options.cache.agents, lasting: options.cache.objects } : {}) },
    progress ? () => progress.add('agents compiled') : undefined,
  );
  options.cache?.blocks.retain(new Set(ws.blocks.map((f) => f.path)));
  if (!(options.cache && options.deferTokenSave)) tokens.store?.save();
  if (options.cache) tokens.counter.endRun();
  await yieldToEventLoop();
  progress?.phase('checking');
  bag.pushAll(runChecks(program, RULES, options.cache?.rules));

  const settled = applyRuleSettings(
    bag.items.map((d) => insideFiles(d, files)),
    parsed.config.data.rules,
  );
  // A block that cannot render is an error whatever the settings: a rules entry changes a severity, never the prompt.
  settled.push(...unrenderedBlocks(program, settled).map((d) => insideFiles(d, files)));
  const diagnostics = sortDiagnostics(dedupeDiagnostics(settled));
  const hasError = diagnostics.some((d) => d.severity === 'error');
  // The emitter is loaded only when a bundle is asked for (`check` never loads it).
  const bundle = options.bundle && !hasError ? (await import('./emit/bundle.js')).createBundle(program, AGENTC_VERSION, options.cache?.emit) : undefined;
  return { diagnostics, files, program, bundle, fatal: undefined, ...(config?.inputs ? { configInputs: config.inputs } : {}) };
}

/**
 * Invariant of every report: a range lies inside its file and never ends past
 * the end of its line. Phases compute exact ranges; this keeps an off-by-one at
 * the end of a line (a one-character range on an empty line) from reaching users.
 */
function insideFiles(d: Diagnostic, files: ReadonlyMap<string, SourceFile>): Diagnostic {
  const own = d.file !== undefined && d.range ? files.get(d.file) : undefined;
  const related = d.related?.map((r) => {
    const f = r.range ? files.get(r.file) : undefined;
    return f && r.range ? { ...r, range: f.clampRange(r.range) } : r;
  });
  if (!own && !related) return d;
  return { ...d, ...(own && d.range ? { range: own.clampRange(d.range) } : {}), ...(related ? { related } : {}) };
}

/** The run's token counter, backed by the persistent store when there is a cache directory. */
function openTokens(root: string, persistent: boolean): { counter: TokenCounter; store: PersistentTokenStore | undefined } {
  const dir = persistent ? cacheDir(root) : undefined;
  const store = dir === undefined ? undefined : PersistentTokenStore.open(dir, AGENTC_VERSION);
  return { counter: new TokenCounter(store), store };
}

/** Lets timers run between the synchronous phases (the CLI's progress indicator on large workspaces). */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Re-evaluates the config only when its fingerprint changed: its text, every
 * file it read while loading (path + content hash) and the environment variables
 * it read. A config that did not load is evaluated again on every compile (what
 * it would have read next is unknown).
 */
async function loadConfigCached(root: string, path: string, cache: CompileCache | undefined): Promise<ConfigLoad> {
  if (!cache) return loadConfig(root, path);
  const read = readConfigText(root, path);
  if (!read.ok) return { file: undefined, value: undefined, error: read.error };
  const text = read.file.text;
  const hit = cache.config;
  if (hit?.inputs && hit.text === text && configInputsUnchanged(hit.inputs, process.env)) return hit.load;
  const load = await evaluateConfig(root, read.file);
  // Hashed right after the evaluation (as the result cache does, src/cache/check-result.ts): an edit that lands between the
  // worker's read and this hash is taken for evaluated until the file changes again.
  const inputs = load.inputs ? snapshotConfigInputs(load.inputs) : undefined;
  cache.config = { text, load, inputs, watch: inputs ? Object.keys(inputs.files) : (hit?.watch ?? []) };
  return load;
}

/** `rules: { 'volatile-in-prefix': 'off' | 'warning' | 'error' }` in the config (also applied to suites `agentc eval` names). */
export function applyRuleSettings(ds: Diagnostic[], rules: Record<string, RuleSetting>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of ds) {
    const setting = isRuleId(d.rule) && isConfigurable(d.rule) ? rules[d.rule] : undefined;
    if (setting === 'off' || (setting === undefined && isRuleId(d.rule) && isDefaultOff(d.rule))) continue;
    out.push(setting ? { ...d, severity: setting } : d);
  }
  return out;
}
