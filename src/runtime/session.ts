/**
 * The default session store: per (episode, agent) message lists in memory.
 *
 * Invariant: `get` returns a copy, so a caller can never mutate the stored
 * history, and an agent's key only ever holds that agent's own turns.
 */
import type { Message, SessionStore } from './types.js';

export function createMemorySessionStore(): SessionStore & { clear(): void } {
  const histories = new Map<string, Message[]>();
  const key = (episode: string, agent: string) => JSON.stringify([episode, agent]);
  return {
    get(episode, agent) {
      return (histories.get(key(episode, agent)) ?? []).map((m) => ({ ...m }));
    },
    append(episode, agent, messages) {
      const k = key(episode, agent);
      const list = histories.get(k) ?? [];
      list.push(...messages.map((m) => ({ ...m })));
      histories.set(k, list);
    },
    clear() {
      histories.clear();
    },
  };
}
