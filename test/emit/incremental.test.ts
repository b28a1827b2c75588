/**
 * Incremental emission (watch mode): with an EmitCache, createBundle keeps the
 * entry of every agent whose inputs are unchanged, and emitFiles / writeOutput
 * reuse what they made and wrote — while producing exactly the bytes of a build
 * from scratch.
 */
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/bundle/types.js';
import { compile, createCompileCache, type CompileCache } from '../../src/compile.js';
import { bundleHash, createBundle } from '../../src/emit/bundle.js';
import { createHashMemo, hashBundleText, hashChunks } from '../../src/emit/bundle-hash.js';
import { jsonChunks } from '../../src/emit/fragments.js';
import { createEmitCache, type EmitCache } from '../../src/emit/cache.js';
import { contentToString, type FileContent } from '../../src/emit/content.js';
import { emitFiles } from '../../src/emit/files.js';
import { storeBundle, storedJson } from '../../src/emit/stored.js';
import { loadBundleJson } from '../../src/runtime/load-bundle.js';
import { makeProgram } from './helpers/program.js';
import { copyFixture } from './helpers/workspace.js';

const SHARED_BLOCK = '---\ncategory: instructions\nowner: platform\n---\nKeep every answer short and friendly.\n';

let ws: string;
let compileCache: CompileCache;
let cache: EmitCache;
let bundle: Bundle;

beforeAll(async () => {
  ws = await copyFixture();
  // A block used by exactly two of the three agents.
  await writeFile(join(ws, 'blocks/platform/shared-tone.md'), SHARED_BLOCK);
  await edit('cards/billing.yaml', (t) => t.replace('prompt_blocks: [instructions-billing]', 'prompt_blocks: [instructions-billing, shared-tone]'));
  await edit('cards/travel.yaml', (t) => t.replace('prompt_blocks: [instructions-travel,', 'prompt_blocks: [shared-tone, instructions-travel,'));
  compileCache = createCompileCache();
  cache = createEmitCache();
  bundle = await rebuild();
}, 60_000);
afterAll(() => rm(ws, { recursive: true, force: true }));

async function edit(rel: string, change: (text: string) => string): Promise<void> {
  const path = join(ws, rel);
  await writeFile(path, change(await readFile(path, 'utf8')));
}

/** A cached build, checked byte for byte against a build from scratch. */
async function rebuild(): Promise<Bundle> {
  const result = await compile({ root: ws, cache: compileCache });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const cached = createBundle(result.program!, '0.0.0-test', cache);
  const fresh = createBundle((await compile({ root: ws })).program!, '0.0.0-test');
  expect(cached.hash).toBe(bundleHash(cached));
  expect(cached).toEqual(fresh);
  expect(JSON.stringify(cached)).toBe(JSON.stringify(fresh)); // key order too
  const files = emitFiles(cached, cache);
  expect(strings(files)).toEqual(emitFiles(fresh));
  return cached;
}

function strings(files: Map<string, FileContent>): Map<string, string> {
  return new Map([...files].map(([path, content]) => [path, contentToString(content)]));
}

/** Agent ids whose entry is a new object (recomputed) in `next`. */
function recomputed(before: Bundle, next: Bundle): string[] {
  return Object.keys(next.agents).filter((id) => before.agents[id] !== next.agents[id]);
}

describe('incremental emission', () => {
  it('reuses every entry when nothing changed', async () => {
    const next = await rebuild();
    expect(recomputed(bundle, next)).toEqual([]);
    expect(next.hash).toBe(bundle.hash);
    bundle = next;
  });

  it('a block edit recomputes exactly the agents whose prompt has it', async () => {
    await edit('blocks/platform/shared-tone.md', (t) => t.replace('short', 'very short'));
    const next = await rebuild();
    expect(recomputed(bundle, next)).toEqual(['billing', 'travel']);
    expect(next.agents.billing!.prefixes[0]!.text).toContain('very short');
    expect(next.hash).not.toBe(bundle.hash);
    bundle = next;
  });

  it("a sub-agent's description changes its parent's ask_* tool", async () => {
    await edit('cards/billing.yaml', (t) => t.replace('description: Invoices and payments', 'description: All invoices and payments'));
    const next = await rebuild();
    expect(recomputed(bundle, next)).toEqual(['billing', 'concierge']);
    const ask = next.agents.concierge!.tools.neutral.find((t) => t.name === 'ask_billing')!;
    expect(ask.description).toMatch(/^All invoices and payments/);
    bundle = next;
  });

  it('a tool contract edit recomputes the agents that use it', async () => {
    await edit('schemas/tools/search_trips.yaml', (t) => t.replace(/description: (.*)/, 'description: Changed. $1'));
    const next = await rebuild();
    expect(recomputed(bundle, next)).toEqual(['travel']);
    bundle = next;
  });

  it('a config edit recomputes everything', async () => {
    await edit('agentc.config.ts', (t) => t.replace('Locale: {{locale}}', 'Locale: {{locale}}!'));
    const next = await rebuild();
    expect(recomputed(bundle, next).sort()).toEqual(['billing', 'concierge', 'travel']);
    expect(next.agents.travel!.suffix_template).toContain('{{locale}}!');
    bundle = next;
  });

  it('adding and removing an agent gives the same bytes as from scratch (hash resumes correctly)', async () => {
    await writeFile(join(ws, 'cards/aardvark.yaml'), (await readFile(join(ws, 'cards/travel.yaml'), 'utf8')).replace('id: travel', 'id: aardvark'));
    const added = await rebuild();
    expect(Object.keys(added.agents)).toEqual(['aardvark', 'billing', 'concierge', 'travel']);
    await rm(join(ws, 'cards/aardvark.yaml'));
    const removed = await rebuild();
    expect(Object.keys(removed.agents)).toEqual(['billing', 'concierge', 'travel']);
    expect(recomputed(bundle, removed)).toEqual([]);
    expect(removed.hash).toBe(bundle.hash);
  });
});

