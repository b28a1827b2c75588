/**
 * Findings made item by item: a rule whose reports are a union over the agents
 * (or cards, blocks, tools) makes each item's findings with an `ItemPass`, and
 * reports from `CheckRun.findings`. Invariant: a pass's `find` is a pure function
 * of its item — what the item's identity stands for — and the config (value and
 * text), never of other items or the program's tables:
 * - a Card, Block or Tool stands for its file (parsed objects are never mutated);
 * - an Agent for its card, each block, tool and sub-agent's card its card names,
 *   its parents' ids and cards, and the config's value (src/resolve/agent-memo.ts).
 * So with a CompileCache only the items that changed since the last compile
 * (`Program.revision`) are looked at again (src/check/rule-memo.ts keeps the
 * findings); without one every item is, in one pass.
 */
import type { RuleId } from '../diagnostics/catalog.js';
import type { ReportInput } from '../diagnostics/diagnostic.js';
import type { Block, Card, Tool } from '../parse/types.js';
import type { Agent, Program } from '../resolve/types.js';
import type { Report } from './rule.js';
import { cmp } from './support.js';

export interface ItemTypes {
  agent: Agent;
  card: Card;
  block: Block;
  tool: Tool;
}
export type ItemKind = keyof ItemTypes;

/** One rule's per-item step; declared once next to its rule (its findings are kept by this object). */
export interface ItemPass<K extends ItemKind, F> {
  readonly kind: K;
  /** The item's findings, in the order the rule reports them (see the invariant above). */
  find(program: Program, item: ItemTypes[K], found: (f: F) => void): void;
}

export function itemPass<K extends ItemKind, F>(kind: K, find: ItemPass<K, F>['find']): ItemPass<K, F> {
  return Object.freeze({ kind, find });
}

/** An item with findings: its id (agents by card id, tools by name) and what `find` reported, never empty. */
export interface ItemFound<K extends ItemKind, F> {
  readonly id: string;
  readonly item: ItemTypes[K];
  readonly found: readonly F[];
}

/** What a rule's `run` is given besides the program. */
export interface CheckRun {
  /** Every item of the pass's kind that has findings, in id order (code units), each with its findings. */
  findings<K extends ItemKind, F>(pass: ItemPass<K, F>): readonly ItemFound<K, F>[];
}

/** The program's table of a kind, by id. */
export function itemTable<K extends ItemKind>(program: Program, kind: K): ReadonlyMap<string, ItemTypes[K]> {
  const tables: { [Q in ItemKind]: ReadonlyMap<string, ItemTypes[Q]> } = {
    agent: program.agents,
    card: program.cards,
    block: program.blocks,
    tool: program.tools,
  };
  return tables[kind];
}

/** The item's findings, or undefined when it has none. */
export function findItem<K extends ItemKind, F>(program: Program, pass: ItemPass<K, F>, id: string, item: ItemTypes[K]): ItemFound<K, F> | undefined {
  let found: F[] | undefined;
  pass.find(program, item, (f) => (found ??= []).push(f));
  return found === undefined ? undefined : { id, item, found };
}

/** Items with findings in id order. */
export function inIdOrder<K extends ItemKind, F>(items: Iterable<ItemFound<K, F>>): readonly ItemFound<K, F>[] {
  return Object.freeze([...items].sort((a, b) => cmp(a.id, b.id)));
}

/** Every item looked at (a compile without a CompileCache, or a full pass). */
export function findAll<K extends ItemKind, F>(program: Program, pass: ItemPass<K, F>): Map<string, ItemFound<K, F>> {
  const out = new Map<string, ItemFound<K, F>>();
  itemTable(program, pass.kind).forEach((item, id) => {
    const f = findItem(program, pass, id, item);
    if (f !== undefined) out.set(id, f);
  });
  return out;
}

/** A run without kept findings: each pass looks at every item. */
export function freshCheckRun(program: Program): CheckRun {
  return { findings: (pass) => inIdOrder(findAll(program, pass).values()) };
}

/** Reports every finding of a pass whose findings are the rule's own reports, in id order. */
export function reportFound<R extends RuleId>(items: readonly ItemFound<ItemKind, ReportInput<R>>[], report: Report<R>): void {
  for (const { found } of items) for (const d of found) report(d);
}
