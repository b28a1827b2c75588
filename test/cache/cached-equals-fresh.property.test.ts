/**
 * Property: after any sequence of edits to a workspace — cards, blocks, tools,
 * the config and a file the config imports — a compile that reuses one
 * CompileCache yields the same diagnostics and bundle as a fresh compile, and
 * the generated files made through its emit cache (as watch mode writes them:
 * per-agent pieces, chunked tables, variants' runs) have the same bytes. The
 * cached compile is told the changed paths, as watch mode tells it (only those
 * are read; check rules that declare `reads` are replayed while those are unchanged). The
 * files are made from the program whatever its diagnostics (createBundle takes
 * an incomplete program), so every step exercises the emit cache.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, test } from 'vitest';
import { compile, createCompileCache, type CompileCache, type CompileResult } from '../../src/compile.js';
import { contentToString } from '../../src/emit/content.js';
import { createBundle } from '../../src/emit/bundle.js';
import { emitFiles } from '../../src/emit/files.js';
import { storeBundle, storedJson } from '../../src/emit/stored.js';
import { AGENTC_VERSION } from '../../src/version.js';
import { BASE_MODEL, makeWorkspace, writeConfig, type ConfigModel } from './workspace.js';

const dirs: string[] = [];
// Both sides count tokens through one persistent store (content-addressed and verified, so a fresh
// compile with it equals one without: test/cache/token-store.test.ts); it halves the time of a step.
const cacheRoot = mkdtempSync(join(tmpdir(), 'agentc-cache-tokens-'));
mkdirSync(join(cacheRoot, 'node_modules'));
dirs.push(cacheRoot);
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const CARDS = ['rewards', 'shop', 'support', 'play'];
const BLOCKS = [
  'blocks/rewards/persona-rewards.md',
  'blocks/shop/instructions-shop.md',
  'blocks/platform/safety-base.md',
  'blocks/support/context-support-categories.md',
];
const TOOLS = ['schemas/tools/get_user_points.yaml', 'schemas/tools/create_support_ticket.yaml'];
const READS = ['{{locale}}', '{{user_id}}', '{{card.id}}', '{{model.id}}', 'on 2024-05-01', '{{#if flags.offer_stacking}}stack{{/if}}', '{{nope.value}}'];

type Edit =
  | { kind: 'card-description'; card: string; text: string }
  | { kind: 'card-tool'; card: string; tool: string }
  | { kind: 'card-model'; card: string; model: string }
  | { kind: 'card-sub-agent'; card: string; sub: string }
  | { kind: 'card-add'; n: number }
  | { kind: 'card-remove'; card: string }
  | { kind: 'block-append'; block: string; text: string }
  | { kind: 'block-remove'; block: string }
  | { kind: 'block-add'; n: number; text: string }
  | { kind: 'tool-description'; tool: string; text: string }
  | { kind: 'tool-break'; tool: string }
  | { kind: 'config'; change: Partial<ConfigModel> }
  | { kind: 'config-import'; imported: string[] };

const field = fc.constantFrom('locale', 'location', 'user_id', 'tier');
/** Config edits are weighted up: a verdict that depends on the config goes stale only when the config changes. */
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constant('card-description' as const),
    card: fc.constantFrom(...CARDS),
    text: fc.constantFrom('Points.', 'A much longer description of what this agent answers.'),
  }),
  fc.record({ kind: fc.constant('card-tool' as const), card: fc.constantFrom(...CARDS), tool: fc.constantFrom('get_user_points', 'get_user_pionts') }),
  // With {{model.id}} in a shared block, a card's model decides which agent first uses each of the block's texts (its keys in bundle.json).
  fc.record({
    kind: fc.constant('card-model' as const),
    card: fc.constantFrom('ereceipts', 'fetch_assistant', ...CARDS),
    model: fc.constantFrom('gpt-5.4-nano', 'gpt-5.4-mini-low'),
  }),
  // The sub-agent graph, parents (a parent's card is an input of its sub-agents) and dispatch facts.
  fc.record({
    kind: fc.constant('card-sub-agent' as const),
    card: fc.constantFrom('shop', 'support', 'play'),
    sub: fc.constantFrom('rewards', 'restaurants', 'nobody'),
  }),
  // Agents added and removed: ids, sorted tables, text keys' first users, tool shapes' order.
  fc.record({ kind: fc.constant('card-add' as const), n: fc.integer({ min: 1, max: 2 }) }),
  fc.record({ kind: fc.constant('card-remove' as const), card: fc.constantFrom('play', 'restaurants', 'ereceipts') }),
  fc.record({ kind: fc.constant('block-append' as const), block: fc.constantFrom(...BLOCKS), text: fc.constantFrom(...READS) }),
  fc.record({ kind: fc.constant('block-remove' as const), block: fc.constantFrom(...BLOCKS) }),
  fc.record({ kind: fc.constant('block-add' as const), n: fc.integer({ min: 1, max: 2 }), text: fc.constantFrom(...READS) }),
  fc.record({ kind: fc.constant('tool-description' as const), tool: fc.constantFrom(...TOOLS), text: fc.constantFrom('Look it up.', 'Fetch the value.') }),
  fc.record({ kind: fc.constant('tool-break' as const), tool: fc.constantFrom(...TOOLS) }),
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('config' as const),
      change: fc.record(
        {
          fields: fc.uniqueArray(field, { maxLength: 3 }).map((f) => ['date', ...f]),
          warnRatio: fc.constantFrom(0.01, 0.25, 0.4),
          maxSubAgents: fc.constantFrom(2, 9),
          flags: fc.subarray(['receipts_v2', 'offer_stacking']),
          rules: fc.dictionary(
            fc.constantFrom('volatile-in-prefix', 'dynamic-in-prefix', 'template-unknown-variable', 'prompt-budget'),
            fc.constantFrom('off' as const, 'warning' as const, 'error' as const),
            { maxKeys: 2 },
          ),
        },
        { requiredKeys: [] },
      ),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('config-import' as const), imported: fc.uniqueArray(field, { maxLength: 2 }) }) },
);