describe('the bundle hash', () => {
  /** The definition (docs/formats/bundle.md), written independently: the parts' digests, hashed. */
  const reference = (text: string) => {
    const parts = text.split(/(?<=\n)(?= {4}")/);
    return createHash('sha256')
      .update(Buffer.concat(parts.map((p) => createHash('sha256').update(p, 'utf8').digest())))
      .digest('hex');
  };
  const frame = { head: '{\n  "agentcVersion": "0",\n  "agents": {\n', tail: '\n  },\n  "flags": [\n    "a",\n    "b"\n  ],\n  "hash": ""\n}\n' };
  const joined = (pieces: Buffer[]) => frame.head + pieces.map((p) => p.toString()).join(',\n') + frame.tail;

  it("is the hash of the parts' digests, however the text is cut into chunks", () => {
    const text = joined(Array.from({ length: 9 }, (_, i) => Buffer.from(`    "a${i}": {\n      "k": [\n        "    \\"x"\n      ]\n    }`)));
    const expected = reference(text);
    expect(hashBundleText(text)).toBe(expected);
    let seed = 11;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 300; round++) {
      const bytes = Buffer.from(text, 'utf8');
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length;) {
        const n = 1 + rand(round % 3 === 0 ? 4 : 40);
        chunks.push(bytes.subarray(at, at + n));
        at += n;
      }
      // Chunk by chunk (a memo: watch), twice (the second time from what the memo kept), and joined (no memo: a one-off build).
      const memo = createHashMemo();
      expect(hashChunks(chunks, memo), `round ${round}`).toBe(expected);
      expect(hashChunks(chunks, memo), `round ${round}, again`).toBe(expected);
      expect(hashChunks(chunks), `round ${round}, joined`).toBe(expected);
    }
  });

  it('with its memo, gives the same digest as hashing everything while pieces change, come and go', () => {
    const memo = createHashMemo();
    let pieces = Array.from({ length: 70 }, (_, i) => Buffer.from(`    "a${i}": {}`));
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 60; round++) {
      expect(hashChunks(jsonChunks(frame, pieces), memo), `round ${round}`).toBe(reference(joined(pieces)));
      const next = [...pieces];
      const at = rand(next.length + 1);
      const op = rand(3);
      if (op === 0 && at < next.length) next[at] = Buffer.from(`    "a${at}": {"r":${round}}`);
      else if (op === 1 || next.length < 2) next.splice(at, 0, Buffer.from(`    "n${round}": {}`));
      else next.splice(Math.min(at, next.length - 1), 1);
      pieces = round % 17 === 16 ? next.slice(0, rand(next.length)) : next;
    }
    expect(hashChunks(jsonChunks(frame, []), memo)).toBe(reference(frame.head + frame.tail));
  });

  it('hashes again only the parts that changed', () => {
    const memo = createHashMemo();
    const pieces = Array.from({ length: 50 }, (_, i) => Buffer.from(`    "a${i}": {}`));
    hashChunks(jsonChunks(frame, pieces), memo);
    const before = pieces.map((p) => memo.chunks.get(p)!.part!.digest);
    const next = [...pieces];
    next[20] = Buffer.from('    "a20": {"changed": true}');
    expect(hashChunks(jsonChunks(frame, next), memo)).toBe(reference(joined(next)));
    // Every other piece's part kept its digest object: it was not hashed again (but the last one's, which
    // runs on into the frame's tail, a string here: a new chunk each time; createBundle's tail is kept chunks).
    pieces.forEach((p, i) => {
      if (i !== 20 && i !== pieces.length - 1) expect(memo.chunks.get(p)!.part!.digest, `piece ${i}`).toBe(before[i]);
    });
    expect(memo.chunks.get(next[20]!)!.part).toBeDefined();
  });
});

describe('emitFiles on a bundle not made by createBundle', () => {
  it('writes canonical JSON whatever the key order and kind of agent ids', () => {
    const base = createBundle(makeProgram({ blocks: [{ id: 'persona-base', text: 'Hi.' }], cards: [{ id: 'solo' }] }), '0');
    const solo = base.agents.solo!;
    // Inserted unsorted, with integer-like ids (which JSON.stringify writes first).
    const agents = { b: { ...solo, id: 'b' }, '10': { ...solo, id: '10' }, '2': { ...solo, id: '2' }, a: { ...solo, id: 'a' } };
    const bundle = { ...base, agents } as Bundle;
    for (const files of [emitFiles(bundle), strings(emitFiles(bundle, createEmitCache()))]) {
      expect(files.get('bundle.json')).toBe(storedJson(storeBundle(bundle)));
      expect(loadBundleJson(files.get('bundle.json')!)).toEqual(bundle);
    }
  });
});
