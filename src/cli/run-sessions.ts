/**
 * `agentc run --sessions LOCATION --episode ID`: the session store a run uses,
 * so history lasts across invocations (`sqlite:PATH`, `redis://HOST:PORT`,
 * `memory`).
 *
 * Invariants: without --sessions the run uses the runtime's in-memory default
 * (nothing lasts); a store that cannot be opened is a usage error naming the
 * cause, never a stack trace; `close` is safe to call once the turn settled,
 * whatever happened.
 */
import { isAbsolute, resolve } from 'node:path';
import { openSessionStore, type TurnStore } from '../runtime/index.js';

export interface RunSessions {
  store?: TurnStore;
  /** Overrides the script's context.episode when given. */
  episode?: string;
  close(): Promise<void>;
}

export async function openRunSessions(
  opts: { sessions?: string; episode?: string },
  cwd: string,
): Promise<{ ok: true; value: RunSessions } | { ok: false; message: string }> {
  if (opts.episode !== undefined && opts.episode.trim() === '') return { ok: false, message: '--episode needs a non-empty id.' };
  const base: RunSessions = { close: async () => {} };
  if (opts.episode !== undefined) base.episode = opts.episode;
  if (opts.sessions === undefined) return { ok: true, value: base };
  let location = opts.sessions;
  if (location.startsWith('sqlite:')) {
    const path = location.slice('sqlite:'.length);
    if (path !== '' && path !== ':memory:' && !isAbsolute(path)) location = `sqlite:${resolve(cwd, path)}`;
  }
  try {
    const store = await openSessionStore(location);
    return { ok: true, value: { ...base, store, close: () => store.close().catch(() => undefined) } };
  } catch (e) {
    const cause = e instanceof Error ? e.message : String(e);
    return { ok: false, message: `cannot open session store ${opts.sessions}: ${cause}` };
  }
}
