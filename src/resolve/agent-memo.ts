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
 * is the same while the config is. When only blocks other than the required ones changed
 * (the usual edit), the agents resolved again are those whose card names a changed block,
 * looked up in an index of the card table kept while no card changes; the card order and
 * parents (`CardOrder`) are likewise kept while no card changes, and each id table
 * (src/resolve/tables.ts) while its parsed list is the same objects.
 */
import type { ParsedWorkspace } from '../parse/index.js';
import type { Card, ResolvedConfig } from '../parse/types.js';
import { changedIds, indexTable, type Table } from './tables.js';
import type { Agent } from './types.js';

/** A run's id tables (src/resolve/tables.ts) under its config. */
export interface AgentLookups {
  config: ResolvedConfig;
  tables: Tables;
}

export interface Tables {
  card: Table<'card'>;
  block: Table<'block'>;
  tool: Table<'tool'>;
}

/** The cards in id order and, by card id, the ids of the cards that list it in sub_agents: a function of the card table alone. */
export interface CardOrder {
  sorted: readonly Card[];
  parents: Map<string, string[]>;
}

/** One compile's view of the memo: `get` before resolving an agent, `set` after. */
export interface AgentMemoRun {
  get(card: Card): Agent | undefined;
  set(card: Card, agent: Agent): void;
}

/** Per table, the ids whose object differs from the last run's (an id present in one run only included). */
export interface TableChanges {
  card: ReadonlySet<string>;
  block: ReadonlySet<string>;
  tool: ReadonlySet<string>;
}

export class PersistentAgentMemos {
  private entries = new Map<string, { card: Card; parents: readonly string[]; agent: Agent }>();
  private configKey: string | undefined;
  /** The last run's tables, to list what changed since, and its card order. */
  private last: AgentLookups | undefined;
  private lastOrder: CardOrder | undefined;
  /** Block id → ids of the cards whose prompt_blocks name it, for the card table of the run `at`. */
  private users: { at: object; byBlock: Map<string, string[]> } | undefined;

  /**
   * This run's view over `p`'s lookups; agents not resolved in the run are dropped when it ends (`retain`).
   * `self` names this run and `changed` what differs from the last retained run, named by `since` (its `self`);
   * `changed` is absent when that run is unknown or no agent is kept from it (the first run, a config change).
   * `order` is `orderOf(p.cards)`, or the last run's while no card changed.
   */
  forRun(
    parsed: ParsedWorkspace,
    orderOf: (cards: ReadonlyMap<string, Card>) => CardOrder,
  ): AgentMemoRun & { retain(): void; self: object; tables: Tables; changed: (TableChanges & { since: object }) | undefined; order: CardOrder } {
    // The tables: the last run's where a list is the same.
    const before = this.last?.tables;
    const tables: Tables = {
      card: indexTable('card', parsed.cards, before?.card),
      block: indexTable('block', parsed.blocks, before?.block),
      tool: indexTable('tool', parsed.tools, before?.tool),
    };
    const p: AgentLookups = { config: parsed.config.data, tables };
    // The config is part of every key: compared once per run, and a changed one forgets every agent.
    const configKey = JSON.stringify(p.config);
    if (configKey !== this.configKey) this.entries.clear();
    this.configKey = configKey;
    const last = this.entries.size > 0 ? this.last : undefined;
    const changed =
      last === undefined
        ? undefined
        : {
            since: last,
            card: changedIds(last.tables.card, tables.card),
            block: changedIds(last.tables.block, tables.block),
            tool: changedIds(last.tables.tool, tables.tool),
          };
    const requiredChanged = changed === undefined || p.config.platform.requiredBlocks.some((id) => changed.block.has(id));
    const cardsSame = changed !== undefined && changed.card.size === 0;
    const order = cardsSame && this.lastOrder !== undefined ? this.lastOrder : orderOf(tables.card.map);
    // Only blocks changed (the usual edit): the agents to resolve again are the changed blocks' users.
    const stale = cardsSame && !requiredChanged && changed.tool.size === 0 ? this.usersOf(p, changed) : undefined;
    const next = new Map<string, { card: Card; parents: readonly string[]; agent: Agent }>();
    return {
      self: p,
      tables,
      changed,
      order,
      get: (card) => {
        const hit = this.entries.get(card.data.id);
        if (hit === undefined || hit.card !== card || changed === undefined || requiredChanged) return undefined;
        if (stale !== undefined) return stale.has(card.data.id) ? undefined : hit.agent;
        const d = card.data;
        const parents = order.parents.get(d.id) ?? [];
        const same =
          sameItems(hit.parents, parents) &&
          !d.prompt_blocks.some((id) => changed.block.has(id)) &&
          !d.tools.some((id) => changed.tool.has(id)) &&
          !d.sub_agents.some((id) => changed.card.has(id)) &&
          !parents.some((id) => changed.card.has(id));
        return same ? hit.agent : undefined;
      },
      set: (card, agent) => {
        // With `stale`, the run has the last run's cards (the same ids): only agents made again are noted, replaced at `retain`.
        if (stale !== undefined && this.entries.get(card.data.id)?.agent === agent) return;
        next.set(card.data.id, { card, parents: order.parents.get(card.data.id) ?? [], agent });
      },
      retain: () => {
        if (stale !== undefined) next.forEach((entry, id) => this.entries.set(id, entry));
        else this.entries = next;
        this.last = p;
        this.lastOrder = order;
      },
    };
  }

  /** Ids of the cards naming a changed block in prompt_blocks; the index is kept while the card table is the same (`changed.card` empty). */
  private usersOf(p: AgentLookups, changed: TableChanges & { since: object }): Set<string> {
    let users = this.users;
    if (users === undefined || users.at !== changed.since) {
      const byBlock = new Map<string, string[]>();
      p.tables.card.map.forEach((card, id) => {
        for (const b of card.data.prompt_blocks) {
          const list = byBlock.get(b);
          if (list === undefined) byBlock.set(b, [id]);
          else list.push(id);
        }
      });
      users = { at: p, byBlock };
    }
    this.users = { at: p, byBlock: users.byBlock };
    const out = new Set<string>();
    for (const b of changed.block) for (const id of users.byBlock.get(b) ?? []) out.add(id);
    return out;
  }

  invalidate(): void {
    this.entries.clear();
    this.configKey = undefined;
    this.last = undefined;
    this.lastOrder = undefined;
    this.users = undefined;
  }

  get size(): number {
    return this.entries.size;
  }
}

function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
