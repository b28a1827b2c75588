/**
 * Resolved agents kept across compiles (watch mode, the language server): an
 * agent is resolved again only when something it is made from changed. Owned by
 * `CompileCache` (src/compile.ts); a compile without one resolves every agent.
 *
 * The key of an agent names everything resolveAgent reads: the config (its
 * resolved value's JSON, compared once per run: a change forgets every agent), the card, and — looked up by the ids the card names —
 * each block of its prompt (required platform blocks included), each tool, each
 * sub-agent's card and each parent's card, by object identity (undefined when the id
 * names nothing), each list led by its length: keys are compared item by item. Identity stands for content because parsed objects are never
 * mutated and a file whose text changed is parsed into a new object (ParseCache);
 * rendering, counting and block analysis are pure functions of those objects.
 * Resolved agents are never mutated after resolve.
 */
import type { Block, Card, ResolvedConfig, Tool } from '../parse/types.js';
import type { Agent } from './types.js';

export interface AgentLookups {
  config: ResolvedConfig;
  blocks: ReadonlyMap<string, Block>;
  cards: ReadonlyMap<string, Card>;
  tools: ReadonlyMap<string, Tool>;
  parents: ReadonlyMap<string, readonly string[]>;
}

/** One compile's view of the memo: `get` before resolving an agent, `set` after. */
export interface AgentMemoRun {
  get(card: Card): Agent | undefined;
  set(card: Card, agent: Agent): void;
}

export class PersistentAgentMemos {
  private entries = new Map<string, { key: readonly unknown[]; agent: Agent }>();
  private configKey: string | undefined;

  /** This run's view over `p`'s lookups; agents not resolved in the run are dropped when it ends (`retain`). */
  forRun(p: AgentLookups): AgentMemoRun & { retain(): void } {
    // The config is part of every key: compared once per run, and a changed one forgets every agent.
    const configKey = JSON.stringify(p.config);
    if (configKey !== this.configKey) this.entries.clear();
    this.configKey = configKey;
    const next = new Map<string, { key: readonly unknown[]; agent: Agent }>();
    const keys = new Map<Card, readonly unknown[]>();
    const keyOf = (card: Card): readonly unknown[] => {
      let key = keys.get(card);
      if (key === undefined) keys.set(card, (key = this.key(card, p)));
      return key;
    };
    return {
      get: (card) => {
        const hit = this.entries.get(card.data.id);
        return hit !== undefined && sameItems(hit.key, keyOf(card)) ? hit.agent : undefined;
      },
      set: (card, agent) => {
        next.set(card.data.id, { key: keyOf(card), agent });
      },
      retain: () => {
        this.entries = next;
      },
    };
  }

  invalidate(): void {
    this.entries.clear();
    this.configKey = undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The card, then each named id with its object (undefined when it names nothing), list by list: compared item by item (===). */
  private key(card: Card, p: AgentLookups): unknown[] {
    const d = card.data;
    const key: unknown[] = [card];
    const named = (ids: readonly string[], map: ReadonlyMap<string, object>): void => {
      key.push(ids.length);
      for (const id of ids) key.push(id, map.get(id));
    };
    named(p.config.platform.requiredBlocks, p.blocks);
    named(d.prompt_blocks, p.blocks);
    named(d.tools, p.tools);
    named(d.sub_agents, p.cards);
    named(p.parents.get(d.id) ?? [], p.cards);
    return key;
  }
}

function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
