/**
 * What watch mode trusts and what it replays, pinned (equality with a fresh
 * compile after random edits is cached-equals-fresh.property.test.ts's):
 * - a compile told `changed` paths reads only those files and trusts the rest
 *   of the last listing; a path it cannot place (a new file, a folder) gets a full scan;
 * - a check rule that declares `reads` runs again only when one of those parts
 *   changed: a block's prose edit keeps `blockHeads`, its front matter does not;
 * - an item pass (src/check/item-findings.ts) looks again only at the items changed since the last compile;
 * - bundle.json's text keys, remade per block (src/emit/store-keys-memo.ts), equal storeKeys' from scratch.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { compile, createCompileCache } from '../../src/compile.js';
import { freshCheckRun, itemPass, type CheckRun, type ItemKind } from '../../src/check/item-findings.js';
import { runChecks } from '../../src/check/index.js';
import { PersistentRuleMemos } from '../../src/check/rule-memo.js';
import type { ProgramPart, Rule } from '../../src/check/rule.js';
import type { Program } from '../../src/resolve/types.js';
import { contentToString } from '../../src/emit/content.js';
import { createBundle } from '../../src/emit/bundle.js';
import { emitFiles } from '../../src/emit/files.js';
import { storeBundle, storedJson } from '../../src/emit/stored.js';
import { AGENTC_VERSION } from '../../src/version.js';
import { makeWorkspace } from './workspace.js';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function workspace(): string {
  const root = makeWorkspace();
  roots.push(root);
  return root;
}

const BLOCK = 'blocks/shop/instructions-shop.md';
const blockText = (program: Program | undefined): string | undefined => [...(program?.blocks.values() ?? [])].find((b) => b.file.path === BLOCK)?.body;

test('told the changed paths, a compile reads only them; an unknown path gets a full scan', async () => {
  const root = workspace();
  const cache = createCompileCache();
  await compile({ root, cache, persistentCache: false });

  // Not named: the edit is not seen (the listing and every other file are trusted).
  appendFileSync(join(root, BLOCK), '\nFirst note.\n');
  const trusted = await compile({ root, cache, persistentCache: false, changed: ['cards/shop.yaml'] });
  expect(blockText(trusted.program)).not.toContain('First note.');

  // Named (with an editor's backup and a hidden temp file beside it): read.
  writeFileSync(join(root, `${BLOCK}~`), 'backup');
  const named = await compile({ root, cache, persistentCache: false, changed: [BLOCK, `${BLOCK}~`, 'blocks/shop/.instructions-shop.md.swp'] });
  expect(blockText(named.program)).toContain('First note.');

  // A new folder with a new block: not in the listing, so the whole workspace is scanned (and the edit seen too).
  mkdirSync(join(root, 'blocks/extra'));
  writeFileSync(join(root, 'blocks/extra/extra-note.md'), '---\ncategory: context\nowner: platform\nreusable: true\n---\nExtra.\n');
  appendFileSync(join(root, BLOCK), '\nSecond note.\n');
  const scanned = await compile({ root, cache, persistentCache: false, changed: ['blocks/extra'] });
  expect(scanned.program?.blocks.has('extra-note')).toBe(true);
  expect(blockText(scanned.program)).toContain('Second note.');

  // A removed file: named, it no longer exists, so the whole workspace is scanned.
  rmSync(join(root, 'blocks/extra/extra-note.md'));
  const removed = await compile({ root, cache, persistentCache: false, changed: ['blocks/extra/extra-note.md'] });
  expect(removed.program?.blocks.has('extra-note')).toBe(false);
  const fresh = await compile({ root, persistentCache: false });
  expect(removed.diagnostics).toEqual(fresh.diagnostics);
}, 60_000);

test('a rule that declares what it reads runs again only when that changed', async () => {
  const root = workspace();
  const cache = createCompileCache();
  const runs = new Map<string, number>();
  const spy = (id: string, reads: readonly ProgramPart[]): Rule =>
    ({ id: 'unused-tool', reads, run: () => runs.set(id, (runs.get(id) ?? 0) + 1) }) as unknown as Rule;
  // Each spy under its own memo (a memo holds one entry per rule id).
  const spies = [spy('cardTable', ['cardTable']), spy('toolTable', ['toolTable']), spy('blockHeads', ['blockHeads']), spy('always', undefined as never)];
  const memos = spies.map(() => new PersistentRuleMemos());
  const check = async (changed?: string[]) => {
    const { program } = await compile({ root, cache, persistentCache: false, ...(changed ? { changed } : {}) });
    spies.forEach((rule, i) => runChecks(program!, [rule], memos[i]));
  };
  const counts = () => Object.fromEntries(runs);

  await check();
  expect(counts()).toEqual({ cardTable: 1, toolTable: 1, blockHeads: 1, always: 1 });
  appendFileSync(join(root, BLOCK), '\nProse only.\n');
  await check([BLOCK]);
  expect(counts()).toEqual({ cardTable: 1, toolTable: 1, blockHeads: 1, always: 2 });
  const text = readFileSync(join(root, BLOCK), 'utf8');
  writeFileSync(join(root, BLOCK), text.replace(/^owner: .*$/m, 'owner: someone_else'));
  await check([BLOCK]);
  expect(counts()).toEqual({ cardTable: 1, toolTable: 1, blockHeads: 2, always: 3 });
  appendFileSync(join(root, 'cards/shop.yaml'), '\n# a comment\n');
  await check(['cards/shop.yaml']);
  expect(counts()).toEqual({ cardTable: 2, toolTable: 1, blockHeads: 2, always: 4 });
}, 60_000);

test('an item pass looks again only at the items changed since the last compile; another config or a skipped compile looks at all', async () => {
  const root = workspace();
  const cache = createCompileCache();
  const looked: Record<string, string[]> = {};
  let counting = true;
  const spyPass = <K extends ItemKind>(kind: K) =>
    itemPass<K, string>(kind, (_program, item, found) => {
      const id = 'data' in item ? ('id' in item.data ? item.data.id : item.data.name) : item.card.data.id;
      if (counting) (looked[kind] ??= []).push(id);
      found(id);
    });
  const passes = [spyPass('agent'), spyPass('card'), spyPass('block'), spyPass('tool')];
  const seen: string[][] = [];
  const rule = {
    id: 'unused-tool',
    run: (_p: Program, _r: unknown, items: CheckRun) => {
      seen.length = 0;
      for (const pass of passes) seen.push(items.findings(pass).map((f) => f.found.join()));
    },
  } as unknown as Rule;
  const memos = new PersistentRuleMemos();
  const check = async (changed?: string[]) => {
    for (const k of Object.keys(looked)) delete looked[k];
    const { program } = await compile({ root, cache, persistentCache: false, ...(changed ? { changed } : {}) });
    runChecks(program!, [rule], memos);
    // Every item has a finding, so the findings are every id in order (as a fresh run finds them).
    counting = false;
    const fresh = passes.map((pass) =>
      freshCheckRun(program!)
        .findings(pass)
        .map((f) => f.found.join()),
    );
    counting = true;
    expect(seen).toEqual(fresh);
    return program!;
  };

  const first = await check();
  expect(looked.agent?.length).toBe(first.agents.size);
  expect(looked.block?.length).toBe(first.blocks.size);
  appendFileSync(join(root, BLOCK), '\nAgain.\n');
  await check([BLOCK]);
  expect(looked).toEqual({ agent: ['shop'], block: ['instructions-shop'] });
  await check([BLOCK]);
  expect(looked).toEqual({});
  // A card removed: its agent and card are dropped from the findings, nothing else is looked at.
  rmSync(join(root, 'cards/play.yaml'));
  const removed = await check(['cards/play.yaml']);
  expect(removed.cards.has('play')).toBe(false);
  expect(seen[1]).not.toContain('play');
  expect(looked.card ?? []).toEqual([]);
  // A compile the memo did not see (a rule skipped, a program resolved elsewhere): the next one looks at every item.
  appendFileSync(join(root, BLOCK), '\nOnce more.\n');
  await compile({ root, cache, persistentCache: false, changed: [BLOCK] });
  await check([]);
  expect(looked.block?.length).toBe(removed.blocks.size);
}, 60_000);

test("bundle.json's text keys follow a shared block's first user when only another agent changed", async () => {
  const root = workspace();
  // Each model renders the platform block differently: its texts are keyed by the first agent (in id order) with that model.
  const shared = join(root, 'blocks/platform/safety-base.md');
  writeFileSync(shared, `${readFileSync(shared, 'utf8')}\nYou run on {{model.id}}.\n`);
  const cache = createCompileCache();
  const stored = async (): Promise<void> => {
    const { program } = await compile({ root, cache, persistentCache: false });
    const bundle = createBundle(program!, AGENTC_VERSION, cache.emit);
    const json = contentToString(emitFiles(bundle, cache.emit).get('bundle.json')!);
    expect(json).toBe(storedJson(storeBundle(bundle)));
  };
  await stored();
  // ereceipts is first in id order: its model's text was keyed by it, and is keyed by the next agent with that model now.
  const card = join(root, 'cards/ereceipts.yaml');
  writeFileSync(card, readFileSync(card, 'utf8').replace(/^model: .*$/m, 'model: gpt-5.4-nano'));
  await stored();
}, 60_000);
