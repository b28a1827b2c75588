/**
 * The one contract every session store passes (memory, SQLite, Redis).
 * `make` opens a fresh store sharing the backing data of earlier ones (same
 * file / same server), with the given episode TTL; `advance` moves its clock.
 */
import { describe, expect, it } from 'vitest';
import type { TurnRecord, TurnStore } from '../../../src/runtime/sessions/types.js';

export interface ContractHarness {
  make(opts?: { ttlMs?: number }): Promise<TurnStore>;
  /** Lets `ms` pass for stores made by `make` (a fake clock, or a real wait). */
  advance(ms: number): Promise<void>;
  /** A TTL short enough to wait out (real stores) yet long enough not to pass by itself. */
  ttlMs: number;
}

let n = 0;
export const uniqueEpisode = (tag: string) => `ep:${tag}:${process.pid}:${Date.now()}:${++n}`;

export function record(id: string, user: string, assistant: string, extra: Partial<TurnRecord> = {}): TurnRecord {
  return {
    id,
    narration: { user, assistant },
    handled_by: [],
    tool_calls: [],
    tool_results: [],
    sub_agents: [],
    usage: { inputTokens: 1, outputTokens: 2 },
    ...extra,
  };
}

export function storeContract(name: string, h: ContractHarness): void {
  describe(`${name} session store contract`, () => {
    it('keeps layered records in append order, per agent, and narration via get()', async () => {
      const s = await h.make();
      const ep = uniqueEpisode('order');
      const full = record('t1', 'hi', 'hello', {
        handled_by: ['rewards'],
        tool_calls: [{ id: 'c1', name: 'ask_rewards', arguments: '{"query":"hi"}' }],
        tool_results: [{ tool_call_id: 'c1', name: 'ask_rewards', content: '{"ok":true}' }],
        sub_agents: [{ agent: 'rewards', tool: 'ask_rewards', outcome: 'ok' }],
      });
      await s.appendTurn(ep, 'orch', full);
      await s.appendTurn(ep, 'orch', record('t2', 'and?', 'more'));
      await s.appendTurn(ep, 'rewards', record('r1', '{"query":"hi"}', '42 points'));
      expect(await s.turns(ep, 'orch')).toEqual([full, record('t2', 'and?', 'more')]);
      expect((await s.turns(ep, 'rewards')).map((r) => r.id)).toEqual(['r1']);
      expect(await s.get(ep, 'orch')).toEqual([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
        { role: 'user', content: 'and?' },
        { role: 'assistant', content: 'more' },
      ]);
      expect((await s.turns(ep, 'orch', 1)).map((r) => r.id)).toEqual(['t2']);
      expect(await s.turns(ep, 'orch', 5)).toEqual([]);
      expect(await s.turns(ep, 'nobody')).toEqual([]);
      expect(await s.turns(uniqueEpisode('none'), 'orch')).toEqual([]);
      await s.close();
    });

    it('keeps the legacy append(messages) API working', async () => {
      const s = await h.make();
      const ep = uniqueEpisode('legacy');
      await s.append(ep, 'a', [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a' },
      ]);
      expect(await s.get(ep, 'a')).toEqual([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a' },
      ]);
      expect((await s.turns(ep, 'a'))[0].narration).toEqual({ user: 'q', assistant: 'a' });
      await s.close();
    });

    it('returns copies: mutating a read value does not change the store', async () => {
      const s = await h.make();
      const ep = uniqueEpisode('copy');
      const r = record('t1', 'u', 'a');
      await s.appendTurn(ep, 'a', r);
      r.narration.user = 'changed';
      const read = await s.turns(ep, 'a');
      read[0].handled_by.push('x');
      expect((await s.turns(ep, 'a'))[0]).toEqual(record('t1', 'u', 'a'));
      const meta = { ids: ['x'] };
      await s.setMeta(ep, 'k', meta);
      meta.ids.push('y');
      expect(await s.getMeta(ep, 'k')).toEqual({ ids: ['x'] });
      await s.close();
    });

    it('stores per-episode metadata, deletes it with undefined, and is shared between store instances', async () => {
      const a = await h.make();
      const b = await h.make();
      const ep = uniqueEpisode('meta');
      expect(await a.getMeta(ep, 'vendor_conversation_id')).toBeUndefined();
      await a.setMeta(ep, 'vendor_conversation_id', 'conv-1');
      await a.setMeta(ep, 'n', 3);
      expect(await b.getMeta(ep, 'vendor_conversation_id')).toBe('conv-1');
      await b.setMeta(ep, 'vendor_conversation_id', undefined);
      expect(await a.getMeta(ep, 'vendor_conversation_id')).toBeUndefined();
      expect(await a.getMeta(ep, 'n')).toBe(3);
      expect(await a.getMeta(uniqueEpisode('other'), 'n')).toBeUndefined();
      await a.close();
      await b.close();
    });

    it('expires a metadata key after its own TTL, the rest of the episode stays', async () => {
      const s = await h.make();
      const ep = uniqueEpisode('keyttl');
      await s.setMeta(ep, 'vendor_conversation_id', 'conv-9', { ttlMs: h.ttlMs });
      await s.setMeta(ep, 'keep', true);
      await s.appendTurn(ep, 'a', record('t1', 'u', 'a'));
      expect(await s.getMeta(ep, 'vendor_conversation_id')).toBe('conv-9');
      await h.advance(h.ttlMs * 2);
      expect(await s.getMeta(ep, 'vendor_conversation_id')).toBeUndefined();
      expect(await s.getMeta(ep, 'keep')).toBe(true);
      expect(await s.turns(ep, 'a')).toHaveLength(1);
      await s.close();
    });

    it('expires a whole episode ttlMs after its last write; a write keeps it alive', async () => {
      const s = await h.make({ ttlMs: h.ttlMs * 2 });
      const ep = uniqueEpisode('epttl');
      const kept = uniqueEpisode('kept');
      await s.appendTurn(ep, 'a', record('t1', 'u', 'a'));
      await s.appendTurn(ep, 'b', record('t1', 'u', 'a'));
      await s.setMeta(ep, 'k', 'v');
      await s.appendTurn(kept, 'a', record('t1', 'u', 'a'));
      await h.advance(h.ttlMs);
      await s.appendTurn(kept, 'b', record('t2', 'u', 'a')); // refreshes all of `kept`, agent a included
      await h.advance(h.ttlMs * 1.5);
      expect(await s.turns(ep, 'a')).toEqual([]);
      expect(await s.turns(ep, 'b')).toEqual([]);
      expect(await s.getMeta(ep, 'k')).toBeUndefined();
      expect(await s.turns(kept, 'a')).toHaveLength(1);
      expect(await s.turns(kept, 'b')).toHaveLength(1);
      await s.close();
    });

    it('never loses an append when many writers append to one episode at once', async () => {
      const stores = await Promise.all([h.make(), h.make(), h.make()]);
      const ep = uniqueEpisode('race');
      const writes: Promise<void>[] = [];
      for (let i = 0; i < 60; i++) writes.push(stores[i % 3].appendTurn(ep, 'orch', record(`t${i}`, `u${i}`, `a${i}`)));
      await Promise.all(writes);
      const ids = (await stores[0].turns(ep, 'orch')).map((r) => r.id).sort();
      expect(ids).toEqual(Array.from({ length: 60 }, (_, i) => `t${i}`).sort());
      for (const s of stores) await s.close();
    });
  });
}
