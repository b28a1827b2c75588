/**
 * `agentc diff`: compile the workspace twice in memory — the "before" side from a
 * git ref or a directory, the "after" side from the working tree — and report
 * what the change does to the bundle (docs/cli.md#agentc-diff). Needs no generated/.
 *
 * Exit codes: 0 no change at or above --fail-on; 1 such a change, or a side that
 * does not compile (its errors are printed, prefixed with the side); 2 agentc
 * cannot do the job (unknown ref, no repository, unreadable workspace).
 *
 * Both sides are looked up in the persistent bundle cache (src/cache/bundle-cache.ts)
 * by their workspace key before anything is compiled; a commit's tree is kept at a
 * stable path (node_modules/.cache/agentc-diff/before-<commit>, or under
 * AGENTC_CACHE_DIR) and reused.
 *
 * Invariants: a "before" tree outside a cache directory is always deleted, whatever
 * happens; the working tree, the index and generated/ are never written; stdout
 * carries only the report (messages go to stderr).
 */
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { makeDirs } from '../../make-dirs.js';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { DEFAULT_FAN_OUT_CAP, DEFAULT_TOOL_PREFIX } from '../../bundle/defaults.js';
import { BUNDLE_FORMAT_VERSION, type Bundle } from '../../bundle/types.js';
import type { Program } from '../../resolve/types.js';
import { loadBundleJson } from '../../runtime/load-bundle.js';
import { BundleCache } from '../../cache/bundle-cache.js';
import { ResultCache, storedConfigInputs } from '../../cache/check-result.js';
import { compile, type CompileResult } from '../../compile.js';
import { createBundle } from '../../emit/bundle.js';
import { createEmitCache } from '../../emit/cache.js';
import { bundleJsonChunks } from '../../emit/fragments.js';
import { didYouMean } from '../../diagnostics/did-you-mean.js';
import { renderText as renderDiagnostics } from '../../diagnostics/render/text.js';
import { diffBundles } from '../../diff/compare.js';
import { unchangedAgents } from '../../diff/same-agents.js';
import { partialSide, type DigestedSide } from '../../diff/partial-side.js';
import { agentDigests } from '../../emit/agent-digest.js';
import { defaultBase, findRepo, materializeTree, refNames, resolveCommit, tempParent } from '../../diff/git.js';
import { renderJson } from '../../diff/render-json.js';
import { renderMarkdown } from '../../diff/render-markdown.js';
import { renderText } from '../../diff/render-text.js';
import { levelRank, type BundleDiff, type ChangeLevel } from '../../diff/types.js';
import { CONFIG_NAMES } from '../../load/workspace.js';
import { AGENTC_VERSION } from '../../version.js';
import { EXIT, useColor, type CliIO, cacheFor } from '../io.js';
import { withProgress } from '../progress.js';
import { readForCache, storable } from '../reuse.js';
import { readBuildId } from '../../cache/build-id.js';
import { cacheDir } from '../../cache/token-store.js';

export interface DiffOptions {
  /** Workspace root (the "after" side), resolved against io.cwd. */
  cwd: string;
  /** A directory (when one exists at that path) or a git ref; default: merge base with the default branch. */
  against?: string;
  format: 'markdown' | 'json' | 'text';
  failOn: 'breaking' | 'dangerous' | 'none';
  /** Write the report here (resolved against io.cwd) instead of stdout. */
  output?: string;
  /** `--eval SUITE`: run a routing suite on both sides (src/cli/diff-eval.ts). */
  eval?: { suite: string; script?: string; endpoint?: string };
}

/**
 * A side that compiled, or the exit code to stop with. `json`: its bundle.json bytes (not for the empty side, nor
 * a partial one); `digests`: each agent's inputs digest, when known; `unchanged`: a partial side's agents known equal
 * to the other side's.
 */
type Side =
  { bundle: Bundle; label: string; program?: Program; json?: Buffer; digests?: ReadonlyMap<string, string>; unchanged?: Set<string> } | { exit: number };

