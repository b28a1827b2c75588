/**
 * Load phase: find the workspace's files and read them as normalized text.
 *
 *   cards/<id>.yaml                      (also .yml)
 *   blocks/**\/<id>.md
 *   schemas/tools/<name>.{yaml,yml,json}
 *   agentc.config.ts                     (also .mts, .js, .mjs)
 *
 * Invariants: file lists are sorted by path (output never depends on the file
 * system's order); a file that is not text or is too large becomes a diagnostic
 * and is left out; only an unreadable root, or one with none of the workspace's
 * entries (config, cards/, blocks/, schemas/), is fatal.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { DiagnosticBag } from '../diagnostics/diagnostic.js';
import { decodeText, SourceFile } from './source.js';

/** Larger files are refused: no prompt block or card is legitimately this big. */
export const MAX_FILE_BYTES = 1024 * 1024;

export const CONFIG_NAMES = ['agentc.config.ts', 'agentc.config.mts', 'agentc.config.js', 'agentc.config.mjs'];

export interface Workspace {
  root: string;
  cards: SourceFile[];
  blocks: SourceFile[];
  tools: SourceFile[];
  /** Workspace-relative path of the config file, if there is one. */
  configPath: string | undefined;
  /** When there is none: a root entry named like a config that agentc does not read (e.g. agentc.config.cjs). */
  configLookalike?: string;
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

export async function loadWorkspace(root: string, cache?: FileCache): Promise<LoadResult> {
  const diagnostics = new DiagnosticBag();
  const workspace: Workspace = { root, cards: [], blocks: [], tools: [], configPath: undefined };
  try {
    const s = await stat(root);
    if (!s.isDirectory()) return { workspace, diagnostics, fatal: `${root} is not a directory` };
  } catch {
    return { workspace, diagnostics, fatal: `cannot read workspace directory ${root}` };
  }
  const [cardPaths, blockPaths, toolPaths, rootEntries] = await Promise.all([
    listFiles(root, 'cards', false, /\.ya?ml$/),
    listFiles(root, 'blocks', true, /\.md$/),
    listFiles(root, join('schemas', 'tools'), false, /\.(ya?ml|json)$/),
    readdir(root).catch(() => [] as string[]),
  ]);
  workspace.configPath = CONFIG_NAMES.find((n) => rootEntries.includes(n));
  if (!workspace.configPath) {
    const lookalike = rootEntries.filter((n) => /^agentc\.config\./i.test(n)).sort()[0];
    if (lookalike !== undefined) workspace.configLookalike = lookalike;
  }
  if (!workspace.configPath && !['cards', 'blocks', 'schemas'].some((d) => rootEntries.includes(d))) {
    // Checking the wrong directory must not read as "No problems found".
    return { workspace, diagnostics, fatal: `${root} is not an agentc workspace: it has no agentc.config.ts, cards/ or blocks/ (pass --cwd DIR, or run \`agentc init\`)` };
  }
  const read = async (paths: string[], kind: 'yaml' | 'block'): Promise<SourceFile[]> => {
    const files = await Promise.all(paths.map((p) => (cache ? readCached(root, p, kind, diagnostics, cache) : readSource(root, p, kind, diagnostics))));
    return files.filter((f): f is SourceFile => f !== undefined);
  };
  [workspace.cards, workspace.blocks, workspace.tools] = await Promise.all([
    read(cardPaths, 'yaml'),
    read(blockPaths, 'block'),
    read(toolPaths, 'yaml'),
  ]);
  if (cache) {
    const live = new Set([...cardPaths, ...blockPaths, ...toolPaths]);
    for (const path of cache.keys()) if (!live.has(path)) cache.delete(path);
  }
  return { workspace, diagnostics, fatal: undefined };
}

async function readCached(root: string, path: string, kind: 'yaml' | 'block', bag: DiagnosticBag, cache: FileCache): Promise<SourceFile | undefined> {
  // Inode and ctime too: an atomic save (rename over) or a checkout that keeps size and mtime still changes them.
  let s: { size: number; mtimeMs: number; ctimeMs: number; ino: number } | undefined;
  try {
    s = statSync(join(root, path));
  } catch {
    s = undefined;
  }
  const hit = cache.get(path);
  if (s && hit && hit.size === s.size && hit.mtimeMs === s.mtimeMs && hit.ctimeMs === s.ctimeMs && hit.ino === s.ino) return hit.file;
  const file = await readSource(root, path, kind, bag);
  if (file && s) cache.set(path, { size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino, file });
  else cache.delete(path);
  return file;
}

async function listFiles(root: string, dir: string, recursive: boolean, pattern: RegExp): Promise<string[]> {
  let entries: { name: string; isFile(): boolean; isSymbolicLink(): boolean; parentPath?: string; path?: string }[];
  try {
    entries = (await readdir(join(root, dir), { withFileTypes: true, recursive })) as typeof entries;
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    if (!pattern.test(e.name) || e.name.startsWith('.')) continue;
    const abs = join(e.parentPath ?? e.path ?? join(root, dir), e.name);
    // A symlink to a file is read like the file (a shared block, say); symlinked directories are not
    // followed (readdir does not), so a link loop cannot make the walk endless; a dangling or looping link is skipped.
    if (!e.isFile() && !(e.isSymbolicLink() && (await stat(abs).catch(() => undefined))?.isFile())) continue;
    out.push(toPosix(relative(root, abs)));
  }
  return out.sort();
}

async function readSource(root: string, path: string, kind: 'yaml' | 'block', bag: DiagnosticBag): Promise<SourceFile | undefined> {
  const rule = kind === 'yaml' ? 'yaml-syntax' : 'frontmatter';
  let bytes: Buffer;
  try {
    const read = readBounded(join(root, path));
    if (typeof read === 'number') {
      bag.add({ rule: 'file-too-large', message: 'tooLarge', file: path, range: firstChar(), data: { file: path, size: formatBytes(read), max: formatBytes(MAX_FILE_BYTES) } });
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

/**
 * The file's bytes, or its size when over MAX_FILE_BYTES (then nothing is read).
 * Synchronous on purpose: thousands of small files read faster without a
 * promise and a thread-pool round trip each.
 */
function readBounded(abs: string): Buffer | number {
  const fd = openSync(abs, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_FILE_BYTES) return size;
    const buf = Buffer.allocUnsafe(size);
    let off = 0;
    while (off < size) {
      const n = readSync(fd, buf, off, size - off, off);
      if (n === 0) break;
      off += n;
    }
    return off === size ? buf : buf.subarray(0, off);
  } finally {
    closeSync(fd);
  }
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
