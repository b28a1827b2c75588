/**
 * Per-agent variants of a block in bundle.json (format "3"): a variant is stored
 * as runs against the block's first rendering (shared lines are counts), loads
 * back byte for byte, and a one-line edit of a line the variants share changes
 * one line of `texts`.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Bundle, StoredBundle } from '../../src/bundle/types.js';
import { createBundle } from '../../src/emit/bundle.js';
import { storeBundle, storedJson, storeKeys, variantText } from '../../src/emit/stored.js';
import { loadBundleJson } from '../../src/runtime/load-bundle.js';
import { sampleProgram } from './helpers/program.js';

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** `bundle` with block `id` rendered as `text(agent)` in every prefix of every agent (prefix texts, offsets and hashes rebuilt). */
function withBlock(bundle: Bundle, id: string, text: (agent: string) => string): Bundle {
  const out = structuredClone(bundle);
  for (const [agentId, agent] of Object.entries(out.agents)) {
    for (const p of agent.prefixes) {
      const bodies = p.blocks.map((b) => (b.id === id ? text(agentId) : p.text.slice(b.start, b.start + b.length)));
      let at = 0;
      p.blocks.forEach((b, i) => {
        b.start = at;
        b.length = bodies[i]!.length;
        at += bodies[i]!.length + 2;
      });
      p.text = bodies.map((b) => `${b}\n\n`).join('');
      p.sha256 = sha(p.text);
    }
  }
  return out;
}

const LINES = [
  '# Who you are',
  '',
  'You answer for the {agent} desk.',
  'Keep answers short.',
  'Never guess an amount.',
  'Cite the tool that gave you a fact.',
  'Ask before you act.',
];
const render = (lines: readonly string[]) => (agent: string) => lines.map((l) => l.replace('{agent}', agent)).join('\n');

describe('per-agent variants of a block', () => {
  const base = createBundle(sampleProgram(), '9.9.9');
  const block = base.agents[Object.keys(base.agents)[0]!]!.prefixes[0]!.blocks[0]!.id;
  const bundle = withBlock(base, block, render(LINES));

  it('stores the first rendering as lines and every other as runs against it, and loads each back', () => {
    const stored = JSON.parse(storedJson(storeBundle(bundle))) as StoredBundle;
    const keys = Object.keys(stored.texts).filter((k) => k.startsWith(`${block}@`));
    expect(keys.length).toBe(Object.keys(bundle.agents).length);
    const [first, ...others] = keys;
    expect(stored.texts[first!]).toEqual(render(LINES)(first!.split('@')[1]!).split('\n'));
    for (const key of others) expect(stored.texts[key]).toEqual([{ base: first }, 2, -1, `You answer for the ${key.split('@')[1]} desk.`, 4]);
    expect(loadBundleJson(storedJson(storeBundle(bundle)))).toEqual(bundle);
    expect(loadBundleJson(storedJson(storeBundle(bundle)), { verify: 'all' })).toEqual(bundle);
  });

  it('turns a one-line edit of a shared line into one changed line of texts', () => {
    const edited = withBlock(base, block, render(LINES.map((l) => (l === 'Keep answers short.' ? 'Keep every answer short.' : l))));
    const a = storedJson(storeBundle(bundle)).split('\n');
    const b = storedJson(storeBundle(edited)).split('\n');
    expect(b.length).toBe(a.length);
    const changed = a.flatMap((line, i) => (line === b[i] ? [] : [line]));
    expect(changed.filter((l) => l.includes('Keep answers short.'))).toHaveLength(1);
    // Besides that line: the hash, and one `prefixes` line per agent (their hashes).
    expect(changed.length).toBeLessThanOrEqual(Object.keys(bundle.agents).length + 2);
  });

  it('stores a variant with lines added or removed as a line diff against the base, and loads it back', () => {
    const [first] = Object.keys(base.agents);
    const longer = withBlock(base, block, (agent) =>
      agent === first ? render(LINES)(agent) : render([...LINES.slice(0, 3), 'One more rule for this desk.', ...LINES.slice(3)])(agent),
    );
    const stored = JSON.parse(storedJson(storeBundle(longer))) as StoredBundle;
    const variant = Object.entries(stored.texts).find(([k]) => k.startsWith(`${block}@`) && !k.endsWith(`@${first}`))![1];
    expect(variant).toEqual([
      { base: `${block}@${first}` },
      2,
      -1,
      expect.stringMatching(/^You answer for the \w+ desk\.$/),
      'One more rule for this desk.',
      4,
    ]);
    expect(loadBundleJson(storedJson(storeBundle(longer)), { verify: 'all' })).toEqual(longer);
  });

  it('stores a variant whole when runs would not be shorter', () => {
    expect(variantText({ key: 'k', lines: ['a', 'b'] }, ['x', 'y'])).toEqual(['x', 'y']);
    expect(variantText({ key: 'k', lines: ['same line one', 'same line two', 'same line three'] }, ['same line one', 'same line two', 'other'])).toEqual([
      { base: 'k' },
      2,
      -1,
      'other',
    ]);
  });
});

describe('a block with many distinct renderings', () => {
  // 24 agents, 12 distinct texts of one block (past the few that are compared one by one): the same keys as by text.
  const ids = Array.from({ length: 24 }, (_, i) => `a${String(i).padStart(2, '0')}`);
  const textOf = (i: number) => `variant ${i % 12}\nshared line`;
  const bundle = { agents: Object.fromEntries(ids.map((id) => [id, { prefixes: [{ key: '' }] }])) } as unknown as Bundle;
  const info = { category: 'c', file: 'blocks/b.md', owner: 'o', required: false };
  const keys = storeKeys(bundle, {
    usesOf: (id) => [[{ id: 'b', text: textOf(ids.indexOf(id)), info }]],
    toolKeysOf: () => ({ keys: [], shapes: [] }),
  });

  it('keys each distinct text after its first use and gives later uses of that text the same key', () => {
    expect(Object.keys(keys.texts).sort()).toEqual(ids.slice(0, 12).map((id) => `b@${id}`));
    ids.forEach((id, i) => expect(keys.blockKeys.get(id)).toEqual([[`b@${ids[i % 12]}`]]));
    expect(keys.texts['b@a00']).toEqual(['variant 0', 'shared line']);
    expect(keys.texts['b@a11']).toEqual(variantText({ key: 'b@a00', lines: ['variant 0', 'shared line'] }, ['variant 11', 'shared line']));
  });
});
