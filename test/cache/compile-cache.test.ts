/**
 * CompileCache: a compile that reuses one cache equals a fresh compile —
 * including after config edits (the template-verdict bug of issue 13) and
 * edits to a file the config imports.
 */
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { compile, configImports, createCompileCache, type CompileResult } from '../../src/compile.js';
import { BASE_MODEL, makeWorkspace, writeConfig } from './workspace.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const rules = (r: CompileResult) => r.diagnostics.map((d) => `${d.rule}@${d.file}:${d.range?.start.line}`);
const fresh = (root: string) => compile({ root, bundle: true, persistentCache: false });

test('watch-mode bug: adding a read field to dynamicContext.fields turns template-unknown-variable into dynamic-in-prefix', async () => {
  const root = makeWorkspace({ ...BASE_MODEL, fields: ['date', 'location', 'user_id'] });
  dirs.push(root);
  appendFileSync(join(root, 'blocks/rewards/persona-rewards.md'), '\nAnswer in {{locale}}.\n');
  const cache = createCompileCache();

  const before = await compile({ root, cache, persistentCache: false });
  expect(rules(before)).toContain(
    'template-unknown-variable@blocks/rewards/persona-rewards.md:' + before.diagnostics.find((d) => d.rule === 'template-unknown-variable')!.range!.start.line,
  );
  expect(rules(before).some((r) => r.startsWith('dynamic-in-prefix'))).toBe(false);

  writeConfig(root, BASE_MODEL); // 'locale' is a dynamic field now
  const after = await compile({ root, cache, persistentCache: false });
  expect(after.diagnostics.some((d) => d.rule === 'template-unknown-variable')).toBe(false);
  expect(after.diagnostics.some((d) => d.rule === 'dynamic-in-prefix' && d.file === 'blocks/rewards/persona-rewards.md')).toBe(true);
  expect(after.diagnostics).toEqual((await fresh(root)).diagnostics);
}, 60_000);

test('an edit to a file the config imports recompiles with the new config', async () => {
  const root = makeWorkspace({ ...BASE_MODEL, fields: ['date', 'location', 'user_id'] });
  dirs.push(root);
  appendFileSync(join(root, 'blocks/rewards/persona-rewards.md'), '\nAnswer in {{locale}}.\n');
  const cache = createCompileCache();
  const before = await compile({ root, cache, persistentCache: false });
  expect(before.diagnostics.some((d) => d.rule === 'template-unknown-variable')).toBe(true);
  expect(configImports(cache)).toContain(join(root, 'config-fields.ts'));

  // Only the imported file changes; the config's own text is the same.
  const configBefore = readFileSync(join(root, 'agentc.config.ts'), 'utf8');
  writeFileSync(join(root, 'config-fields.ts'), "export const extraFields: string[] = ['locale'];\n");
  const after = await compile({ root, cache, persistentCache: false });
  expect(readFileSync(join(root, 'agentc.config.ts'), 'utf8')).toBe(configBefore);
  expect(after.diagnostics.some((d) => d.rule === 'template-unknown-variable')).toBe(false);
  expect(after.diagnostics.some((d) => d.rule === 'dynamic-in-prefix')).toBe(true);
  expect(after.program?.config.data.dynamicContext.fields).toContain('locale');

  // Unchanged config and imports: the config is not evaluated again (same load object).
  const load = cache.config?.load;
  await compile({ root, cache, persistentCache: false });
  expect(cache.config?.load).toBe(load);
}, 60_000);

test('invalidate forgets a path, or everything; results stay equal to a fresh compile', async () => {
  const root = makeWorkspace();
  dirs.push(root);
  const cache = createCompileCache();
  const first = await compile({ root, cache, bundle: true, persistentCache: false });
  expect(cache.parsed.has('cards/rewards.yaml')).toBe(true);
  expect(cache.blocks.size).toBeGreaterThan(0);
  cache.invalidate(['cards/rewards.yaml', 'blocks/rewards/persona-rewards.md']);
  expect(cache.parsed.has('cards/rewards.yaml')).toBe(false);
  expect(cache.files.has('cards/rewards.yaml')).toBe(false);
  const second = await compile({ root, cache, bundle: true, persistentCache: false });
  expect(second.bundle).toEqual(first.bundle);
  cache.invalidate(['config-fields.ts'].map((p) => join(root, p)));
  expect(cache.config).toBeUndefined();
  cache.invalidate();
  expect(cache.parsed.size).toBe(0);
  expect(cache.blocks.size).toBe(0);
  const third = await compile({ root, cache, bundle: true, persistentCache: false });
  expect(third.bundle).toEqual(first.bundle);
  expect(third.diagnostics).toEqual(first.diagnostics);
}, 60_000);

test('the session token memo follows the workspace: edits do not make it grow', async () => {
  const root = makeWorkspace();
  dirs.push(root);
  const cache = createCompileCache();
  const block = join(root, 'blocks/rewards/persona-rewards.md');
  const original = readFileSync(block, 'utf8');
  const sizes: number[] = [];
  for (let i = 0; i < 8; i++) {
    writeFileSync(block, `${original}\nEdit number ${i}: ${'word '.repeat(i + 1)}\n`);
    await compile({ root, cache, persistentCache: false });
    sizes.push(cache.tokens!.counter.size);
  }
  // Each edit adds new texts; without eviction the memo would grow by them on every compile.
  expect(sizes[7]).toBeLessThanOrEqual(sizes[2]! + 2);
}, 60_000);

test('the parse cache follows the workspace: a deleted file loses its entry, an edit keeps one per file', async () => {
  const root = makeWorkspace(BASE_MODEL);
  dirs.push(root);
  const cache = createCompileCache();
  await compile({ root, cache, persistentCache: false });
  const path = 'blocks/rewards/persona-rewards.md';
  const size = cache.parsed.size;
  expect(cache.parsed.has(path)).toBe(true);
  appendFileSync(join(root, path), '\nOne more line.\n');
  await compile({ root, cache, persistentCache: false, changed: [path] });
  expect(cache.parsed.size).toBe(size);
  rmSync(join(root, path));
  const after = await compile({ root, cache, persistentCache: false, changed: [path] });
  expect(cache.parsed.has(path)).toBe(false);
  expect(cache.parsed.size).toBe(size - 1);
  expect(after.diagnostics).toEqual((await fresh(root)).diagnostics);
}, 60_000);
