/**
 * What a one-block edit costs in watch mode: only the agents whose prompt holds
 * the block are resolved and serialized again. Every other resolved agent is the
 * same object as before (CompileCache.agents), and bundle.json reuses every
 * other chunk (EmitCache: agent pieces, the tail's per-entry chunks). Equality with a fresh compile is the property test's
 * (cached-equals-fresh.property.test.ts); this one pins the scope of the work.
 */
import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { compile, createCompileCache, type CompileCache } from '../../src/compile.js';
import { createBundle } from '../../src/emit/bundle.js';
import { emitFiles } from '../../src/emit/files.js';
import type { FileContent } from '../../src/emit/content.js';
import { AGENTC_VERSION } from '../../src/version.js';
import { makeWorkspace } from './workspace.js';

const root = makeWorkspace();
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function build(cache: CompileCache) {
  const result = await compile({ root, cache, persistentCache: false });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const files = emitFiles(createBundle(result.program!, AGENTC_VERSION, cache.emit), cache.emit);
  return { program: result.program!, files };
}

function chunks(content: FileContent | undefined): readonly Uint8Array[] {
  if (content === undefined || typeof content === 'string') throw new Error('expected chunks');
  return content;
}

test('a one-block edit re-resolves and re-serializes only the agents whose prompt holds the block', async () => {
  const cache = createCompileCache();
  const before = await build(cache);
  appendFileSync(join(root, 'blocks/shop/instructions-shop.md'), '\nMention the returns window once.\n');
  const after = await build(cache);

  const changed = [...after.program.agents].filter(([id, agent]) => before.program.agents.get(id) !== agent).map(([id]) => id);
  expect(changed).toEqual(['shop']);
  expect(after.program.agents.size).toBeGreaterThan(5);

  const old = new Set(chunks(before.files.get('bundle.json')));
  const fresh = chunks(after.files.get('bundle.json')).filter((c) => !old.has(c));
  const text = fresh.map((c) => Buffer.from(c).toString('utf8')).join('');
  // New: the file's head, the shop agent's piece, the block's text entry and the hash member.
  expect(fresh.length).toBeLessThanOrEqual(6);
  expect(text).toContain('Mention the returns window once.');
  expect(text).toContain('"shop": {');
  // Prompt files of other agents are the same strings; bundle.ts declares no prompt text, so it is unchanged.
  const promptChanged = [...after.files].filter(([path, content]) => path.startsWith('prompts/') && before.files.get(path) !== content).map(([p]) => p);
  expect(promptChanged.every((p) => p.includes('shop'))).toBe(true);
  expect(Buffer.concat(chunks(after.files.get('bundle.ts'))).equals(Buffer.concat(chunks(before.files.get('bundle.ts'))))).toBe(true);
}, 60_000);
