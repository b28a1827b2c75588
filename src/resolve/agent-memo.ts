/**
 * Resolved agents kept across compiles (watch mode, the language server): an
 * agent is resolved again only when something it is made from changed. Owned by
 * `CompileCache` (src/compile.ts); a compile without one resolves every agent.
 *
 * The key of an agent names everything resolveAgent reads: the config (its
 * resolved value's JSON, compared once per run: a change forgets every agent), the card, and — looked up by the ids the card names —
 * each block of its prompt (required platform blocks included), each tool, each
 * sub-agent's card and each parent's card, by object identity (undefined when the id
 * names nothing). Identity stands for content because parsed objects are never
 * mutated and a file whose text changed is parsed into a new object (ParseCache);
 * rendering, counting and block analysis are pure functions of those objects.
 * Resolved agents are never mutated after resolve.
 *
 * The key is checked without being built: each run lists the ids whose object differs
 * from the last run's tables (blocks, tools, cards; an id present in one run only
 * counts), and an agent is kept when its card is the same object, its parents are the
 * same ids, and no id it names is listed. The config's part (the required blocks' ids)
 * is the same while the config is.
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

/** Per table, the ids whose object differs from the last run's (an id present in one run only included). */
export interface TableChanges {
  blocks: ReadonlySet<string>;
  tools: ReadonlySet<string>;
  cards: ReadonlySet<string>;
}

export class PersistentAgentMemos {
  private entries = new Map<string, { card: Card; parents: readonly string[]; agent: Agent }>();
  private configKey: string | undefined;
  /** The last run's tables, to list what changed since. */
  private last: AgentLookups | undefined;

  /** This run's view over `p`'s lookups; agents not resolved in the run are dropped when it ends (`retain`). */
  /**
   * `self` names this run and `changed` what differs from the last retained run, named by `since` (its `self`);
   * `changed` is absent when that run is unknown or no agent is kept from it (the first run, a config change).
   */
  forRun(p: AgentLookups): AgentMemoRun & { retain(): void; self: object; changed: (TableChanges & { since: object }) | undefined } {
    // The config is part of every key: compared once per run, and a changed one forgets every agent.
    const configKey = JSON.stringify(p.config);
    if (configKey !== this.configKey) this.entries.clear();
    this.configKey = configKey;
    const last = this.entries.size > 0 ? this.last : undefined;
    const changed =
      last === undefined
        ? undefined
        : { since: last, blocks: changedIds(last.blocks, p.blocks), tools: changedIds(last.tools, p.tools), cards: changedIds(last.cards, p.cards) };
    const requiredChanged = changed === undefined || p.config.platform.requiredBlocks.some((id) => changed.blocks.has(id));
    const next = new Map<string, { card: Card; parents: readonly string[]; agent: Agent }>();
    return {
      self: p,
      changed,
      get: (card) => {
        const hit = this.entries.get(card.data.id);
        if (hit === undefined || hit.card !== card || changed === undefined || requiredChanged) return undefined;
        const d = card.data;
        const parents = p.parents.get(d.id) ?? [];
        const same =
          sameItems(hit.parents, parents) &&
          !d.prompt_blocks.some((id) => changed.blocks.has(id)) &&
          !d.tools.some((id) => changed.tools.has(id)) &&
          !d.sub_agents.some((id) => changed.cards.has(id)) &&
          !parents.some((id) => changed.cards.has(id));
        return same ? hit.agent : undefined;
      },
      set: (card, agent) => {
        next.set(card.data.id, { card, parents: p.parents.get(card.data.id) ?? [], agent });
      },
      retain: () => {
        this.entries = next;
        this.last = p;
      },
    };
  }

  invalidate(): void {
    this.entries.clear();
    this.configKey = undefined;
    this.last = undefined;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Ids whose object differs between the two tables (present in one only included). */
function changedIds<T>(last: ReadonlyMap<string, T>, now: ReadonlyMap<string, T>): Set<string> {
  const out = new Set<string>();
  for (const [id, x] of now) if (last.get(id) !== x) out.add(id);
  for (const id of last.keys()) if (!now.has(id)) out.add(id);
  return out;
}

function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
