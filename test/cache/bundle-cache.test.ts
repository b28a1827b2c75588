/**
 * The persistent bundle cache (src/cache/bundle-cache.ts) that answers both sides
 * of `agentc diff`: a stored bundle comes back only for its own key, from its own
 * agentc build, with its body intact and its config inputs unchanged. A stale,
 * damaged, truncated or foreign entry is never a bundle.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BundleCache, MAX_ENTRIES } from '../../src/cache/bundle-cache.js';
import { sha256Hex } from '../../src/bundle/canonical-json.js';
import { BUNDLE_FORMAT_VERSION, type Bundle } from '../../src/bundle/types.js';
import { storeBundle, storedJson } from '../../src/emit/stored.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const BUILD = 'a'.repeat(64);
const key = (n: number): string => sha256Hex(`workspace ${n}`);

function bundle(marker: string): Bundle {
  return {
    formatVersion: BUNDLE_FORMAT_VERSION,
    agentcVersion: '0.1.0',
    hash: sha256Hex(marker),
    models: {},
    flags: [marker],
    dynamicContext: { fields: [], template: '' },
    dynamicContextAst: [],
    dispatchDefaults: { toolPrefix: 'ask_', fanOutCap: 3 },
    tools: {},
    agents: {},
  } as Bundle;
}

/** The bundle's bundle.json bytes: what the cache stores. */
const json = (marker: string): Buffer => Buffer.from(storedJson(storeBundle(bundle(marker))), 'utf8');

function freshDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'agentc-bundle-cache-'));
  dirs.push(d);
  return d;
}

const entry = (dir: string, k: string): string => join(dir, 'bundles', `${k}.json`);

describe('BundleCache', () => {
  it('returns the stored bundle for its own key only', () => {
    const dir = freshDir();
    const cache = BundleCache.open(dir, '0.1.0', BUILD);
    cache.store(key(1), undefined, json('one'));
    expect(BundleCache.open(dir, '0.1.0', BUILD).lookup(key(1))).toEqual(json('one'));
    expect(BundleCache.open(dir, '0.1.0', BUILD).lookup(key(2))).toBeUndefined();
  });

  it("keeps each agent's inputs digest with the bundle, covered by the entry's sha256", () => {
    const dir = freshDir();
    const cache = BundleCache.open(dir, '0.1.0', BUILD);
    const digests = new Map([
      ['a', sha256Hex('a')],
      ['b', sha256Hex('b')],
    ]);
    cache.store(key(1), undefined, json('one'), digests);
    cache.store(key(2), undefined, json('two'));
    expect(cache.lookupEntry(key(1))).toEqual({ json: json('one'), digests });
    expect(cache.lookupEntry(key(2))).toEqual({ json: json('two'), digests: undefined });
    const file = entry(dir, key(1));
    const good = readFileSync(file, 'utf8');
    // A digest changed: the sha256 no longer holds.
    writeFileSync(file, good.replace(sha256Hex('b'), sha256Hex('c')));
    expect(cache.lookupEntry(key(1))).toBeUndefined();
    // A malformed index under a matching sha256 and lengths is not believed either.
    const nl = good.indexOf('\n');
    const header = JSON.parse(good.slice(0, nl)) as { sha256: string; length: number; index: number };
    const body = good.slice(nl + 1, nl + 1 + header.length);
    const index = '{"a":"not a digest"}\n';
    const forged = { ...header, index: Buffer.byteLength(index), sha256: sha256Hex(body + index) };
    writeFileSync(file, `${JSON.stringify(forged)}\n${body}${index}`);
    expect(cache.lookupEntry(key(1))).toBeUndefined();
  });

  it('never believes another agentc build or version', () => {
    const dir = freshDir();
    BundleCache.open(dir, '0.1.0', BUILD).store(key(1), undefined, json('one'));
    expect(BundleCache.open(dir, '0.1.0', 'b'.repeat(64)).lookup(key(1))).toBeUndefined();
    expect(BundleCache.open(dir, '0.2.0', BUILD).lookup(key(1))).toBeUndefined();
  });

  it('never believes a truncated, tampered or misfiled entry', () => {
    const dir = freshDir();
    const cache = BundleCache.open(dir, '0.1.0', BUILD);
    cache.store(key(1), undefined, json('one'));
    const path = entry(dir, key(1));
    const text = readFileSync(path, 'utf8');

    writeFileSync(path, text.slice(0, text.length - 10)); // truncated
    expect(cache.lookup(key(1))).toBeUndefined();

    writeFileSync(path, text.replace('"one"', '"two"')); // body edited, same length: its sha256 no longer matches
    expect(cache.lookup(key(1))).toBeUndefined();

    const [header, body] = [text.slice(0, text.indexOf('\n')), text.slice(text.indexOf('\n') + 1)];
    const edited = body.replace('"one"', '"two"');
    const forged = JSON.stringify({ ...JSON.parse(header), sha256: sha256Hex(edited), key: key(2) });
    writeFileSync(entry(dir, key(1)), `${forged}\n${edited}`); // a consistent entry filed under another key
    expect(cache.lookup(key(1))).toBeUndefined();

    writeFileSync(path, 'not json\n{}');
    expect(cache.lookup(key(1))).toBeUndefined();
    writeFileSync(path, '');
    expect(cache.lookup(key(1))).toBeUndefined();

    // A consistent entry whose body is not a bundle of this format.
    const alien = JSON.stringify({ formatVersion: 'format-0', agents: {}, tools: {} });
    writeFileSync(path, `${JSON.stringify({ ...JSON.parse(header), sha256: sha256Hex(alien), length: alien.length })}\n${alien}`);
    expect(cache.lookup(key(1))).toBeUndefined();

    writeFileSync(path, text); // restored: believed again
    expect(cache.lookup(key(1))).toEqual(json('one'));
  });

  it('is stale when a file the config read or an environment variable it read changed', () => {
    const dir = freshDir();
    const imported = join(dir, 'limits.json');
    writeFileSync(imported, '{"a":1}');
    const config = { files: { [imported]: sha256Hex(readFileSync(imported)) }, env: { AGENTC_TEST_REGION: 'eu' } };
    const cache = BundleCache.open(dir, '0.1.0', BUILD);
    cache.store(key(1), config, json('one'));
    expect(cache.lookup(key(1), { AGENTC_TEST_REGION: 'eu' })).toEqual(json('one'));
    expect(cache.lookup(key(1), { AGENTC_TEST_REGION: 'us' })).toBeUndefined();
    expect(cache.lookup(key(1), {})).toBeUndefined();
    writeFileSync(imported, '{"a":2}');
    expect(cache.lookup(key(1), { AGENTC_TEST_REGION: 'eu' })).toBeUndefined();
  });

  it(`keeps the ${MAX_ENTRIES} most recently used entries`, () => {
    const dir = freshDir();
    const cache = BundleCache.open(dir, '0.1.0', BUILD);
    const t0 = Date.now() / 1000 - 1000;
    for (let n = 1; n <= MAX_ENTRIES; n++) {
      cache.store(key(n), undefined, json(`b${n}`));
      utimesSync(entry(dir, key(n)), t0 + n, t0 + n);
    }
    expect(cache.lookup(key(1))).toEqual(json('b1')); // used now: the newest
    cache.store(key(MAX_ENTRIES + 1), undefined, json('new'));
    const kept = readdirSync(join(dir, 'bundles')).sort();
    expect(kept).toHaveLength(MAX_ENTRIES);
    expect(kept).toContain(`${key(1)}.json`);
    expect(kept).not.toContain(`${key(2)}.json`);
  });
});
