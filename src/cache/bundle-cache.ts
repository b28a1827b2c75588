/**
 * The persistent bundle cache: compiled bundles of error-free workspaces, for
 * `agentc diff`, content-addressed by the same workspace key as the result cache
 * (./check-result.ts `workspaceKey`) — `<cache dir>/bundles/<key>.json`, one file per
 * key, the most recently used MAX_ENTRIES kept. Both sides of a diff (the "before"
 * tree of a commit and the working tree) are looked up here before compiling.
 *
 * Invariant: a stored bundle is returned only when its file names this agentc
 * version and build, this very key, a body whose sha256 it records, and config
 * inputs (files the config read, environment variables it read) that still hold.
 * A stale, damaged, truncated or foreign file is never a bundle: the side is then
 * compiled as usual. Deleting the directory is always safe.
 *
 * File layout: one header line (JSON: format, agentc, build, key, config, sha256 of
 * the body's bytes, their number), then the body: the bundle as JSON (UTF-8).
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE_FORMAT_VERSION, type Bundle } from '../bundle/types.js';
import { configInputsUnchanged } from '../load/config-inputs.js';
import { sha256Hex } from '../bundle/canonical-json.js';
import type { StoredResult } from './check-result.js';

const DIR = 'bundles';
const BUNDLE_CACHE_FORMAT = 1;
/** Bundles kept: enough for a base commit or two and the working tree; at 1,000 cards each is ~30 MB. */
export const MAX_ENTRIES = 4;

interface Header {
  format: number;
  agentc: string;
  build: string;
  key: string;
  config: StoredResult['config'];
  sha256: string;
  length: number;
}

export class BundleCache {
  private constructor(
    private readonly dir: string,
    private readonly version: string,
    private readonly build: string,
  ) {}

  /** `dir`: the cache directory (token-store.ts `cacheDir`); bundles live in its `bundles/` folder. */
  static open(dir: string, version: string, build: string): BundleCache {
    return new BundleCache(join(dir, DIR), version, build);
  }

  /** The bundle stored for this workspace key, or undefined (absent, foreign, damaged, or its config inputs changed). */
  lookup(key: string, env: NodeJS.ProcessEnv = process.env): Bundle | undefined {
    if (!/^[0-9a-f]{64}$/.test(key)) return undefined;
    const path = join(this.dir, `${key}.json`);
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch {
      return undefined;
    }
    const nl = bytes.indexOf(0x0a);
    if (nl < 0) return undefined;
    const header = parseHeader(bytes.subarray(0, nl).toString('utf8'));
    if (header === undefined) return undefined;
    if (header.format !== BUNDLE_CACHE_FORMAT || header.agentc !== this.version || header.build !== this.build || header.key !== key) return undefined;
    const body = bytes.subarray(nl + 1);
    if (body.byteLength !== header.length || sha256Hex(body) !== header.sha256) return undefined;
    if (header.config !== undefined && !configInputsUnchanged(header.config, env)) return undefined;
    let bundle: unknown;
    try {
      bundle = JSON.parse(body.toString('utf8'));
    } catch {
      return undefined;
    }
    if (!isBundleShape(bundle)) return undefined;
    try {
      const now = new Date();
      utimesSync(path, now, now); // most recently used: kept longest
    } catch {
      // read-only cache: still a hit
    }
    return bundle;
  }

  /** Stores the bundle compiled from these inputs; failures to write are not errors (the cache is optional). */
  store(key: string, config: StoredResult['config'], bundle: Bundle): void {
    if (!/^[0-9a-f]{64}$/.test(key)) return;
    const body = Buffer.from(JSON.stringify(bundle), 'utf8');
    const header: Header = {
      format: BUNDLE_CACHE_FORMAT,
      agentc: this.version,
      build: this.build,
      key,
      config,
      sha256: sha256Hex(body),
      length: body.byteLength,
    };
    const path = join(this.dir, `${key}.json`);
    const tmp = `${path}.${process.pid}.tmp`;
    try {
      mkdirSync(this.dir, { recursive: true });
      const fd = openSync(tmp, 'w');
      try {
        writeFileSync(fd, `${JSON.stringify(header)}\n`);
        writeFileSync(fd, body);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, path);
      this.prune();
    } catch {
      rmSync(tmp, { force: true });
    }
  }

  /** Keeps the MAX_ENTRIES most recently used bundles; leftovers of interrupted writes go too. */
  private prune(): void {
    const entries: { path: string; at: number }[] = [];
    for (const name of readdirSync(this.dir)) {
      const path = join(this.dir, name);
      if (name.endsWith('.tmp')) {
        const at = statSafe(path);
        if (at !== undefined && Date.now() - at > 60 * 60 * 1000) rmSync(path, { force: true });
        continue;
      }
      if (!name.endsWith('.json')) continue;
      const at = statSafe(path);
      if (at !== undefined) entries.push({ path, at });
    }
    entries.sort((a, b) => b.at - a.at);
    for (const old of entries.slice(MAX_ENTRIES)) rmSync(old.path, { force: true });
  }
}

function statSafe(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function parseHeader(line: string): Header | undefined {
  let h: unknown;
  try {
    h = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof h !== 'object' || h === null) return undefined;
  const x = h as Partial<Header>;
  if (typeof x.format !== 'number' || typeof x.agentc !== 'string' || typeof x.build !== 'string' || typeof x.key !== 'string') return undefined;
  if (typeof x.sha256 !== 'string' || typeof x.length !== 'number') return undefined;
  if (x.config !== undefined && (typeof x.config !== 'object' || x.config === null)) return undefined;
  return x as Header;
}

/** The top-level shape diff reads; the body's hash already vouches for the rest. */
function isBundleShape(b: unknown): b is Bundle {
  if (typeof b !== 'object' || b === null) return false;
  const x = b as Partial<Bundle>;
  return x.formatVersion === BUNDLE_FORMAT_VERSION && typeof x.agents === 'object' && x.agents !== null && typeof x.tools === 'object' && x.tools !== null;
}
