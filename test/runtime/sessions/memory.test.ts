import { describe, expect, it } from 'vitest';
import { createMemorySessionStore } from '../../../src/runtime/session.js';
import { record, storeContract } from './contract.js';

let now = 1_000_000;
// One backing store shared by every `make` (like one file / one server); TTL per make.
const shared = new Map<string, ReturnType<typeof createMemorySessionStore>>();
storeContract('memory', {
  async make(opts = {}) {
    const key = String(opts.ttlMs);
    if (!shared.has(key)) shared.set(key, createMemorySessionStore({ ttlMs: opts.ttlMs, now: () => now }));
    const s = shared.get(key)!;
    return { ...s, close: async () => {} };
  },
  async advance(ms) {
    now += ms;
  },
  ttlMs: 1000,
});

describe('memory session store bound', () => {
  it('evicts the least recently used episode beyond maxEpisodes', async () => {
    const s = createMemorySessionStore({ maxEpisodes: 2 });
    await s.appendTurn('e1', 'a', record('t', 'u', 'a'));
    await s.appendTurn('e2', 'a', record('t', 'u', 'a'));
    await s.turns('e1', 'a'); // e1 is now the most recently used
    await s.appendTurn('e3', 'a', record('t', 'u', 'a'));
    expect(s.size).toBe(2);
    expect(await s.turns('e2', 'a')).toEqual([]);
    expect(await s.turns('e1', 'a')).toHaveLength(1);
    expect(await s.turns('e3', 'a')).toHaveLength(1);
  });
});
