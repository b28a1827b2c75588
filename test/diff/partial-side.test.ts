/**
 * `partialSide` (src/diff/partial-side.ts): the working tree's side built only
 * where its agents' inputs digests (src/emit/agent-digest.ts) differ from the
 * cached side's. For each kind of edit, the report from the partial side (the
 * cached side loaded lazily from its bytes) is byte-identical to the report from
 * two fresh, whole bundles, and the assembled hash is the whole bundle's hash.
 * Edits it does not model are declined (the caller then builds the whole side).
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/bundle/types.js';
import type { Program } from '../../src/resolve/types.js';
import { compile } from '../../src/compile.js';
import { diffBundles } from '../../src/diff/compare.js';
import { partialSide, type DigestedSide } from '../../src/diff/partial-side.js';
import { renderJson } from '../../src/diff/render-json.js';
import { renderMarkdown } from '../../src/diff/render-markdown.js';
import { agentDigests } from '../../src/emit/agent-digest.js';
import { createBundle } from '../../src/emit/bundle.js';
import { createEmitCache } from '../../src/emit/cache.js';
import { bundleJsonChunks } from '../../src/emit/fragments.js';
import { loadBundleJson } from '../../src/runtime/load-bundle.js';
import { AGENTC_VERSION } from '../../src/version.js';
import { evaluateConfigText, readWorkspace, withEdits } from '../helpers/memory-workspace.js';

const repo = join(import.meta.dirname, '..', '..');

interface Compiled {
  program: Program;
  /** A fresh, whole bundle of this workspace. */
  bundle: Bundle;
}

let files: Map<string, Buffer>;
let config: Record<string, unknown>;

/** The repo's workspace with `edits` (file → [from, to], or a whole new text) applied, compiled. */
async function side(edits: Record<string, [string, string] | string> = {}, configValue: unknown = config): Promise<Compiled> {
  const result = await compile({ files: withEdits(files, edits), config: { value: configValue } });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return { program: result.program!, bundle: createBundle(result.program!, AGENTC_VERSION) };
}

/** The cached side as diff has it: bundle.json bytes loaded lazily, with each agent's digest. */
function cached(c: Compiled): DigestedSide {
  const emit = createEmitCache({ once: true });
  const bundle = createBundle(c.program, AGENTC_VERSION, emit);
  const json = Buffer.concat(bundleJsonChunks(bundle, emit));
  return { bundle: loadBundleJson(json.toString('utf8')), json, digests: agentDigests(c.program, AGENTC_VERSION) };
}

/**
 * Checks the partial side against the whole one (reports byte for byte, hash) and
 * returns the agents it left unbuilt; undefined when it declined.
 */
function samePartial(before: Compiled, after: Compiled): Set<string> | undefined {
  const full = diffBundles(before.bundle, after.bundle);
  const withHash = partialSide(after.program, AGENTC_VERSION, cached(before), { hash: true });
  const noHash = partialSide(after.program, AGENTC_VERSION, cached(before), { hash: false });
  expect(noHash === undefined).toBe(withHash === undefined);
  if (withHash === undefined || noHash === undefined) return undefined;
  const b = cached(before);
  const partial = diffBundles(b.bundle, withHash.bundle, { unchanged: withHash.unchanged });
  expect(withHash.bundle.hash).toBe(after.bundle.hash);
  expect(renderJson(partial)).toBe(renderJson(full));
  expect(renderMarkdown(partial)).toBe(renderMarkdown(full));
  // Without the hash (markdown and text reports do not show it), the same report.
  const b2 = cached(before);
  expect(renderMarkdown(diffBundles(b2.bundle, noHash.bundle, { unchanged: noHash.unchanged }))).toBe(renderMarkdown(full));
  for (const id of withHash.unchanged) expect(full.agents[id]).toBeUndefined();
  return withHash.unchanged;
}

const HELLO = `---
category: persona
owner: platform
reusable: true
---
Hello from {{agent.id}}. Keep it friendly.
`;

/** Adds the block `hello` (rendered differently for each agent) to these cards' prompts. */
function withHello(cards: string[]): Record<string, [string, string] | string> {
  const edits: Record<string, [string, string] | string> = { 'blocks/shared/hello.md': HELLO };
  for (const card of cards) edits[`cards/${card}.yaml`] = ['prompt_blocks:\n', 'prompt_blocks:\n  - hello\n'];
  return edits;
}

let base: Compiled;

beforeAll(async () => {
  files = await readWorkspace(repo);
  config = (await evaluateConfigText(files.get('agentc.config.ts')!.toString('utf8'), join(repo, 'agentc.config.ts'))) as Record<string, unknown>;
  base = await side();
}, 60_000);

