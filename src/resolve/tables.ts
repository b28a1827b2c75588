/**
 * The id tables of a program: each parsed list (cards, blocks, tools, in path
 * order) indexed by id, the first file winning, every later one a duplicate.
 * Invariant: a table is a function of its list alone (parsed objects are never
 * mutated; a changed file parses into a new object), so a list that is the same
 * objects in the same places gives the same table, which is then reused as is,
 * and the ids whose object differs between two tables are found among the ids
 * of the places where the two lists differ.
 */
import type { Block, Card, Tool } from '../parse/types.js';
import type { Program } from './types.js';

export type Duplicate = Program['duplicates'][number];

export interface TableKinds {
  card: Card;
  block: Block;
  tool: Tool;
}

/** One kind's table, with the list it was made from and its duplicates (in list order). */
export interface Table<K extends keyof TableKinds> {
  list: readonly TableKinds[K][];
  map: Map<string, TableKinds[K]>;
  duplicates: readonly Duplicate[];
}

/** The id of an item of each kind (a tool's is its name). */
function idOf(item: Card | Block | Tool): string {
  return item.kind === 'tool' ? item.data.name : item.data.id;
}

/** The table of `list`; `last`'s when `list` is the same objects in the same places. */
export function indexTable<K extends keyof TableKinds>(kind: K, list: readonly TableKinds[K][], last?: Table<K>): Table<K> {
  if (last !== undefined && sameList(last.list, list)) return last;
  const map = new Map<string, TableKinds[K]>();
  const duplicates: Duplicate[] = [];
  for (const item of list) {
    const id = idOf(item);
    const first = map.get(id);
    if (first) duplicates.push({ kind, id, first: first.file, file: item.file, range: item.locate([kind === 'tool' ? 'name' : 'id']) });
    else map.set(id, item);
  }
  return { list, map, duplicates };
}

/** Ids whose object differs between two tables (an id in one of them only included). */
export function changedIds<K extends keyof TableKinds>(last: Table<K>, now: Table<K>): Set<string> {
  const out = new Set<string>();
  if (last === now) return out;
  if (last.list.length === now.list.length) {
    // Only ids at the places where the lists differ can name another object.
    for (let i = 0; i < now.list.length; i++) {
      const was = last.list[i]!;
      const is = now.list[i]!;
      if (was === is) continue;
      for (const id of [idOf(was), idOf(is)]) if (last.map.get(id) !== now.map.get(id)) out.add(id);
    }
    return out;
  }
  for (const [id, x] of now.map) if (last.map.get(id) !== x) out.add(id);
  for (const id of last.map.keys()) if (!now.map.has(id)) out.add(id);
  return out;
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
