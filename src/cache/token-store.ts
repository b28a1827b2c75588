/**
 * The persistent token-count cache: one file, `tokens.json`, in the cache
 * directory (`AGENTC_CACHE_DIR`, else `<workspace>/node_modules/.cache/agentc`
 * when `<workspace>/node_modules` exists; otherwise nothing is persisted).
 *
 * Safe to delete at any time. Never trusted blindly:
 * - the file names the agentc version and a format number; any other value
 *   and the whole file is ignored (counts may change with the tokenizer);
 * - the file carries the sha256 of its entries; a file whose entries do not
 *   hash to it (truncated, edited, half-written) is ignored;
 * - entries are keyed by sha256(encoding NUL text), so a hit is for that text.
 * It is written atomically (temp file + rename), only when a run added counts.
 * It keeps the counts it held plus the run's new ones (so diff's two sides and
 * two branches share it), until that passes MAX_ENTRIES: then only the counts the
 * writing run used are kept (bounded size).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { makeDirsSync } from '../make-dirs.js';
import { join } from 'node:path';
import type { TokenStore } from '../tokenize/counter.js';
import type { Encoding } from '../tokenize/index.js';

export const TOKEN_CACHE_FORMAT = 1;
const FILE = 'tokens.json';
/** About 8 MB of file; past it, only the counts of the writing run are kept. */
export const MAX_ENTRIES = 100_000;

interface CacheFile {
  agentc: string;
  format: number;
  sha256: string;
  entries: Record<string, number>;
}

/** Where the cache lives for `root`, or undefined when nothing should be persisted. */
export function cacheDir(root: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromEnv = env['AGENTC_CACHE_DIR'];
  if (fromEnv !== undefined) return fromEnv === '' ? undefined : fromEnv;
  const modules = join(root, 'node_modules');
  return existsSync(modules) ? join(modules, '.cache', 'agentc') : undefined;
}

export class PersistentTokenStore implements TokenStore {
  private readonly stored: Map<string, number>;
  private readonly used = new Map<string, number>();
  private added = 0;

  private constructor(
    private readonly dir: string,
    private readonly version: string,
    stored: Map<string, number>,
  ) {
    this.stored = stored;
  }

  /** Opens the store in `dir`; an absent, foreign or damaged file reads as empty. */
  static open(dir: string, version: string): PersistentTokenStore {
    return new PersistentTokenStore(dir, version, readEntries(join(dir, FILE), version));
  }

  key(text: string, encoding: Encoding): string {
    return createHash('sha256').update(encoding).update('\u0000').update(text).digest('hex');
  }

  get(key: string): number | undefined {
    const n = this.stored.get(key);
    if (n !== undefined) this.used.set(key, n);
    return n;
  }

  /** Counts the file held when opened (0: a cold cache). */
  get size(): number {
    return this.stored.size;
  }

  has(key: string): boolean {
    return this.stored.has(key) || this.used.has(key);
  }

  set(key: string, count: number): void {
    this.used.set(key, count);
    this.added++;
  }

  /** Writes the counts this run used, when it added any. Failures to write are not errors: the cache is optional. */
  save(): boolean {
    if (this.added === 0) return false;
    const all = new Map([...this.stored, ...this.used]);
    const keep = all.size <= MAX_ENTRIES ? all : this.used;
    const entries: Record<string, number> = {};
    for (const k of [...keep.keys()].sort()) entries[k] = keep.get(k)!;
    // The file is JSON.stringify(body) with body's keys in CacheFile's order; the entries' JSON is made once, for the hash and the file.
    const entriesJson = JSON.stringify(entries);
    const head: Omit<CacheFile, 'entries'> = { agentc: this.version, format: TOKEN_CACHE_FORMAT, sha256: sha256Of(entriesJson) };
    const path = join(this.dir, FILE);
    const tmp = `${path}.${process.pid}.tmp`;
    try {
      makeDirsSync(this.dir);
      writeFileSync(tmp, `${JSON.stringify(head).slice(0, -1)},"entries":${entriesJson}}\n`);
      renameSync(tmp, path);
      this.added = 0;
      return true;
    } catch {
      rmSync(tmp, { force: true });
      return false;
    }
  }
}

function entriesHash(entries: Record<string, number>): string {
  return sha256Of(JSON.stringify(entries));
}

function sha256Of(json: string): string {
  return createHash('sha256').update(json).digest('hex');
}

function readEntries(path: string, version: string): Map<string, number> {
  const out = new Map<string, number>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return out;
  }
  if (!isCacheFile(parsed) || parsed.agentc !== version || parsed.format !== TOKEN_CACHE_FORMAT) return out;
  if (entriesHash(parsed.entries) !== parsed.sha256) return out;
  for (const [k, n] of Object.entries(parsed.entries)) {
    if (!/^[0-9a-f]{64}$/.test(k) || !Number.isSafeInteger(n) || n < 0) return new Map();
    out.set(k, n);
  }
  return out;
}

function isCacheFile(v: unknown): v is CacheFile {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o['agentc'] === 'string' &&
    typeof o['format'] === 'number' &&
    typeof o['sha256'] === 'string' &&
    typeof o['entries'] === 'object' &&
    o['entries'] !== null &&
    !Array.isArray(o['entries'])
  );
}
