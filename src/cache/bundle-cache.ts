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
 * everything after the header, the body's length, the index's length), then the
 * body: the bundle's bundle.json text (the stored form, src/emit/stored.ts — each
 * block's text once, ~12 MB at 1,000 cards where the whole Bundle as JSON is
 * ~30 MB), then the index: one JSON line, each agent's inputs digest by id
 * (src/emit/agent-digest.ts), which lets diff build only the changed agents of the
 * other side (src/diff/partial-side.ts). The caller loads a hit lazily with the
 * runtime's loader (an agent is read, and its prompts joined, only when used), so
 * diff reads only the agents whose bytes or digests differ.
 */
import { closeSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { makeDirsSync } from '../make-dirs.js';
import { join } from 'node:path';
import { BUNDLE_FORMAT_VERSION } from '../bundle/types.js';
import { configInputsUnchanged } from '../load/config-inputs.js';
import { sha256Hex } from '../bundle/canonical-json.js';
import type { StoredResult } from './check-result.js';

const DIR = 'bundles';
const BUNDLE_CACHE_FORMAT = 3;
/** Bundles kept: enough for a base commit or two and the working tree; at 1,000 cards each is ~12 MB. */
export const MAX_ENTRIES = 4;
/** The line naming the format in bundle.json's canonical layout (src/emit/stored.ts). */
const FORMAT_LINE = Buffer.from(`\n  "formatVersion": ${JSON.stringify(BUNDLE_FORMAT_VERSION)},\n`, 'utf8');

interface Header {
  format: number;
  agentc: string;
  build: string;
  key: string;
  config: StoredResult['config'];
  sha256: string;
  length: number;
  /** Bytes of the digest index after the body (0: none). */
  index: number;
}

/** A stored bundle: its bundle.json bytes, and each agent's inputs digest when they were stored with it. */
export interface CachedBundle {
  json: Buffer;
  digests: ReadonlyMap<string, string> | undefined;
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

  /**
   * The bundle.json bytes stored for this workspace key (this bundle format's, in
   * the canonical layout), or undefined (absent, foreign, damaged, or its config
   * inputs changed).
   */
  lookup(key: string, env: NodeJS.ProcessEnv = process.env): Buffer | undefined {
    return this.lookupEntry(key, env)?.json;
  }

  /** The stored bundle.json bytes and digest index for this workspace key (see `lookup`). */
  lookupEntry(key: string, env: NodeJS.ProcessEnv = process.env): CachedBundle | undefined {
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
    const rest = bytes.subarray(nl + 1);
    if (rest.byteLength !== header.length + header.index || sha256Hex(rest) !== header.sha256) return undefined;
    if (header.config !== undefined && !configInputsUnchanged(header.config, env)) return undefined;
    const body = rest.subarray(0, header.length);
    if (!body.includes(FORMAT_LINE)) return undefined;
    const digests = header.index === 0 ? undefined : parseIndex(rest.subarray(header.length));
    if (digests === null) return undefined;
    try {
      const now = new Date();
      utimesSync(path, now, now); // most recently used: kept longest
    } catch {
      // read-only cache: still a hit
    }
    return { json: body, digests };
  }

  /**
   * Stores the bundle compiled from these inputs as its bundle.json bytes, with
   * each agent's inputs digest (when given: computed from the same Program);
   * failures to write are not errors (the cache is optional).
   */
  store(key: string, config: StoredResult['config'], json: Uint8Array, digests?: ReadonlyMap<string, string>): void {
    if (!/^[0-9a-f]{64}$/.test(key)) return;
    const index = digests === undefined ? Buffer.alloc(0) : Buffer.from(`${JSON.stringify(Object.fromEntries(digests))}\n`, 'utf8');
    const header: Header = {
      format: BUNDLE_CACHE_FORMAT,
      agentc: this.version,
      build: this.build,
      key,
      config,
      sha256: sha256Hex([json, index]),
      length: json.byteLength,
      index: index.byteLength,
    };
    const path = join(this.dir, `${key}.json`);
    const tmp = `${path}.${process.pid}.tmp`;
    try {
      makeDirsSync(this.dir);
      const fd = openSync(tmp, 'w');
      try {
        writeFileSync(fd, `${JSON.stringify(header)}\n`);
        writeFileSync(fd, json);
        writeFileSync(fd, index);
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
  if (typeof x.sha256 !== 'string' || !isCount(x.length) || !isCount(x.index)) return undefined;
  if (x.config !== undefined && (typeof x.config !== 'object' || x.config === null)) return undefined;
  return x as Header;
}

function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}

/** The digest index (an object of 64-hex strings, one line); null when it is anything else. */
function parseIndex(bytes: Buffer): Map<string, string> | null {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const out = new Map<string, string>();
  for (const [id, digest] of Object.entries(value)) {
    if (typeof digest !== 'string' || !/^[0-9a-f]{64}$/.test(digest)) return null;
    out.set(id, digest);
  }
  return out;
}
