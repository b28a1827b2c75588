/**
 * Load phase: find the workspace's files and read them as normalized text.
 * Where they live is the layout (src/load/layout.ts):
 *
 *   cards/<id>.yaml                      (also .yml)
 *   blocks/**\/<id>.md
 *   schemas/tools/<name>.{yaml,yml,json}
 *   agentc.config.ts                     (also .mts, .js, .mjs)
 *   evals/<name>.yaml                    (also .yml; eval suites, top level only)
 *
 * Invariants: file lists are sorted by path (output never depends on the file
 * system's order); a file that is not text or is too large becomes a diagnostic
 * and is left out; a folder is never read as empty because it cannot be read:
 * an unreadable root, cards/, blocks/ or schemas/tools/ is fatal (exit 2, named),
 * an unreadable blocks/ sub-folder a diagnostic naming it; a root with none of
 * the workspace's entries (config, cards/, blocks/, schemas/) is fatal too.
 */
import { readdirSync } from 'node:fs';
import { sep } from 'node:path';
import { DiagnosticBag } from '../diagnostics/diagnostic.js';
import { hasExtension, WORKSPACE_LAYOUT, type SourceDir } from './layout.js';
import { decodeText, SourceFile } from './source.js';
import { diskSource, specialKind, type DirEntry, type WorkspaceSource } from './workspace-source.js';

/** Larger files are refused: no prompt block or card is legitimately this big. */
export const MAX_FILE_BYTES = 1024 * 1024;

export const CONFIG_NAMES = ['agentc.config.ts', 'agentc.config.mts', 'agentc.config.js', 'agentc.config.mjs'];

/** The config file's name in `root`, if it has one (synchronous: called before anything else is read). */
export function findConfigPath(root: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return undefined;
  }
  return CONFIG_NAMES.find((n) => names.includes(n));
}

export interface Workspace {
  root: string;
  cards: SourceFile[];
  blocks: SourceFile[];
  tools: SourceFile[];
  /** Eval suites (evals/*.yaml, not sub-folders: evals/scripts/ holds route scripts). */
  evals?: SourceFile[];
  /** Workspace-relative path of the config file, if there is one. */
  configPath: string | undefined;
  /** When there is none: a root entry named like a config that agentc does not read (e.g. agentc.config.cjs). */
  configLookalike?: string;
  /** Block sub-folders that could not be read (each already a diagnostic): any block id may be in them. */
  unreadDirs?: string[];
  /** Entries named like workspace files that are not regular files (each already a diagnostic). */
  notFiles?: string[];
}

export interface LoadResult {
  workspace: Workspace;
  diagnostics: DiagnosticBag;
  /** Set when the root itself cannot be read: agentc cannot do its job (exit 2). */
  fatal: string | undefined;
}

/**
 * Files read by an earlier load, by path, with the size and mtime they had. A
 * file whose size and mtime are unchanged is not read again, and keeps its
 * SourceFile object (so later caches keyed by identity still hit). Watch mode.
 */
export type FileCache = Map<string, { size: number; mtimeMs: number; ctimeMs: number; ino: number; file: SourceFile }>;

/**
 * Unsaved editor buffers by workspace-relative path: their text replaces the file on
 * disk (only for files that exist on disk; the language server).
 */
export type Overlay = ReadonlyMap<string, string>;

/** Every workspace file the load phase read (cards, blocks, tool contracts, eval suites; not the config). */
export function workspaceFiles(ws: Workspace): SourceFile[] {
  return [...ws.cards, ...ws.blocks, ...ws.tools, ...(ws.evals ?? [])];
}