export async function diffCommand(opts: DiffOptions, io: CliIO): Promise<number> {
  const root = resolve(io.cwd, opts.cwd);
  if (opts.eval !== undefined && opts.format === 'json') {
    io.stderr('agentc diff: --eval adds a section to the markdown or text report; use agentc eval --format json for data.\n');
    return EXIT.failure;
  }
  if (!isDirectory(root)) {
    io.stderr(`agentc diff: cannot read workspace directory ${root}\n`);
    return EXIT.failure;
  }

  const needProgram = opts.eval !== undefined;
  const before = await beforeSide(root, opts.against, io, needProgram);
  if ('exit' in before && before.exit === EXIT.failure) return EXIT.failure;
  // The working tree is built only where its agents differ from a cached "before" (partial-side.ts); the hash only when the report shows it.
  const partial =
    'exit' in before || before.json === undefined || before.digests === undefined
      ? undefined
      : { bundle: before.bundle, json: before.json, digests: before.digests };
  const after = await compileSide(root, 'after', 'working tree', io, needProgram, root, undefined, partial && { from: partial, hash: opts.format === 'json' });
  if ('exit' in before || 'exit' in after) {
    return Math.max('exit' in before ? before.exit : 0, 'exit' in after ? after.exit : 0);
  }

  // Agents whose bundle.json bytes (and all they refer to), or inputs digests, are the same on both sides are not read: a cached side's prompts stay unjoined.
  const unchanged = after.unchanged ?? (before.json !== undefined && after.json !== undefined ? unchangedAgents(before.json, after.json) : undefined);
  const diff = diffBundles(before.bundle, after.bundle, unchanged ? { unchanged } : {});
  const labels = { beforeLabel: before.label, afterLabel: after.label };
  const toFile = opts.output !== undefined;
  let evalSection = '';
  if (opts.eval !== undefined) {
    const { diffEvalSection } = await import('../diff-eval.js');
    const section = await diffEvalSection(root, opts.eval, { before, after }, io);
    if (typeof section !== 'string') return section.exit;
    evalSection = `\n${section}`;
  }
  const report =
    (opts.format === 'json'
      ? renderJson(diff, labels)
      : opts.format === 'markdown'
        ? renderMarkdown(diff, labels)
        : renderText(diff, { ...labels, color: !toFile && useColor(io) })) + evalSection;
  if (toFile) {
    const file = resolve(io.cwd, opts.output!);
    try {
      await writeFile(file, report);
    } catch (e) {
      io.stderr(`agentc diff: cannot write ${file}: ${(e as Error).message}\n`);
      return EXIT.failure;
    }
  } else {
    io.stdout(report);
  }
  return failsOn(diff, opts.failOn) ? EXIT.findings : EXIT.ok;
}

/** True when a change at or above `level` exists. */
export function failsOn(diff: BundleDiff, level: DiffOptions['failOn']): boolean {
  if (level === 'none') return false;
  const min = levelRank(level as ChangeLevel);
  return diff.changes.some((c) => levelRank(c.level) >= min);
}

async function beforeSide(root: string, against: string | undefined, io: CliIO, needProgram: boolean): Promise<Side> {
  if (against !== undefined && against !== '') {
    const dir = resolve(io.cwd, against);
    if (isDirectory(dir)) return compileSide(dir, 'before', displayDir(dir, io.cwd), io, needProgram, root);
  }
  const found = await findRepo(root);
  if ('error' in found) {
    const what = against === undefined ? 'to compare with the default branch' : `to resolve "${against}" (no such directory either)`;
    io.stderr(`agentc diff: ${found.error}; a git repository is needed ${what}. Pass --against DIR to compare with another workspace directory.\n`);
    return { exit: EXIT.failure };
  }

  let commit: string;
  let label: string;
  if (against !== undefined && against !== '') {
    const resolved = await resolveCommit(root, against);
    if (resolved === undefined) {
      const hint = didYouMean(against, await refNames(root));
      io.stderr(
        `agentc diff: --against "${against}" is neither a directory nor a git ref (branch, tag or commit) of ${found.repo.top}.${hint ? ` ${hint}` : ''}\n`,
      );
      return { exit: EXIT.failure };
    }
    commit = resolved;
    // A commit id (full or abbreviated) is its own label; a name also shows the commit.
    label = /^[0-9a-f]{4,40}$/.test(against) && resolved.startsWith(against) ? resolved.slice(0, 7) : `${against} (${resolved.slice(0, 7)})`;
  } else {
    const base = await defaultBase(root, io.env);
    if ('error' in base) {
      io.stderr(`agentc diff: ${base.error}\n`);
      return { exit: EXIT.failure };
    }
    ({ commit, label } = base);
  }

  // An explicit cache directory (AGENTC_CACHE_DIR) holds the trees too; else node_modules/.cache/agentc-diff above the workspace.
  const explicitCache = io.env['AGENTC_CACHE_DIR'];
  let parent = explicitCache ? join(explicitCache, 'agentc-diff') : tempParent(root, existsSync, tmpdir());
  try {
    await makeDirs(parent, { stat, mkdir: (d) => mkdir(d) });
    await sweepStale(parent);
  } catch {
    parent = tmpdir(); // node_modules not writable: the OS temp dir still works for most configs
  }
  // Under node_modules/.cache: a stable path per commit (the tree of a commit never changes),
  // made once and reused by later diffs against the same commit, so nothing is re-read from git
  // and the config loader's own cache (keyed by path) hits; made in a private directory and
  // renamed into place whole. In the OS temp dir: a private tree, removed after use.
  const keep = parent !== tmpdir();
  const dir = keep ? join(parent, `before-${commit}`) : await mkdtemp(join(parent, 'before-'));
  const done = `${dir}.done`;
  try {
    let tree: TreeMarker | { error: string };
    if (!keep) tree = await materializeTree(root, commit, found.repo.prefix, dir);
    else if (existsSync(done) && existsSync(dir)) tree = await readMarker(done);
    else tree = await materializeOnce(root, commit, found.repo.prefix, dir, done);
    if ('error' in tree) {
      io.stderr(`agentc diff: cannot read ${label} from git: ${tree.error}\n`);
      return { exit: EXIT.failure };
    }
    const now = new Date();
    if (keep) await utimes(done, now, now).catch(() => undefined); // last used: kept for a day after that
    // No workspace at that commit (it is being introduced): everything is new.
    if (!tree.exists || !CONFIG_NAMES.some((n) => existsSync(join(dir, n)))) {
      return { bundle: emptyBundle(), label: `${label}, no agentc workspace` };
    }
    const known = keep ? { marker: done, tree, key: tree.key } : undefined;
    return await compileSide(dir, 'before', label, io, needProgram, root, known);
  } finally {
    if (!keep) await rm(dir, { recursive: true, force: true });
  }
}

