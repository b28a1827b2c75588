/**
 * `unchangedAgents` (src/diff/same-agents.ts): the agents diff does not read
 * because their bundle.json bytes, and everything those bytes refer to, are the
 * same on both sides. Skipping them never changes the report: for each edit the
 * diff with them skipped (the "before" side loaded lazily from its bytes, as from
 * the bundle cache) equals the full comparison of the two compiled bundles.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/bundle/types.js';
import { compile } from '../../src/compile.js';
import { diffBundles } from '../../src/diff/compare.js';
import { unchangedAgents } from '../../src/diff/same-agents.js';
import { createEmitCache } from '../../src/emit/cache.js';
import { createBundle } from '../../src/emit/bundle.js';
import { jsonChunks, layoutOf } from '../../src/emit/fragments.js';
import { storedJson } from '../../src/emit/stored.js';
import { loadBundleJson } from '../../src/runtime/load-bundle.js';
import { AGENTC_VERSION } from '../../src/version.js';
import { evaluateConfigText, readWorkspace, withEdits } from '../helpers/memory-workspace.js';

const repo = join(import.meta.dirname, '..', '..');

interface Side {
  bundle: Bundle;
  json: Buffer;
}

let files: Map<string, Buffer>;
let config: unknown;
let base: Side;

/** The repo's workspace with `edits` applied (file → [from, to]), compiled, its bundle and bundle.json bytes. */
async function side(edits: Record<string, [string, string]> = {}, configValue: unknown = config): Promise<Side> {
  const result = await compile({ files: withEdits(files, edits), config: { value: configValue } });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const emit = createEmitCache();
  const bundle = createBundle(result.program!, AGENTC_VERSION, emit);
  const layout = layoutOf(bundle, emit);
  return { bundle, json: Buffer.concat(jsonChunks(layout.frame, layout.pieces)) };
}

/** The skipped agents, after checking that skipping them (before loaded lazily from its bytes) gives the full comparison's result. */
function skippedSame(before: Side, after: Side): Set<string> {
  const unchanged = unchangedAgents(before.json, after.json);
  const full = diffBundles(before.bundle, after.bundle);
  expect(diffBundles(loadBundleJson(before.json.toString('utf8')), after.bundle, { unchanged })).toEqual(full);
  for (const id of unchanged) expect(full.agents[id]).toBeUndefined();
  return unchanged;
}

beforeAll(async () => {
  files = await readWorkspace(repo);
  config = await evaluateConfigText(files.get('agentc.config.ts')!.toString('utf8'), join(repo, 'agentc.config.ts'));
  base = await side();
}, 60_000);

describe('unchangedAgents', () => {
  it('skips every agent of an unchanged workspace', async () => {
    const again = await side();
    const ids = Object.keys(base.bundle.agents);
    expect(ids.length).toBeGreaterThan(3);
    expect([...skippedSame(base, again)].sort()).toEqual(ids.sort());
  });

  it('compares the agents whose prompt holds an edited block and the agents that name them, and only those', async () => {
    const after = await side({ 'blocks/play/instructions-play.md': ['.', '. Keep it short.'] });
    const unchanged = skippedSame(base, after);
    // play's entry changed (its prefix's sha256 and tokens); an agent that dispatches to play names it, so it is compared too.
    const compared = Object.values(after.bundle.agents)
      .filter((a) => a.id === 'play' || a.sub_agents.includes('play'))
      .map((a) => a.id);
    expect(compared.length).toBeGreaterThan(1);
    expect(
      Object.keys(after.bundle.agents)
        .filter((id) => !unchanged.has(id))
        .sort(),
    ).toEqual(compared.sort());
  });

  it('compares every agent when a block they all hold changes', async () => {
    const after = await side({ 'blocks/platform/safety-base.md': ['.', '. Never guess.'] });
    const holders = Object.values(after.bundle.agents).filter((a) => a.prefixes.some((p) => p.blocks.some((b) => b.id === 'safety-base')));
    expect(holders.length).toBeGreaterThan(1);
    const unchanged = skippedSame(base, after);
    for (const a of holders) expect(unchanged.has(a.id)).toBe(false);
  });

  it("compares an agent whose stored entry is the same but whose sub-agent's policy changed", async () => {
    const after = await side({ 'cards/play.yaml': ['input: 8000', 'input: 9000'] });
    const unchanged = skippedSame(base, after);
    expect(unchanged.has('play')).toBe(false);
    // The orchestrator's dispatch table stores play's policy by reference (it is play's own): it is compared too.
    const parents = Object.values(after.bundle.agents).filter((a) => a.sub_agents.includes('play'));
    expect(parents.length).toBeGreaterThan(0);
    for (const p of parents) expect(unchanged.has(p.id)).toBe(false);
  });

  it('compares every agent when anything outside the agents and their tables changed (a model setting)', async () => {
    const models = (config as { models: Record<string, Record<string, unknown>> }).models;
    const [id, model] = Object.entries(models)[0]!;
    const after = await side({}, { ...(config as object), models: { ...models, [id]: { ...model, contextWindow: 123_456 } } });
    expect(skippedSame(base, after).size).toBe(0);
  });

  it('skips nothing for bytes not in the canonical layout', () => {
    expect(unchangedAgents(Buffer.from(JSON.stringify(JSON.parse(base.json.toString('utf8')))), base.json).size).toBe(0);
  });

  it("compares an agent whose variant text's base text changed", () => {
    // Agent x's prompt is the variant "t@x", stored as runs against "t": x's entry and "t@x" keep their bytes.
    const stored = (lines: string[]): Buffer =>
      Buffer.from(
        storedJson({
          agents: { x: { prefixes: [{ blocks: [{ id: 't', text: 't@x' }] }] }, y: { prefixes: [{ blocks: [{ id: 'u' }] }] } },
          blocks: { t: { owner: 'o' }, u: { owner: 'o' } },
          formatVersion: '3',
          hash: '',
          texts: { t: lines, 't@x': [{ base: 't' }, 1, -1, 'x line'], u: ['u line'] },
          toolShapes: {},
        }),
        'utf8',
      );
    expect([...unchangedAgents(stored(['one', 'two']), stored(['one', 'two']))].sort()).toEqual(['x', 'y']);
    expect([...unchangedAgents(stored(['one', 'two']), stored(['ONE', 'two']))]).toEqual(['y']);
  });
});
