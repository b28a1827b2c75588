/**
 * The Redis session store (many machines): `redis://HOST:PORT`.
 *
 * Invariants: an append is one RPUSH (atomic on the server), so runtimes on
 * any number of machines never lose one; every key of an episode is listed in
 * the episode's index set and a write refreshes the TTL of all of them in one
 * server-side script, so an episode expires as a whole `ttlMs` after its last
 * write; a metadata key with its own TTL expires at min(own, episode TTL).
 */
import { loadDriver } from './driver.js';
import { messageApi, type JsonValue, type MetaOptions, type StoreOptions, type TurnRecord, type TurnStore } from './types.js';

/** The part of node-redis' client this store uses. */
interface RedisClient {
  connect(): Promise<unknown>;
  sendCommand(args: string[]): Promise<unknown>;
  on(event: 'error', listener: (e: unknown) => void): unknown;
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
}
interface RedisModule {
  createClient(options: { url: string; socket?: { connectTimeout?: number; reconnectStrategy?: false | number } }): RedisClient;
}

export interface RedisStoreOptions extends StoreOptions {
  /** Key prefix (default `agentc`). */
  prefix?: string;
  /** Connection errors after connecting (the developer's view; default: ignored). */
  onError?: (e: unknown) => void;
}

// KEYS[1] index set, KEYS[2] the key just written (or ''); ARGV[1] episode TTL in ms ('' = none).
const REFRESH = `
if KEYS[2] ~= '' then redis.call('SADD', KEYS[1], KEYS[2]) end
if ARGV[1] ~= '' then
  for _, k in ipairs(redis.call('SMEMBERS', KEYS[1])) do redis.call('PEXPIRE', k, ARGV[1]) end
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return 1`;

export async function createRedisSessionStore(url: string, options: RedisStoreOptions = {}): Promise<TurnStore> {
  const redis = await loadDriver<RedisModule>('redis', 'Redis');
  const client = redis.createClient({ url, socket: { connectTimeout: 5000, reconnectStrategy: false } });
  client.on('error', (e) => options.onError?.(e));
  await client.connect();
  const prefix = options.prefix ?? 'agentc';
  const ttl = options.ttlMs === undefined ? '' : String(Math.max(1, Math.round(options.ttlMs)));
  const part = (s: string) => encodeURIComponent(s);
  const index = (ep: string) => `${prefix}:${part(ep)}:keys`;
  const turnsKey = (ep: string, agent: string) => `${prefix}:${part(ep)}:turns:${part(agent)}`;
  const metaKey = (ep: string, key: string) => `${prefix}:${part(ep)}:meta:${part(key)}`;
  const refresh = (ep: string, key: string) => client.sendCommand(['EVAL', REFRESH, '2', index(ep), key, ttl]);
  let closed = false;

  const store: TurnStore = {
    ...messageApi(() => store),
    async appendTurn(episode, agent, record) {
      const key = turnsKey(episode, agent);
      await client.sendCommand(['RPUSH', key, JSON.stringify(record)]);
      await refresh(episode, key);
    },
    async turns(episode, agent, from = 0) {
      const rows = (await client.sendCommand(['LRANGE', turnsKey(episode, agent), String(Math.max(0, Math.floor(from))), '-1'])) as string[];
      return rows.map((r) => JSON.parse(r) as TurnRecord);
    },
    async getMeta(episode, key) {
      const raw = (await client.sendCommand(['GET', metaKey(episode, key)])) as string | null;
      return raw === null ? undefined : (JSON.parse(raw) as JsonValue);
    },
    async setMeta(episode, key, value, opts: MetaOptions = {}) {
      const k = metaKey(episode, key);
      if (value === undefined) {
        await client.sendCommand(['DEL', k]);
        await client.sendCommand(['SREM', index(episode), k]);
        await refresh(episode, '');
        return;
      }
      const own = opts.ttlMs === undefined ? undefined : Math.max(1, Math.round(opts.ttlMs));
      const px = own === undefined ? (ttl === '' ? undefined : Number(ttl)) : ttl === '' ? own : Math.min(own, Number(ttl));
      await client.sendCommand(px === undefined ? ['SET', k, JSON.stringify(value)] : ['SET', k, JSON.stringify(value), 'PX', String(px)]);
      // A key with its own TTL stays out of the index: episode writes must not extend it.
      if (own === undefined) await refresh(episode, k);
      else await refresh(episode, '');
    },
    async close() {
      if (closed) return;
      closed = true;
      await (client.close?.() ?? client.quit?.());
    },
  };
  return store;
}