/** Reads of fields that config edits add and remove, present from the start. */
function seedReads(root: string): void {
  const path = join(root, 'blocks/rewards/instructions-rewards.md');
  writeFileSync(path, `${readFileSync(path, 'utf8')}\nAnswer in {{locale}} for a {{tier}} member near {{location}}.\n`);
  const shared = join(root, 'blocks/platform/safety-base.md');
  writeFileSync(shared, `${readFileSync(shared, 'utf8')}\nYou run on {{model.id}}.\n`);
}

/** Applies the edit; returns the new config model and the paths it wrote or removed (what a watcher would report). */
function apply(root: string, e: Edit, model: ConfigModel): { model: ConfigModel; touched: string[] } {
  const touched: string[] = [];
  const edit = (path: string, f: (text: string) => string): void => {
    const abs = join(root, path);
    if (existsSync(abs)) writeFileSync(abs, f(readFileSync(abs, 'utf8')));
    touched.push(path);
  };
  switch (e.kind) {
    case 'card-description':
      edit(`cards/${e.card}.yaml`, (t) => t.replace(/^description: .*$/m, `description: ${e.text}`));
      return { model, touched };
    case 'card-tool':
      edit(`cards/${e.card}.yaml`, (t) => t.replace(/^tools: \[/m, `tools: [${e.tool}, `));
      return { model, touched };
    case 'card-model':
      edit(`cards/${e.card}.yaml`, (t) => t.replace(/^model: .*$/m, `model: ${e.model}`));
      return { model, touched };
    case 'card-sub-agent':
      edit(`cards/${e.card}.yaml`, (t) => t.replace(/^sub_agents: \[\]$/m, `sub_agents: [${e.sub}]`));
      return { model, touched };
    case 'card-add': {
      const path = `cards/rewards_copy_${e.n}.yaml`;
      writeFileSync(join(root, path), readFileSync(join(root, 'cards/rewards.yaml'), 'utf8').replace(/^id: rewards$/m, `id: rewards_copy_${e.n}`));
      return { model, touched: [path] };
    }
    case 'card-remove':
      if (existsSync(join(root, `cards/${e.card}.yaml`))) unlinkSync(join(root, `cards/${e.card}.yaml`));
      return { model, touched: [`cards/${e.card}.yaml`] };
    case 'block-append':
      edit(e.block, (t) => `${t}\nAlso ${e.text}.\n`);
      return { model, touched };
    case 'block-remove':
      if (existsSync(join(root, e.block))) unlinkSync(join(root, e.block));
      return { model, touched: [e.block] };
    case 'block-add':
      writeFileSync(join(root, `blocks/shared/extra-${e.n}.md`), `---\ncategory: context\nowner: platform\nreusable: true\n---\nExtra ${e.text}\n`);
      return { model, touched: [`blocks/shared/extra-${e.n}.md`] };
    case 'tool-description':
      edit(e.tool, (t) => t.replace(/^description: .*$/m, `description: ${e.text}`));
      return { model, touched };
    case 'tool-break':
      edit(e.tool, (t) => `${t}\n: [unclosed\n`);
      return { model, touched };
    case 'config': {
      const next = { ...model, ...e.change };
      writeConfig(root, next);
      return { model: next, touched: ['agentc.config.ts', 'config-fields.ts'] };
    }
    case 'config-import': {
      const next = { ...model, imported: e.imported };
      writeConfig(root, next);
      return { model: next, touched: ['agentc.config.ts', 'config-fields.ts'] };
    }
  }
}

test('a compile reusing one CompileCache equals a fresh compile after any sequence of edits', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 4 }), async (edits) => {
      const root = makeWorkspace();
      dirs.push(root);
      seedReads(root);
      const cache = createCompileCache();
      let model = BASE_MODEL;
      generated(await compile({ root, cache, bundle: true, cacheRoot }), cache);
      for (const e of edits) {
        const applied = apply(root, e, model);
        model = applied.model;
        // As watch mode compiles: told which paths changed (src/load/reload.ts trusts the rest of the listing).
        const cached = await compile({ root, cache, bundle: true, cacheRoot, changed: applied.touched });
        const fresh = await compile({ root, bundle: true, cacheRoot });
        expect(cached.diagnostics).toEqual(fresh.diagnostics);
        expect(cached.bundle).toEqual(fresh.bundle);
        expect(generated(cached, cache)).toEqual(generated(fresh));
      }
    }),
    { numRuns: 8 },
  );
}, 120_000);

/** Every generated file's text: through the cache's emit memo (as watch mode makes them) or from scratch. */
function generated(result: CompileResult, cache?: CompileCache): Map<string, string> | undefined {
  if (result.program === undefined) return undefined;
  if (cache === undefined) return emitFiles(createBundle(result.program, AGENTC_VERSION));
  const bundle = createBundle(result.program, AGENTC_VERSION, cache.emit);
  const files = new Map([...emitFiles(bundle, cache.emit)].map(([path, content]) => [path, contentToString(content)]));
  // bundle.json as watch mode streams it (pieces and keys remade only where inputs changed) is the stored bundle made from scratch.
  expect(files.get('bundle.json')).toBe(storedJson(storeBundle(bundle)));
  return files;
}
