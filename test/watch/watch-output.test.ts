/**
 * The output watcher (src/cli/watch-output.ts): after a first round ('all'), a
 * round names exactly the files something wrote since the last one; a folder
 * replaced or gone, or not yet there, makes it 'all' again. writeOutput given its
 * names leaves a one-shot build's bytes, edit after edit.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { OutputWatcher } from '../../src/cli/watch-output.js';
import { compile, createCompileCache } from '../../src/compile.js';
import { createBundle } from '../../src/emit/bundle.js';
import { emitFiles } from '../../src/emit/files.js';
import { writeOutput } from '../../src/emit/write.js';
import { copyFixture } from '../emit/helpers/workspace.js';
import { tempDir } from '../helpers/temp-dirs.js';

const watchers: OutputWatcher[] = [];
afterEach(() => watchers.splice(0).forEach((w) => w.close()));

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 60));
/** Output paths in the output folder and in prompts/ (take() watches their folders). */
const DIRS = ['bundle.json', 'prompts/a.md'];

test('names the files written since the last round, and says "all" when a folder is new or replaced', async () => {
  const out = tempDir('agentc-watch-output-');
  const w = new OutputWatcher(out);
  watchers.push(w);
  expect(w.take(DIRS)).toBe('all'); // nothing watched yet
  await mkdir(join(out, 'prompts'), { recursive: true });
  await writeFile(join(out, 'bundle.json'), '{}');
  expect(w.take(DIRS)).toBe('all'); // the folders appeared: now watched
  expect(w.take(DIRS)).toEqual(new Set());

  await writeFile(join(out, 'prompts', 'a.md'), 'changed by hand');
  await writeFile(join(out, 'bundle.json'), '{"x":1}');
  await settle();
  const round = w.take(DIRS);
  expect(round).not.toBe('all');
  expect([...(round as Set<string>)].sort()).toEqual(expect.arrayContaining(['bundle.json', 'prompts/a.md']));
  expect(w.take(DIRS)).toEqual(new Set());

  // Replaced: a new inode under the same name.
  await rm(join(out, 'prompts'), { recursive: true });
  await mkdir(join(out, 'prompts'));
  await settle();
  expect(w.take(DIRS)).toBe('all');
  expect(w.take(DIRS)).toEqual(new Set());
  await rm(join(out, 'prompts'), { recursive: true });
  expect(w.take(DIRS)).toBe('all');
});

test("writeOutput with the watcher's suspects leaves a one-shot build's bytes, edit after edit", async () => {
  const ws = await copyFixture();
  const out = join(ws, 'out');
  const cache = createCompileCache();
  const w = new OutputWatcher(out);
  watchers.push(w);
  const edit = async (rel: string, change: (text: string) => string): Promise<void> => writeFile(join(ws, rel), change(await readFile(join(ws, rel), 'utf8')));
  const rebuild = async (): Promise<void> => {
    const result = await compile({ root: ws, cache });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const files = emitFiles(createBundle(result.program!, '0.0.0-test', cache.emit), cache.emit);
    cache.emit.written.suspects = w.take(files.keys());
    await writeOutput(out, files, undefined, cache.emit.written);
    const fresh = emitFiles(createBundle((await compile({ root: ws })).program!, '0.0.0-test'));
    for (const [rel, text] of fresh) expect(await readFile(join(out, rel), 'utf8'), rel).toBe(text);
    // Nothing else: files added by hand are gone, as after a one-shot build.
    const listed = (await readdir(out, { recursive: true, withFileTypes: true })).map(
      (e) => `${relative(out, join(e.parentPath, e.name))}${e.isDirectory() ? '/' : ''}`,
    );
    expect(listed.filter((p) => !p.endsWith('/')).sort()).toEqual([...fresh.keys()].sort());
    await settle();
  };
  await rebuild();
  await edit('cards/billing.yaml', (t) => t.replace(/description: (.*)/, 'description: Changed. $1'));
  await rebuild();
  await writeFile(
    join(out, 'orchestrator.ts'),
    (await readFile(join(out, 'orchestrator.ts'), 'utf8')).replace(/[a-z]/, (c) => (c === 'a' ? 'b' : 'a')),
  );
  await settle();
  await edit('schemas/tools/search_trips.yaml', (t) => t.replace(/description: (.*)/, 'description: Changed. $1'));
  await rebuild();
  await rebuild();
  // By hand: a file added at the top and in prompts/, a prompt deleted; then a folder made inside prompts/.
  const prompt = (await readdir(join(out, 'prompts')))[0]!;
  await writeFile(join(out, 'notes.md'), 'mine');
  await writeFile(join(out, 'prompts', 'extra.md'), 'mine');
  await rm(join(out, 'prompts', prompt));
  await settle();
  await rebuild();
  await mkdir(join(out, 'prompts', 'sub'));
  await writeFile(join(out, 'prompts', 'sub', 'deep.md'), 'mine');
  await settle();
  await rebuild();
  await rm(ws, { recursive: true, force: true });
});