/** Loads the workspace from `from`: an absolute root on disk, or a source (./workspace-source.ts). */
export async function loadWorkspace(from: string | WorkspaceSource, cache?: FileCache, overlay?: Overlay): Promise<LoadResult> {
  const source = typeof from === 'string' ? diskSource(from) : from;
  const root = source.root;
  const diagnostics = new DiagnosticBag();
  const workspace: Workspace = { root, cards: [], blocks: [], tools: [], configPath: undefined, unreadDirs: [] };
  const notRoot = await source.checkRoot();
  if (notRoot !== undefined) return { workspace, diagnostics, fatal: notRoot };
  let rootEntries: string[];
  try {
    rootEntries = (await source.readDir('')).map((e) => e.name);
  } catch (e) {
    return { workspace, diagnostics, fatal: `cannot read workspace directory ${root} (${(e as NodeJS.ErrnoException).code ?? 'I/O error'})` };
  }
  workspace.configPath = CONFIG_NAMES.find((n) => rootEntries.includes(n));
  if (!workspace.configPath) {
    const lookalike = rootEntries.filter((n) => /^agentc\.config\./i.test(n)).sort()[0];
    if (lookalike !== undefined) workspace.configLookalike = lookalike;
  }
  const layout = WORKSPACE_LAYOUT;
  if (!workspace.configPath && ![layout.cards.dir, layout.blocks.dir, layout.schemas].some((d) => rootEntries.includes(d))) {
    // Checking the wrong directory must not read as "No problems found".
    return {
      workspace,
      diagnostics,
      fatal: `${root} is not an agentc workspace: it has no agentc.config.ts, cards/ or blocks/ (pass --cwd DIR, or run \`agentc init\`)`,
    };
  }
  const [cards, blocks, tools, evals] = await Promise.all([
    listFiles(source, layout.cards),
    listFiles(source, layout.blocks),
    listFiles(source, layout.tools),
    listFiles(source, layout.evals),
  ]);
  const unreadable = [cards, blocks, tools, evals].find((l) => l.unreadable !== undefined)?.unreadable;
  if (unreadable) return { workspace, diagnostics, fatal: unreadable };
  for (const sub of blocks.unreadableSubdirs) {
    // Its blocks are unknown: references to them are not reported as unknown (see Workspace.unreadDirs).
    diagnostics.add({
      rule: 'frontmatter',
      file: sub.path,
      message: 'unreadableFolder',
      data: { folder: sub.path, code: sub.code },
      hint: { id: 'makeReadable' },
    });
  }
  workspace.unreadDirs = blocks.unreadableSubdirs.map((d) => d.path);
  for (const [listing, rule] of [
    [cards, 'yaml-syntax'],
    [blocks, 'frontmatter'],
    [tools, 'yaml-syntax'],
    [evals, 'yaml-syntax'],
  ] as const) {
    for (const nf of listing.notFiles) {
      const report = { file: nf.path, message: 'notRegularFile', data: { file: nf.path, kind: nf.kind }, hint: { id: 'notAFile' } } as const;
      if (rule === 'yaml-syntax') diagnostics.add({ rule, ...report });
      else diagnostics.add({ rule, ...report });
    }
  }
  workspace.notFiles = [...cards.notFiles, ...blocks.notFiles, ...tools.notFiles].map((f) => f.path);
  const [cardPaths, blockPaths, toolPaths] = [cards.paths, blocks.paths, tools.paths];
  const read = async (paths: string[], kind: 'yaml' | 'block'): Promise<SourceFile[]> => {
    const files = await Promise.all(
      paths.map((p) =>
        overlay?.has(p)
          ? fromOverlay(p, overlay.get(p)!, cache)
          : cache
            ? readCached(source, p, kind, diagnostics, cache)
            : readSource(source, p, kind, diagnostics),
      ),
    );
    return files.filter((f): f is SourceFile => f !== undefined);
  };
  [workspace.cards, workspace.blocks, workspace.tools, workspace.evals] = await Promise.all([
    read(cardPaths, 'yaml'),
    read(blockPaths, 'block'),
    read(toolPaths, 'yaml'),
    read(evals.paths, 'yaml'),
  ]);
  if (cache) {
    const live = new Set([...cardPaths, ...blockPaths, ...toolPaths, ...evals.paths]);
    for (const path of cache.keys()) if (!live.has(path)) cache.delete(path);
  }
  return { workspace, diagnostics, fatal: undefined };
}

/** An unsaved buffer as a SourceFile; the same object while its text is unchanged (so the parse cache hits). */
async function fromOverlay(path: string, text: string, cache: FileCache | undefined): Promise<SourceFile> {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const hit = cache?.get(path);
  if (hit && hit.mtimeMs === -1 && hit.file.text === normalized) return hit.file;
  const file = new SourceFile(path, normalized);
  // mtime -1 never matches a stat, so the file is read again once the buffer closes.
  cache?.set(path, { size: -1, mtimeMs: -1, ctimeMs: -1, ino: -1, file });
  return file;
}

/** A file through the FileCache: the cached SourceFile while its stamp is unchanged, else read (and cached) anew. */
export async function readCached(
  source: WorkspaceSource,
  path: string,
  kind: 'yaml' | 'block',
  bag: DiagnosticBag,
  cache: FileCache,
): Promise<SourceFile | undefined> {
  // Inode and ctime too: an atomic save (rename over) or a checkout that keeps size and mtime still changes them.
  const s = source.stamp(path);
  const hit = cache.get(path);
  if (s && hit && hit.size === s.size && hit.mtimeMs === s.mtimeMs && hit.ctimeMs === s.ctimeMs && hit.ino === s.ino) return hit.file;
  const file = await readSource(source, path, kind, bag);
  if (file && s) cache.set(path, { size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino, file });
  else cache.delete(path);
  return file;
}

