/**
 * The emit passes of a watch rebuild look only at the agents createBundle's EmitDelta names
 * (and the users of blocks keyed anew): these programs are built by hand so that an agent can
 * keep its resolved object (so its entry) while what its stored piece depends on moves —
 * a sub-agent's policy, a tool contract's envelope, a block's other renderings — which resolve
 * would never let happen. Every step's files must equal a build's from scratch, byte for byte.
 */
import { describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/bundle/types.js';
import { bundleHash, createBundle } from '../../src/emit/bundle.js';
import { createEmitCache, type EmitCache } from '../../src/emit/cache.js';
import { contentToString, type FileContent } from '../../src/emit/content.js';
import { emitFiles } from '../../src/emit/files.js';
import type { Program } from '../../src/resolve/types.js';
import { makeProgram, type ProgramSpec } from './helpers/program.js';

const VERSION = '0.0.0-test';

/** A cached build of `program`, checked against one from scratch; returns the bundle and the ids whose piece is a new Buffer. */
function rebuild(program: Program, cache: EmitCache): { bundle: Bundle; remade: string[] } {
  const before = cache.laidOut;
  const cached = createBundle(program, VERSION, cache);
  const fresh = createBundle(program, VERSION);
  expect(cached.hash).toBe(fresh.hash);
  expect(cached.hash).toBe(bundleHash(cached));
  expect(JSON.stringify(cached)).toBe(JSON.stringify(fresh));
  expect(strings(emitFiles(cached, cache))).toEqual(emitFiles(fresh));
  // Twice: the second call on the same bundle takes what the first made.
  expect(strings(emitFiles(cached, cache))).toEqual(emitFiles(fresh));
  const after = cache.laidOut!;
  const remade = after.order.filter((id, i) => before === undefined || before.pieces[before.at.get(id) ?? -1] !== after.pieces[i]);
  return { bundle: cached, remade };
}

function strings(files: Map<string, FileContent>): Map<string, string> {
  return new Map([...files].map(([path, content]) => [path, contentToString(content)]));
}

/** `base` with the agents `ids` taken from `from` (resolved objects as they are: the others keep theirs), and those gone from `from` removed. */
function swap(base: Program, from: Program, ids: readonly string[]): Program {
  const agents = new Map(base.agents);
  for (const id of ids) {
    const agent = from.agents.get(id);
    if (agent === undefined) agents.delete(id);
    else agents.set(id, agent);
  }
  return { ...base, agents };
}

const BLOCKS: ProgramSpec['blocks'] = [
  { id: 'persona-base', text: 'You are a helpful assistant.' },
  { id: 'shared', text: 'Keep every answer short.\nBe kind.' },
];
const agentsSpec = (extra: Partial<Record<string, object>> = {}): ProgramSpec['cards'] =>
  ['a1', 'a2', 'a3', 'a4', 'a5'].map((id) => ({ id, prompt_blocks: ['shared'], tools: ['lookup'], ...(extra[id] ?? {}) }));

describe('emit passes after a delta', () => {
  it('an unchanged agent keeps its piece; a block edit remakes exactly the agents that hold it', () => {
    const cache = createEmitCache();
    const spec: ProgramSpec = { cards: agentsSpec(), blocks: BLOCKS, tools: [{ name: 'lookup' }] };
    const p1 = makeProgram(spec);
    rebuild(p1, cache);
    expect(rebuild(p1, cache).remade).toEqual([]);
    const edited = makeProgram({ ...spec, blocks: [BLOCKS[0]!, { id: 'shared', text: 'Keep every answer very short.\nBe kind.' }] });
    // Only a2 and a4 take the edit: the block now has two renderings, keyed by their first users (every user's piece changes).
    const p2 = swap(p1, edited, ['a2', 'a4']);
    const step = rebuild(p2, cache);
    expect(cache.last!.delta!.changed.size).toBe(2);
    expect(step.remade).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    // The others follow: one rendering again, under the block id.
    const p3 = swap(p2, edited, ['a1', 'a3', 'a5']);
    expect(rebuild(p3, cache).remade).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    // A block every agent renders alike, edited for all: every entry is new; a second variant appears in one only.
    const again = makeProgram({ ...spec, blocks: [BLOCKS[0]!, { id: 'shared', text: 'Answer briefly.\nBe kind.' }] });
    expect(rebuild(again, cache).remade).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    const one = makeProgram({ ...spec, blocks: [BLOCKS[0]!, { id: 'shared', text: 'Answer briefly.\nBe very kind.' }] });
    rebuild(swap(again, one, ['a3']), cache);
    // A variant's own text edited (its key stays): only its agent's piece is made again.
    const other = makeProgram({ ...spec, blocks: [BLOCKS[0]!, { id: 'shared', text: 'Answer briefly.\nBe very, very kind.' }] });
    expect(rebuild(swap(again, other, ['a3']), cache).remade).toEqual(['a3']);
  });

  it("a sub-agent's policy changes while its parent keeps its entry: the parent's piece follows", () => {
    const cache = createEmitCache();
    const spec = (budget: number): ProgramSpec => ({
      cards: [
        { id: 'boss', sub_agents: ['helper'], prompt_blocks: ['shared'] },
        { id: 'helper', prompt_blocks: ['shared'], policy: { max_tool_calls: budget } },
        { id: 'other', prompt_blocks: ['shared'] },
      ],
      blocks: BLOCKS,
    });
    const p1 = makeProgram(spec(3));
    rebuild(p1, cache);
    const step = rebuild(swap(p1, makeProgram(spec(5)), ['helper']), cache);
    expect(cache.last!.delta!.factsMoved).toBe(true);
    expect(step.remade).toEqual(['boss', 'helper']);
    // The parent's stored entry now carries the policy it was made with (no longer the sub-agent's own).
    const json = contentToString(emitFiles(step.bundle, cache).get('bundle.json')!);
    expect(json).toContain('"ask_helper":{"agent":"helper","kind":"sub_agent","policy":{"max_tool_calls":3}}');
  });

  it("a tool contract's envelope changes while an agent keeps its entry: that agent's piece follows", () => {
    const cache = createEmitCache();
    const spec = (envelope: boolean): ProgramSpec => ({ cards: agentsSpec(), blocks: BLOCKS, tools: [{ name: 'lookup', envelope }] });
    const p1 = makeProgram(spec(false));
    rebuild(p1, cache);
    // a5 (last in id order) brings the new contract into the tools table; a1…a4 keep entries whose dispatch says `envelope: false`.
    const step = rebuild(swap(p1, makeProgram(spec(true)), ['a5']), cache);
    expect(step.bundle.tools.lookup!.envelope).toBe(true);
    expect(step.remade).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
  });

  it('an agent added, removed or renamed', () => {
    const cache = createEmitCache();
    const spec = (ids: string[]): ProgramSpec => ({
      cards: [
        { id: 'boss', sub_agents: ids.filter((id) => id !== 'boss'), prompt_blocks: ['shared'] },
        ...ids.map((id) => ({ id, prompt_blocks: ['shared'] })),
      ],
      blocks: BLOCKS,
    });
    const p1 = makeProgram(spec(['b', 'c']));
    rebuild(p1, cache);
    // Added: a new id before the others, its parent made again.
    const p2 = makeProgram(spec(['a', 'b', 'c']));
    rebuild(swap(p1, p2, ['a', 'boss']), cache);
    // Removed.
    const p3 = makeProgram(spec(['a', 'c']));
    rebuild(swap(swap(p1, p2, ['a', 'boss']), p3, ['b', 'boss']), cache);
    // Renamed: c becomes d.
    const p4 = makeProgram(spec(['a', 'd']));
    rebuild(swap(swap(swap(p1, p2, ['a', 'boss']), p3, ['b', 'boss']), p4, ['c', 'd', 'boss']), cache);
    // A program whose agents are gone, then back.
    rebuild(makeProgram({ cards: [], blocks: BLOCKS }), cache);
    rebuild(p4, cache);
  });

  it('the suffix template changes', () => {
    const cache = createEmitCache();
    const spec = (template: string): ProgramSpec => ({
      config: { dynamicContext: { fields: ['date', 'user_id'], template } },
      cards: agentsSpec(),
      blocks: BLOCKS,
      tools: [{ name: 'lookup' }],
    });
    rebuild(makeProgram(spec('<context>\nDate: {{date}}\n</context>')), cache);
    const step = rebuild(makeProgram(spec('<context>\nUser: {{user_id}}\n</context>')), cache);
    expect(step.remade).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    expect(step.bundle.agents.a1!.suffix_template).toContain('{{user_id}}');
  });

  it('a bundle made on the cache without createBundle in between is laid out in full (no delta is trusted)', () => {
    const cache = createEmitCache();
    const spec: ProgramSpec = { cards: agentsSpec(), blocks: BLOCKS, tools: [{ name: 'lookup' }] };
    const p1 = makeProgram(spec);
    const first = rebuild(p1, cache).bundle;
    // Another bundle's files through the same cache (e.g. a test or tool looking at an older bundle).
    const edited = makeProgram({ ...spec, blocks: [BLOCKS[0]!, { id: 'shared', text: 'Changed.' }] });
    const second = createBundle(edited, VERSION, createEmitCache());
    emitFiles(second, cache);
    emitFiles(first, cache);
    rebuild(swap(p1, edited, ['a2']), cache);
  });
});