/**
 * What `before-<commit>.done` records of a kept tree: whether it holds a workspace,
 * and (once known) its workspace key as computed by one agentc build — the tree of
 * a commit never changes, so a later diff by the same build looks its bundle up
 * without reading the tree again.
 */
interface TreeMarker {
  exists: boolean;
  key?: { build: string; key: string };
}

/** The marker of a kept tree; an unreadable one says the tree holds no workspace only when it cannot be parsed at all. */
async function readMarker(done: string): Promise<TreeMarker> {
  try {
    const m = JSON.parse(await readFile(done, 'utf8')) as Partial<TreeMarker>;
    const k = m.key;
    const key = k !== undefined && typeof k.build === 'string' && typeof k.key === 'string' ? { key: { build: k.build, key: k.key } } : {};
    return { exists: m.exists === true, ...key };
  } catch {
    return { exists: false };
  }
}

/** Rewrites the marker whole (a temp file renamed over it): a reader sees the old or the new one. */
async function writeMarker(done: string, marker: TreeMarker): Promise<void> {
  const tmp = `${done}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, `${JSON.stringify(marker)}\n`);
    await rename(tmp, done);
  } catch {
    await rm(tmp, { force: true }).catch(() => undefined);
  }
}

/** Writes the commit's tree to a private directory, then renames it to `dir` (another diff may have won the race: then its copy is used). */
async function materializeOnce(root: string, commit: string, prefix: string, dir: string, done: string): Promise<TreeMarker | { error: string }> {
  const staging = await mkdtemp(`${dir}.tmp-`);
  try {
    const tree = await materializeTree(root, commit, prefix, staging);
    if ('error' in tree) return tree;
    await rm(dir, { recursive: true, force: true });
    try {
      await rename(staging, dir);
    } catch {
      if (!existsSync(done)) return { error: `cannot move the tree into ${dir}` };
    }
    await writeFile(done, JSON.stringify({ exists: tree.exists }) + '\n');
    return { exists: tree.exists };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * One side's bundle. Without --eval (which needs the side's Program), the side is
 * first looked up in the persistent bundle cache by its workspace key (the same key
 * as the result cache); on a miss it is compiled, and an error-free bundle is stored
 * for next time — the working tree's result also goes to the result cache, so a
 * `check` after the diff is warm. `cacheRoot`: the real workspace, whose persistent
 * cache both sides share (most token counts are equal).
 */
async function compileSide(
  root: string,
  side: 'before' | 'after',
  label: string,
  io: CliIO,
  needProgram: boolean,
  cacheRoot = root,
  known?: { marker: string; tree: TreeMarker; key: TreeMarker['key'] },
  partial?: { from: DigestedSide; hash: boolean },
): Promise<Side> {
  // A kept commit tree whose key this build computed before: looked up without reading the tree.
  const build = known?.key === undefined || needProgram ? undefined : (io.buildId ?? readBuildId());
  const dir = build === undefined ? undefined : cacheDir(cacheRoot, io.env);
  if (build !== undefined && dir !== undefined && known?.key?.build === build) {
    const hit = BundleCache.open(dir, AGENTC_VERSION, build).lookupEntry(known.key.key, io.env);
    const loaded = hit === undefined ? undefined : loadCached(hit.json);
    if (loaded !== undefined) return { bundle: loaded, json: hit!.json, label, ...(hit!.digests ? { digests: hit!.digests } : {}) };
  }
  const read = needProgram ? undefined : await readForCache(root, io.env, cacheRoot, io.buildId);
  if (known !== undefined && read !== undefined && (known.key?.build !== read.build || known.key.key !== read.key)) {
    await writeMarker(known.marker, { ...known.tree, key: { build: read.build, key: read.key } });
  }
  const bundles = read === undefined ? undefined : BundleCache.open(read.dir, AGENTC_VERSION, read.build);
  const cached = read === undefined ? undefined : bundles?.lookupEntry(read.key, io.env);
  const loaded = cached === undefined ? undefined : loadCached(cached.json);
  if (loaded !== undefined) return { bundle: loaded, json: cached!.json, label, ...(cached!.digests ? { digests: cached!.digests } : {}) };

  const result: CompileResult = await withProgress(io, `Compiling ${side} (${label})`, (progress) =>
    compile({ root, cacheRoot, progress, ...(read ? { preloaded: read.loaded } : {}), ...cacheFor(io, root) }),
  );
  if (result.fatal) {
    io.stderr(`agentc diff: ${side} side (${label}): ${result.fatal}\n`);
    return { exit: EXIT.failure };
  }
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0 || result.program === undefined) {
    io.stderr(`agentc diff: the ${side} side (${label}) does not compile:\n`);
    // One line per diagnostic; the reporter's closing summary line is left out.
    const lines = renderDiagnostics(errors, { color: false, toolVersion: AGENTC_VERSION }).split('\n').slice(0, errors.length);
    for (const line of lines) io.stderr(`${side}: ${line}\n`);
    return { exit: EXIT.findings };
  }
  const config = read !== undefined && storable(read, result) ? storedConfigInputs(result.configInputs) : 'untrackable';
  // The working tree's result goes to the result cache, so a `check` after the diff is warm.
  if (side === 'after' && read !== undefined && config !== 'untrackable')
    ResultCache.open(read.dir, AGENTC_VERSION, read.build).store(read.key, config, result.diagnostics);
  // Only the agents that differ from the cached other side are built; this side is then not stored (it is cheap to make again).
  const part = partial === undefined || needProgram ? undefined : partialSide(result.program, AGENTC_VERSION, partial.from, { hash: partial.hash });
  if (part !== undefined) return { bundle: part.bundle, label, unchanged: part.unchanged };
  // The bundle is made here (as compile would) with an EmitCache of our own, so its bundle.json bytes come from emit's layout.
  const emit = createEmitCache({ once: true });
  const bundle = createBundle(result.program, AGENTC_VERSION, emit);
  const json = Buffer.concat(bundleJsonChunks(bundle, emit));
  // Each agent's inputs digest, kept by the base side and stored with any side (a working tree stored now may be a
  // base commit's tree later), so the other side builds only what changed.
  const store = read !== undefined && bundles !== undefined && config !== 'untrackable';
  const digests = (side === 'before' && !needProgram) || store ? agentDigests(result.program, AGENTC_VERSION) : undefined;
  if (store) bundles.store(read.key, config, json, digests);
  return { bundle, json, label, ...(digests ? { digests } : {}), ...(needProgram ? { program: result.program } : {}) };
}

/**
 * A cached side's bundle.json, loaded lazily by the runtime's loader: the format
 * and top-level tables checked now, an agent read (and its prompts joined and
 * their sha256 checked) when first used. Unreadable: undefined (then it is compiled).
 */
function loadCached(json: Buffer): Bundle | undefined {
  try {
    return loadBundleJson(json);
  } catch {
    return undefined;
  }
}

/** Trees of commits not diffed against for a day, and staging left by an interrupted run (a kill skips `finally`): removed. */
async function sweepStale(parent: string): Promise<void> {
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    if (!name.startsWith('before-') || name.endsWith('.done')) continue;
    const path = join(parent, name);
    const marker = await stat(`${path}.done`).catch(() => undefined);
    const s = marker ?? (await stat(path).catch(() => undefined));
    if (s !== undefined && s.mtimeMs < dayAgo) {
      await rm(`${path}.done`, { force: true }).catch(() => undefined);
      await rm(path, { recursive: true, force: true }).catch(() => undefined);
    }
  }
}

function emptyBundle(): Bundle {
  return {
    formatVersion: BUNDLE_FORMAT_VERSION,
    agentcVersion: AGENTC_VERSION,
    hash: '',
    models: {},
    flags: [],
    dynamicContext: { fields: [], template: '' },
    dynamicContextAst: [],
    dispatchDefaults: { toolPrefix: DEFAULT_TOOL_PREFIX, fanOutCap: DEFAULT_FAN_OUT_CAP },
    tools: {},
    agents: {},
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function displayDir(dir: string, cwd: string): string {
  const rel = relative(cwd, dir);
  return rel === '' ? '.' : rel.startsWith('..') ? dir : rel;
}