interface Listing {
  /** Workspace-relative, `/`-separated, sorted. */
  paths: string[];
  /** Set when `dir` itself exists but cannot be read (fatal: its files would silently count as none). */
  unreadable: string | undefined;
  /** Sub-folders that cannot be read, with the error code (each a diagnostic). */
  unreadableSubdirs: { path: string; code: string }[];
  /** Entries with a workspace file's name that are not regular files (a FIFO, a socket, a device). */
  notFiles: { path: string; kind: string }[];
}

/**
 * Files below `root/dir` whose names match, walked level by level (the folders
 * of one level read concurrently; no recursion). Hidden entries (`.name`) are
 * skipped, folders included. A missing `dir` is empty; any other error is
 * reported, never read as "empty".
 */
async function listFiles(source: WorkspaceSource, dir: SourceDir): Promise<Listing> {
  const listing: Listing = { paths: [], unreadable: undefined, unreadableSubdirs: [], notFiles: [] };
  const recursive = dir.recursive;
  let level = [dir.dir];
  while (level.length > 0) {
    const read = await Promise.all(
      level.map((rel) =>
        source.readDir(rel).then(
          (entries: DirEntry[]) => ({ rel, entries }),
          (e: NodeJS.ErrnoException) => ({ rel, code: e.code ?? 'I/O error' }),
        ),
      ),
    );
    const next: string[] = [];
    for (const r of read) {
      if ('code' in r) {
        const rel = r.rel;
        if (r.rel !== dir.dir) listing.unreadableSubdirs.push({ path: rel, code: r.code });
        else if (r.code !== 'ENOENT' && r.code !== 'ENOTDIR') listing.unreadable = `cannot read ${rel}/ (${r.code}): its files would be missed`;
        continue;
      }
      for (const e of r.entries) {
        if (e.name.startsWith('.')) continue;
        const child = `${r.rel}/${e.name}`;
        // Symlinked directories are not followed, so a link loop cannot make the walk endless.
        if (e.isDirectory()) {
          if (recursive) next.push(child);
          continue;
        }
        if (!hasExtension(dir, e.name)) continue;
        // A symlink to a file is read like the file (a shared block, say); a dangling or looping link is skipped.
        const target = e.isFile() ? 'file' : e.isSymbolicLink() ? await source.linkTarget(child) : specialKind(e);
        if (target === 'file') listing.paths.push(child);
        else if (target !== undefined && target !== 'dir') listing.notFiles.push({ path: child, kind: target });
      }
    }
    level = next;
  }
  listing.paths.sort();
  listing.unreadableSubdirs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return listing;
}

async function readSource(source: WorkspaceSource, path: string, kind: 'yaml' | 'block', bag: DiagnosticBag): Promise<SourceFile | undefined> {
  const rule = kind === 'yaml' ? 'yaml-syntax' : 'frontmatter';
  let bytes: Uint8Array;
  try {
    const read = source.read(path, MAX_FILE_BYTES);
    if (typeof read === 'number') {
      bag.add({
        rule: 'file-too-large',
        message: 'tooLarge',
        file: path,
        range: firstChar(),
        data: { file: path, size: formatBytes(read), max: formatBytes(MAX_FILE_BYTES) },
      });
      return undefined;
    }
    bytes = read;
  } catch (e) {
    const data = { file: path, code: (e as NodeJS.ErrnoException).code ?? 'I/O error' };
    if (rule === 'yaml-syntax') bag.add({ rule, message: 'unreadable', file: path, range: firstChar(), data });
    else bag.add({ rule, message: 'unreadable', file: path, range: firstChar(), data });
    return undefined;
  }
  const decoded = decodeText(bytes);
  if (!decoded.ok) {
    const file = new SourceFile(path, new TextDecoder('utf-8').decode(bytes.subarray(0, decoded.offset)));
    const at = file.positionAt(file.text.length);
    const place = { file: path, range: { start: at, end: { line: at.line, column: at.column + 1 } } };
    const data = { file: path, offset: decoded.offset };
    if (rule === 'yaml-syntax') bag.add({ rule, message: decoded.reason, ...place, data, hint: { id: 'notText' } });
    else bag.add({ rule, message: decoded.reason, ...place, data, hint: { id: 'notText' } });
    return undefined;
  }
  return new SourceFile(path, decoded.text);
}

function firstChar() {
  return { start: { line: 1, column: 1 }, end: { line: 1, column: 2 } };
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MiB` : `${Math.ceil(n / 1024)} KiB`;
}

export function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}
