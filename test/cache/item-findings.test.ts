/**
 * Item passes (src/check/item-findings.ts) replay each agent's and block's findings
 * while the item is the same object: every edit below changes what some rule
 * finds on one item, and a compile reusing one CompileCache (told the changed
 * paths, as watch mode is) must find exactly what a fresh compile finds — a
 * finding that appears, one that goes away again, one whose text changes.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { compile, createCompileCache, type CompileResult } from '../../src/compile.js';
import { BASE_MODEL, makeWorkspace, writeConfig } from './workspace.js';

const dirs: string[] = [];
// Token counts through one persistent store for both sides (content-addressed: a fresh compile with it equals one without).
const cacheRoot = mkdtempSync(join(tmpdir(), 'agentc-cache-items-'));
mkdirSync(join(cacheRoot, 'node_modules'));
dirs.push(cacheRoot);
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const BLOCK = 'blocks/shop/instructions-shop.md';
const CARD = 'cards/shop.yaml';
const CONFIG = ['agentc.config.ts', 'config-fields.ts'];

const found = (r: CompileResult, rule: string, file?: string) => r.diagnostics.filter((d) => d.rule === rule && (file === undefined || d.file === file));

test('findings kept per agent and per block follow every edit: over budget and back, a body-only edit, a config change, a card model change', async () => {
  const root = makeWorkspace();
  dirs.push(root);
  const cache = createCompileCache();
  const read = (path: string) => readFileSync(join(root, path), 'utf8');
  const write = (path: string, text: string) => writeFileSync(join(root, path), text);
  /** A watch-mode compile told `changed`, checked against a fresh compile of the same files. */
  const step = async (changed: string[]): Promise<CompileResult> => {
    const cached = await compile({ root, cache, cacheRoot, changed });
    const fresh = await compile({ root, cacheRoot });
    expect(cached.diagnostics).toEqual(fresh.diagnostics);
    return cached;
  };
  await compile({ root, cache, cacheRoot });
  const block = read(BLOCK);
  const card = read(CARD);

  // The block's body grows past its max_tokens (its front matter is unchanged), then shrinks back.
  write(BLOCK, `${block}\n${'Compare every price twice and explain each difference to the shopper in detail. '.repeat(80)}\n`);
  expect(found(await step([BLOCK]), 'block-budget', BLOCK)).toHaveLength(1);
  write(BLOCK, block);
  expect(found(await step([BLOCK]), 'block-budget')).toEqual([]);

  // A volatile literal in the body only, then gone.
  write(BLOCK, `${block}\nPrices were checked on 2024-05-01.\n`);
  expect(found(await step([BLOCK]), 'volatile-in-prefix', BLOCK)).toHaveLength(1);
  write(BLOCK, block);
  expect(found(await step([BLOCK]), 'volatile-in-prefix')).toEqual([]);

  // A config change re-judges every agent: a tiny warn ratio puts prompts over it.
  writeConfig(root, { ...BASE_MODEL, warnRatio: 0.001 });
  const warned = found(await step(CONFIG), 'prompt-budget', CARD);
  expect(warned.length).toBeGreaterThan(0);
  expect(warned[0]!.message).toContain('gpt-5.4-mini-low');

  // The config's text alone changes (its value does not, so every agent is kept): the findings' ranges into it move.
  const configText = read('agentc.config.ts');
  write('agentc.config.ts', `// The platform team's config.\n${configText}`);
  const moved = found(await step(['agentc.config.ts']), 'prompt-budget', CARD);
  expect(moved[0]!.related?.[0]?.range?.start.line).toBe(warned[0]!.related![0]!.range!.start.line + 1);

  // The card's model changes: its finding names the new model.
  write(CARD, card.replace(/^model: .*$/m, 'model: gpt-4.1-mini'));
  const remodelled = found(await step([CARD]), 'prompt-budget', CARD);
  expect(remodelled.map((d) => d.message).join('\n')).toContain('gpt-4.1-mini');

  // Its input budget shrinks below its prompt: a token-budget error on this card alone.
  write(CARD, card.replace('token_budget: { input: 8000', 'token_budget: { input: 100'));
  const tight = await step([CARD]);
  expect(found(tight, 'token-budget').map((d) => d.file)).toEqual([CARD]);

  // Everything back: no finding of these rules is left over.
  write(CARD, card);
  writeConfig(root, BASE_MODEL);
  const back = await step([CARD, ...CONFIG]);
  for (const rule of ['prompt-budget', 'token-budget', 'block-budget', 'volatile-in-prefix']) expect(found(back, rule)).toEqual([]);
}, 120_000);

test('a duplicate id added and removed: the tables are made again, then equal the first ones', async () => {
  const root = makeWorkspace();
  dirs.push(root);
  const cache = createCompileCache();
  const first = await compile({ root, cache, cacheRoot });
  const copy = 'cards/shop_copy.yaml';
  writeFileSync(join(root, copy), readFileSync(join(root, CARD), 'utf8'));
  const dup = await compile({ root, cache, cacheRoot, changed: [copy] });
  expect(dup.diagnostics).toEqual((await compile({ root, cacheRoot })).diagnostics);
  expect(dup.program?.duplicates.map((d) => [d.kind, d.id, d.file.path])).toEqual([['card', 'shop', copy]]);
  rmSync(join(root, copy));
  const gone = await compile({ root, cache, cacheRoot, changed: [copy] });
  expect(gone.diagnostics).toEqual(first.diagnostics);
  expect(gone.program?.duplicates).toEqual([]);
  expect(gone.program?.cards.get('shop')).toBe(first.program?.cards.get('shop'));
}, 120_000);
