/**
 * The output watcher (src/cli/watch-output.ts): after a first round ('all'), a
 * round names exactly the files something wrote since the last one; a folder
 * replaced or gone, or not yet there, makes it 'all' again.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { OutputWatcher } from '../../src/cli/watch-output.js';
import { tempDir } from '../helpers/temp-dirs.js';

const watchers: OutputWatcher[] = [];
afterEach(() => watchers.splice(0).forEach((w) => w.close()));

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 60));
const DIRS = ['', 'prompts'];

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
