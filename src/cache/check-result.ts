/**
 * The persistent result cache: the diagnostics of the last full `check` (or `build`) of
 * a workspace, and the hashes of the output it last wrote or verified, kept in
 * `<cache dir>/check-result.json` (see ./token-store.ts for where that is).
 *
 * Invariant: a stored result is reused only when everything it was computed from is
 * what it was — the same agentc build (dist/build-id.json), the same workspace files
 * (path and sha256 of each text the load phase read), the same load-phase findings,
 * the same config text, every file the config read while loading (modules it
 * imported, JSON it read) unchanged, and every environment variable it read set as
 * it was. A file written by another agentc build, a damaged file, a config that
 * enumerated the whole environment, or one that failed to load is never reused: the
 * command then runs in full. Deleting the directory is always safe.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { makeDirsSync } from '../make-dirs.js';
import { join } from 'node:path';
import { sha256Hex } from '../bundle/canonical-json.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { configInputsUnchanged, fileSha256, snapshotConfigInputs } from '../load/config-inputs.js';
import type { ConfigInputs } from '../load/config-value.js';
import { workspaceFiles, type LoadResult } from '../load/workspace.js';

const FILE = 'check-result.json';
const RESULT_FORMAT = 1;

/** Hashes of an output directory's files (`/`-separated relative path → sha256 of the bytes). */
export type OutputHashes = Record<string, string>;

/**
 * An output directory as recorded: each file's sha256, and the size and mtime it had
 * on disk when recorded. A file whose size and mtime are unchanged is taken as
 * unchanged without reading it (git's index makes the same trade); any other is hashed.
 */
export type OutputRecord = Record<string, { sha256: string; size: number; mtimeMs: number }>;

export interface StoredResult {
  /** The workspace key (workspaceKey) the diagnostics were computed for. */
  key: string;
  /** The config's own inputs when it was evaluated: re-checked before reuse. */
  config: { files: Record<string, string | null>; env: Record<string, string | null> } | undefined;
  diagnostics: Diagnostic[];
  /** Output directories (workspace-relative) known to hold exactly this result's files. */
  outputs: Record<string, OutputRecord>;
}

interface ResultFile {
  format: number;
  agentc: string;
  build: string;
  sha256: string;
  result: StoredResult;
}

/**
 * What the load phase saw, as one hash: every file's path and text, the findings of
 * the load phase (a file refused as too large is a finding, not a file), and the
 * config's path and text. Equal keys mean the compile reads the same inputs.
 */
export function workspaceKey(loaded: LoadResult, configText: string | undefined): string {
  const ws = loaded.workspace;
  const hash = createHash('sha256');
  const read = workspaceFiles(ws);
  const files = read.map((f) => f.path).sort();
  const texts = new Map(read.map((f) => [f.path, f.text]));
  for (const path of files) hash.update(`${path}\0${sha256Hex(texts.get(path)!)}\0`);
  hash.update(
    JSON.stringify({
      load: loaded.diagnostics.items,
      configPath: ws.configPath ?? null,
      configLookalike: ws.configLookalike ?? null,
      unreadDirs: ws.unreadDirs ?? [],
      notFiles: ws.notFiles ?? [],
      config: configText === undefined ? null : sha256Hex(configText),
    }),
  );
  return hash.digest('hex');
}

/** The config's inputs in the stored form; 'untrackable' when the config enumerated the whole environment. */
export function storedConfigInputs(inputs: ConfigInputs | undefined): StoredResult['config'] | 'untrackable' {
  if (inputs === undefined) return undefined;
  if (inputs.env === 'all') return 'untrackable';
  return { files: snapshotConfigInputs(inputs).files, env: inputs.env };
}

export class ResultCache {
  private constructor(
    private readonly dir: string,
    private readonly version: string,
    private readonly build: string,
    private stored: StoredResult | undefined,
  ) {}

  /** Reads the cache file; a missing, foreign (other agentc build) or damaged one counts as empty. */
  static open(dir: string, version: string, build: string): ResultCache {
    return new ResultCache(dir, version, build, readStored(join(dir, FILE), version, build));
  }

  /** The stored result for this workspace key, when its config inputs are unchanged too. */
  lookup(key: string, env: NodeJS.ProcessEnv = process.env): StoredResult | undefined {
    const s = this.stored;
    if (s === undefined || s.key !== key) return undefined;
    return s.config === undefined || configInputsUnchanged(s.config, env) ? s : undefined;
  }

