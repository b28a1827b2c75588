/**
 * Watch mode's files (src/cli/watch-emit.ts): byte for byte a one-shot build's, edit
 * after edit, with the output watched or not.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, createCompileCache, type CompileCache } from '../../src/compile.js';
import { createBundle } from '../../src/emit/bundle.js';
import { contentToString, type FileContent } from '../../src/emit/content.js';
import { emitFiles } from '../../src/emit/files.js';
import { writeOutput } from '../../src/emit/write.js';
import { createWatchEmitter, type WatchEmitter } from '../../src/cli/watch-emit.js';
import { copyFixture } from '../emit/helpers/workspace.js';

let ws: string;
beforeAll(async () => void (ws = await copyFixture()));
afterAll(() => rm(ws, { recursive: true, force: true }));

const strings = (files: Map<string, FileContent>): Map<string, string> => new Map([...files].map(([p, c]) => [p, contentToString(c)]));

async function edit(rel: string, change: (text: string) => string): Promise<void> {
  await writeFile(join(ws, rel), change(await readFile(join(ws, rel), 'utf8')));
}

/** The emitter's files for the workspace as it is, checked against a one-shot build's, then written. */
async function sameAsOneShot(cache: CompileCache, emitter: WatchEmitter, out: string): Promise<void> {
  const result = await compile({ root: ws, cache });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const files = emitter.files(result.program!);
  const fresh = emitFiles(createBundle((await compile({ root: ws })).program!, '0.0.0-test'));
  expect(strings(files)).toEqual(fresh);
  await writeOutput(out, files, undefined, cache.emit.written);
}

describe('the watch emitter', () => {
  for (const watched of [false, true]) {
    it(`gives a one-shot build’s bytes, edit after edit (output ${watched ? '' : 'not '}watched)`, async () => {
      const cache = createCompileCache();
      const out = join(ws, `out-${watched}`);
      const emitter = createWatchEmitter(cache.emit, '0.0.0-test', watched ? out : undefined);
      await sameAsOneShot(cache, emitter, out);
      await edit('cards/billing.yaml', (t) => t.replace(/description: (.*)/, 'description: Changed. $1'));
      await sameAsOneShot(cache, emitter, out);
      await edit('schemas/tools/search_trips.yaml', (t) => t.replace(/description: (.*)/, 'description: Changed. $1'));
      await sameAsOneShot(cache, emitter, out);
      await sameAsOneShot(cache, emitter, out);
      emitter.close();
    });
  }
});
