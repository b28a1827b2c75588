/**
 * The SQLite session store (one machine, development): `sqlite:PATH`.
 *
 * Invariants: every append is one INSERT in an IMMEDIATE transaction on a WAL
 * database with a busy timeout, so processes sharing the file never lose one
 * and read each other's turns at once; record order is the AUTOINCREMENT
 * sequence; an expired episode's rows are deleted when it is next touched.
 */
import { loadDriver } from './driver.js';
import { messageApi, type JsonValue, type MetaOptions, type StoreOptions, type TurnRecord, type TurnStore } from './types.js';

/** The part of better-sqlite3's API this store uses. */
interface Statement {
  run(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
}
interface Database {
  pragma(sql: string): unknown;
  exec(sql: string): unknown;
  prepare(sql: string): Statement;
  transaction<A extends unknown[]>(fn: (...args: A) => void): { immediate(...args: A): void };
  close(): void;
}
type DatabaseCtor = new (path: string, options?: { timeout?: number }) => Database;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS agentc_turns (seq INTEGER PRIMARY KEY AUTOINCREMENT, episode TEXT NOT NULL, agent TEXT NOT NULL, record TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS agentc_turns_by_agent ON agentc_turns (episode, agent, seq);
CREATE TABLE IF NOT EXISTS agentc_meta (episode TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, expires_at INTEGER, PRIMARY KEY (episode, key));
CREATE TABLE IF NOT EXISTS agentc_episodes (episode TEXT PRIMARY KEY, expires_at INTEGER);
`;

export async function createSqliteSessionStore(path: string, options: StoreOptions = {}): Promise<TurnStore> {
  const Ctor = await loadDriver<DatabaseCtor>('better-sqlite3', 'SQLite');
  const db = new Ctor(path, { timeout: 10_000 });
  db.pragma('busy_timeout = 10000');
  db.pragma('journal_mode = WAL');
  db.exec(SCHEMA);
  const now = options.now ?? Date.now;
  const ttl = options.ttlMs;
  const q = {
    insertTurn: db.prepare('INSERT INTO agentc_turns (episode, agent, record) VALUES (?, ?, ?)'),
    turns: db.prepare('SELECT record FROM agentc_turns WHERE episode = ? AND agent = ? ORDER BY seq LIMIT -1 OFFSET ?'),
    touch: db.prepare('INSERT INTO agentc_episodes (episode, expires_at) VALUES (?, ?) ON CONFLICT (episode) DO UPDATE SET expires_at = excluded.expires_at'),
    expiry: db.prepare('SELECT expires_at AS e FROM agentc_episodes WHERE episode = ?'),
    getMeta: db.prepare('SELECT value, expires_at AS e FROM agentc_meta WHERE episode = ? AND key = ?'),
    setMeta: db.prepare(
      'INSERT INTO agentc_meta (episode, key, value, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (episode, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at',
    ),
    delMeta: db.prepare('DELETE FROM agentc_meta WHERE episode = ? AND key = ?'),
    dropTurns: db.prepare('DELETE FROM agentc_turns WHERE episode = ?'),
    dropMeta: db.prepare('DELETE FROM agentc_meta WHERE episode = ?'),
    dropEpisode: db.prepare('DELETE FROM agentc_episodes WHERE episode = ?'),
  };
  const expiresAt = () => (ttl === undefined ? null : now() + ttl);

  /** Deletes an expired episode; true when the episode is live (or unknown). */
  const live = db.transaction((episode: string) => {
    const row = q.expiry.get(episode) as { e: number | null } | undefined;
    if (row !== undefined && row.e !== null && row.e <= now()) {
      q.dropTurns.run(episode);
      q.dropMeta.run(episode);
      q.dropEpisode.run(episode);
    }
  });
  const append = db.transaction((episode: string, agent: string, json: string) => {
    live.immediate(episode);
    q.insertTurn.run(episode, agent, json);
    q.touch.run(episode, expiresAt());
  });
  const writeMeta = db.transaction((episode: string, key: string, json: string | undefined, keyExpiry: number | null) => {
    live.immediate(episode);
    if (json === undefined) q.delMeta.run(episode, key);
    else q.setMeta.run(episode, key, json, keyExpiry);
    q.touch.run(episode, expiresAt());
  });
  let closed = false;

  const store: TurnStore = {
    ...messageApi(() => store),
    async appendTurn(episode, agent, record) {
      append.immediate(episode, agent, JSON.stringify(record));
    },
    async turns(episode, agent, from = 0) {
      live.immediate(episode);
      return (q.turns.all(episode, agent, Math.max(0, Math.floor(from))) as { record: string }[]).map((r) => JSON.parse(r.record) as TurnRecord);
    },
    async getMeta(episode, key) {
      live.immediate(episode);
      const row = q.getMeta.get(episode, key) as { value: string; e: number | null } | undefined;
      if (row === undefined || (row.e !== null && row.e <= now())) return undefined;
      return JSON.parse(row.value) as JsonValue;
    },
    async setMeta(episode, key, value, opts: MetaOptions = {}) {
      writeMeta.immediate(episode, key, value === undefined ? undefined : JSON.stringify(value), opts.ttlMs === undefined ? null : now() + opts.ttlMs);
    },
    async close() {
      if (!closed) db.close();
      closed = true;
    },
  };
  return store;
}