describe('partialSide', () => {
  it('builds nothing for an unchanged workspace', async () => {
    const unchanged = samePartial(base, await side());
    expect([...unchanged!].sort()).toEqual(Object.keys(base.bundle.agents).sort());
  });

  it('builds only the agent whose block changed', async () => {
    const unchanged = samePartial(base, await side({ 'blocks/play/instructions-play.md': ['.', '. Keep it short.'] }))!;
    expect(Object.keys(base.bundle.agents).filter((id) => !unchanged.has(id))).toEqual(['play']);
  });

  it("a card's edit: the agent and the agents that dispatch to it", async () => {
    const unchanged = samePartial(base, await side({ 'cards/play.yaml': ['input: 8000', 'input: 9000'] }))!;
    expect(unchanged.has('play')).toBe(false);
    const parents = Object.values(base.bundle.agents).filter((a) => a.sub_agents.includes('play'));
    expect(parents.length).toBeGreaterThan(0);
    for (const p of parents) expect(unchanged.has(p.id)).toBe(false);
  });

  it("a sub-agent card's description (the parent's ask_ tool changes)", async () => {
    const unchanged = samePartial(base, await side({ 'cards/play.yaml': ['Fetch Play: mobile games', 'Fetch Play: mobile and web games'] }))!;
    expect(unchanged.has('play')).toBe(false);
  });

  it('a tool contract (its shape is replaced, the old one dropped)', async () => {
    const unchanged = samePartial(base, await side({ 'schemas/tools/get_user_points.yaml': ['spendable points balance', 'spendable balance'] }))!;
    expect(unchanged.has('rewards')).toBe(false);
  });

  it('a tool taken off one agent, and given to another', async () => {
    expect(
      samePartial(
        base,
        await side({
          'cards/rewards.yaml': ['tools: [get_user_points, get_redemption_history, calculate_redemption]', 'tools: [get_user_points, calculate_redemption]'],
        }),
      ),
    ).toBeDefined();
    const play = files
      .get('cards/play.yaml')!
      .toString('utf8')
      .replaceAll('[list_games, get_game_progress]', '[list_games, get_game_progress, get_user_points]');
    const withPoints = await side({ 'cards/play.yaml': play });
    expect(samePartial(base, withPoints)).toBeDefined();
    // play drops a tool that rewards (unchanged) still has: its shape stays.
    expect(samePartial(withPoints, base)).toBeDefined();
  });

  it("a card's blocks reordered, and a card's model", async () => {
    expect(
      samePartial(base, await side({ 'cards/play.yaml': ['  - persona-play\n  - instructions-play', '  - instructions-play\n  - persona-play'] })),
    ).toBeDefined();
    expect(samePartial(base, await side({ 'cards/play.yaml': ['model: claude-haiku-4-5', 'model: gpt-5.4-nano'] }))).toBeDefined();
  });

  it('a block rendered for each agent: edited, its first user gone, a new first user', async () => {
    const hello = await side(withHello(['play', 'rewards', 'shop']));
    // Its texts are stored as runs against the first agent's: every variant entry is remade.
    expect(
      samePartial(hello, await side({ ...withHello(['play', 'rewards', 'shop']), 'blocks/shared/hello.md': HELLO.replace('friendly', 'kind') })),
    ).toBeDefined();
    expect(samePartial(hello, await side(withHello(['rewards', 'shop'])))).toBeDefined();
    expect(samePartial(hello, await side(withHello(['ereceipts', 'play', 'rewards', 'shop'])))).toBeDefined();
    expect(samePartial(base, hello)).toBeDefined();
    expect(samePartial(hello, base)).toBeDefined();
  });

  it('an agent added and an agent removed', async () => {
    const extra = {
      'cards/aaa_extra.yaml': files.get('cards/play.yaml')!.toString('utf8').replace('id: play', 'id: aaa_extra'),
    };
    const added = await side(extra);
    expect(samePartial(base, added)).toBeDefined();
    expect(samePartial(added, base)).toBeDefined();
  });

  it('declines when most agents changed (a model setting in the config), and the whole side is built', async () => {
    const models = config.models as Record<string, Record<string, unknown>>;
    const [id, model] = Object.entries(models)[0]!;
    const after = await side({}, { ...config, models: { ...models, [id]: { ...model, contextWindow: 123_456 } } });
    expect(partialSide(after.program, AGENTC_VERSION, cached(base), { hash: true })).toBeUndefined();
  });

  it('declines when the digests do not list the cached side agents', () => {
    const c = cached(base);
    const digests = new Map(c.digests);
    digests.delete([...digests.keys()][0]!);
    expect(partialSide(base.program, AGENTC_VERSION, { ...c, digests }, { hash: true })).toBeUndefined();
  });
});
