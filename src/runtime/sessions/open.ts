/**
 * Opens a session store from a location string: `memory`, `sqlite:PATH`,
 * `redis://HOST:PORT` (or `rediss://…`). Drivers load only for their store.
 *
 * Invariant: an unknown or malformed location is a SessionStoreError that
 * names the accepted forms.
 */
import { SessionStoreError } from './driver.js';
import { createMemorySessionStore } from './memory.js';
import type { StoreOptions, TurnStore } from './types.js';

export async function openSessionStore(location: string, options: StoreOptions = {}): Promise<TurnStore> {
  if (location === 'memory') return createMemorySessionStore(options);
  if (location.startsWith('sqlite:')) {
    const path = location.slice('sqlite:'.length);
    if (path === '') throw new SessionStoreError('sqlite: needs a file path, e.g. sqlite:.agentc/sessions.db');
    const { createSqliteSessionStore } = await import('./sqlite.js');
    return createSqliteSessionStore(path, options);
  }
  if (/^rediss?:\/\//.test(location)) {
    const { createRedisSessionStore } = await import('./redis.js');
    return createRedisSessionStore(location, options);
  }
  throw new SessionStoreError(`Unknown session store "${location}": use memory, sqlite:PATH or redis://HOST:PORT.`);
}
