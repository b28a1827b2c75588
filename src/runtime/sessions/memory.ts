/**
 * The in-memory session store: dependency-free, bounded.
 *
 * Invariants: at most `maxEpisodes` episodes are held — writing a new one
 * evicts the least recently used (read or written); an episode not written for
 * `ttlMs` is dropped when next touched; stored values are JSON copies, so a
 * caller can never mutate the stored history.
 */
import { copyJson, messageApi, type JsonValue, type MetaOptions, type StoreOptions, type TurnRecord, type TurnStore } from './types.js';

export interface MemoryStoreOptions extends StoreOptions {
  /** Episodes kept before the least recently used is evicted (default 10 000). */
  maxEpisodes?: number;
}

interface Episode {
  turns: Map<string, string[]>;
  meta: Map<string, { json: string; expiresAt: number }>;
  expiresAt: number;
}

export function createMemorySessionStore(options: MemoryStoreOptions = {}): TurnStore & { clear(): void; readonly size: number } {
  const maxEpisodes = Math.max(1, options.maxEpisodes ?? 10_000);
  const ttl = options.ttlMs ?? Infinity;
  const now = options.now ?? Date.now;
  // Map iteration order is insertion order: re-inserting on use makes the first key the LRU one.
  const episodes = new Map<string, Episode>();

  function touch(id: string, create: boolean): Episode | undefined {
    let ep = episodes.get(id);
    if (ep !== undefined && ep.expiresAt <= now()) {
      episodes.delete(id);
      ep = undefined;
    }
    if (ep === undefined) {
      if (!create) return undefined;
      ep = { turns: new Map(), meta: new Map(), expiresAt: Infinity };
    }
    episodes.delete(id);
    episodes.set(id, ep);
    if (create) {
      ep.expiresAt = now() + ttl;
      while (episodes.size > maxEpisodes) episodes.delete(episodes.keys().next().value as string);
    }
    return ep;
  }

  const store = {
    ...messageApi((): Pick<TurnStore, 'turns' | 'appendTurn'> => store),
    async appendTurn(episode: string, agent: string, record: TurnRecord): Promise<void> {
      const ep = touch(episode, true)!;
      const list = ep.turns.get(agent) ?? [];
      list.push(JSON.stringify(record));
      ep.turns.set(agent, list);
    },
    async turns(episode: string, agent: string, from = 0): Promise<TurnRecord[]> {
      const list = touch(episode, false)?.turns.get(agent) ?? [];
      return list.slice(Math.max(0, from)).map((j) => JSON.parse(j) as TurnRecord);
    },
    async getMeta(episode: string, key: string): Promise<JsonValue | undefined> {
      const entry = touch(episode, false)?.meta.get(key);
      if (entry === undefined || entry.expiresAt <= now()) return undefined;
      return JSON.parse(entry.json) as JsonValue;
    },
    async setMeta(episode: string, key: string, value: JsonValue | undefined, opts: MetaOptions = {}): Promise<void> {
      const ep = touch(episode, true)!;
      if (value === undefined) ep.meta.delete(key);
      else ep.meta.set(key, { json: JSON.stringify(copyJson(value)), expiresAt: opts.ttlMs === undefined ? Infinity : now() + opts.ttlMs });
    },
    async close(): Promise<void> {},
    clear(): void {
      episodes.clear();
    },
    get size(): number {
      return episodes.size;
    },
  };
  return store;
}