  /** Records a full result (replacing what was stored); outputs of the same key are kept. */
  store(key: string, config: StoredResult['config'], diagnostics: readonly Diagnostic[], outputs?: Record<string, OutputRecord>): void {
    const kept = this.stored?.key === key && sameConfig(this.stored.config, config) ? this.stored.outputs : {};
    this.stored = { key, config, diagnostics: [...diagnostics], outputs: { ...kept, ...outputs } };
    this.save();
  }

  /** Replaces the record of `outDir` (after outputMatches hashed some of its files). */
  refreshOutput(key: string, outDir: string, record: OutputRecord): void {
    if (this.stored?.key !== key) return;
    this.stored = { ...this.stored, outputs: { ...this.stored.outputs, [outDir]: record } };
    this.save();
  }

  /** Records that the directory `abs` (`outDir`, workspace-relative) holds exactly these files for the stored result. */
  storeOutput(key: string, outDir: string, abs: string, hashes: OutputHashes): void {
    if (this.stored?.key !== key) return;
    const record: OutputRecord = {};
    for (const [rel, sha] of Object.entries(hashes)) {
      try {
        const s = statSync(join(abs, rel));
        record[rel] = { sha256: sha, size: s.size, mtimeMs: s.mtimeMs };
      } catch {
        return; // the directory changed under us: record nothing
      }
    }
    this.stored = { ...this.stored, outputs: { ...this.stored.outputs, [outDir]: record } };
    this.save();
  }

  /** Failures to write are not errors: the cache is optional. Written whole, then renamed into place. */
  private save(): void {
    if (this.stored === undefined) return;
    const body: ResultFile = {
      format: RESULT_FORMAT,
      agentc: this.version,
      build: this.build,
      sha256: sha256Hex(JSON.stringify(this.stored)),
      result: this.stored,
    };
    const path = join(this.dir, FILE);
    const tmp = `${path}.${process.pid}.tmp`;
    try {
      makeDirsSync(this.dir);
      writeFileSync(tmp, JSON.stringify(body) + '\n');
      renameSync(tmp, path);
    } catch {
      rmSync(tmp, { force: true });
    }
  }
}

function sameConfig(a: StoredResult['config'], b: StoredResult['config']): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function readStored(path: string, version: string, build: string): StoredResult | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const f = parsed as Partial<ResultFile>;
  if (f.format !== RESULT_FORMAT || f.agentc !== version || f.build !== build || typeof f.sha256 !== 'string') return undefined;
  const r = f.result;
  if (typeof r !== 'object' || r === null || typeof r.key !== 'string' || !Array.isArray(r.diagnostics) || typeof r.outputs !== 'object' || r.outputs === null)
    return undefined;
  // The body's own hash: a truncated or hand-edited file is never a result.
  if (sha256Hex(JSON.stringify(r)) !== f.sha256) return undefined;
  return r;
}

/** Files modified this recently are hashed even when size and mtime match (a write in the same clock tick). */
const RACY_MS = 2000;

/**
 * Whether `outDir` holds exactly the recorded files, byte for byte: the same set of
 * paths (nothing missing, nothing extra, no non-file entries) and the same content.
 * A file is read and hashed unless its size and mtime are as recorded and it was not
 * recorded within RACY_MS of being written. `refreshed` is the record to keep when
 * files had to be hashed (with their current mtimes), so the next run reads fewer.
 */
export function outputMatches(outDir: string, expected: OutputRecord, now = Date.now()): { ok: boolean; refreshed?: OutputRecord } {
  const seen = new Set<string>();
  const refreshed: OutputRecord = {};
  let hashed = false;
  const walk = (abs: string, rel: string): boolean => {
    let entries;
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const e of entries) {
      const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (!walk(join(abs, e.name), childRel)) return false;
        continue;
      }
      const want = expected[childRel];
      if (!e.isFile() || want === undefined) return false;
      const path = join(abs, e.name);
      let s;
      try {
        s = statSync(path);
      } catch {
        return false;
      }
      if (s.size !== want.size) return false;
      const trusted = s.mtimeMs === want.mtimeMs && now - s.mtimeMs > RACY_MS;
      if (!trusted) {
        if (fileSha256(path) !== want.sha256) return false;
        hashed = true;
      }
      refreshed[childRel] = { sha256: want.sha256, size: s.size, mtimeMs: s.mtimeMs };
      seen.add(childRel);
    }
    return true;
  };
  const ok = walk(outDir, '') && seen.size === Object.keys(expected).length;
  return ok && hashed ? { ok, refreshed } : { ok };
}
