/**
 * Watch mode's files (src/cli/watch-emit.ts): made with the hash on a worker thread,
 * they are byte for byte a one-shot build's, edit after edit; a worker that fails is
 * reported once (stderr) and the hash is made on the main thread from then on.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, createCompileCache, type CompileCache } from '../../src/compile.js';
import { createBundle } from '../../src/emit/bundle.js';
import { contentToString, type FileContent } from '../../src/emit/content.js';
import { emitFiles } from '../../src/emit/files.js';
import type { BundleHasher } from '../../src/emit/hash-worker.js';
import { createWatchEmitter, type WatchEmitter } from '../../src/cli/watch-emit.js';
import { copyFixture } from '../emit/helpers/workspace.js';

let ws: string;
beforeAll(async () => void (ws = await copyFixture()));
afterAll(() => rm(ws, { recursive: true, force: true }));

const strings = (files: Map<string, FileContent>): Map<string, string> => new Map([...files].map(([p, c]) => [p, contentToString(c)]));

async function edit(rel: string, change: (text: string) => string): Promise<void> {
  await writeFile(join(ws, rel), change(await readFile(join(ws, rel), 'utf8')));
}

/** The emitter's files for the workspace as it is, checked against a one-shot build's. */
async function sameAsOneShot(cache: CompileCache, emitter: WatchEmitter): Promise<void> {
  const result = await compile({ root: ws, cache });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const files = await emitter.files(result.program!);
  const fresh = emitFiles(createBundle((await compile({ root: ws })).program!, '0.0.0-test'));
  expect(strings(files)).toEqual(fresh);
}

describe('the watch emitter', () => {
  it('gives a one-shot build’s bytes, hashing on a worker, edit after edit', async () => {
    const cache = createCompileCache();
    const warnings: string[] = [];
    const emitter = createWatchEmitter(cache.emit, '0.0.0-test', (m) => warnings.push(m));
    await sameAsOneShot(cache, emitter);
    await edit('cards/billing.yaml', (t) => t.replace('description: Invoices and payments', 'description: All invoices and payments'));
    await sameAsOneShot(cache, emitter);
    await edit('schemas/tools/search_trips.yaml', (t) => t.replace(/description: (.*)/, 'description: Changed. $1'));
    await sameAsOneShot(cache, emitter);
    await sameAsOneShot(cache, emitter);
    await emitter.close();
    expect(warnings).toEqual([]);
  });

  it('hashes on the main thread after the worker fails, and says so once', async () => {
    const cache = createCompileCache();
    const warnings: string[] = [];
    let calls = 0;
    const failing: BundleHasher = {
      hash: () => {
        calls++;
        return Promise.reject(new Error('worker gone'));
      },
      close: async () => {},
    };
    const emitter = createWatchEmitter(cache.emit, '0.0.0-test', (m) => warnings.push(m), { hasher: failing });
    await sameAsOneShot(cache, emitter);
    await edit('cards/billing.yaml', (t) => t.replace('All invoices and payments', 'Every invoice and payment'));
    await sameAsOneShot(cache, emitter);
    expect(calls).toBe(1);
    expect(warnings).toEqual([expect.stringMatching(/^agentc: the bundle hash worker failed; hashing on the main thread from now on: worker gone\n$/)]);
  });
});
