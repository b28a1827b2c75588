/**
 * The sub-agent graph: card id → resolved sub-agent ids (unknown ids dropped).
 * One depth-first search in id order finds the back edges (each closes a cycle);
 * without them the graph is a DAG, on which tree depths are well defined.
 */
import { memoSlot } from '../resolve/run-memo.js';
import type { Program } from '../resolve/types.js';
import { cmp } from './support.js';

export interface SubAgentGraph {
  /** Card id → [sub-agent id, index in sub_agents], resolved entries only. */
  edges: Map<string, [string, number][]>;
  /** Cycles as id paths whose last element equals the first, canonical rotation. */
  cycles: string[][];
  /** Depth below each card, back edges ignored, with the deepest path (card first). */
  depth(id: string): { depth: number; path: string[] };
}

/** One graph per run (several rules and the cascade filter read it). */
const GRAPH = memoSlot<SubAgentGraph>('sub-agent graph');
/** Across compiles: the last graph with the card table it was built from (id, card, id, card…) and the last compile that used it. */
const LAST_GRAPH = memoSlot<{ cards: readonly unknown[]; graph: SubAgentGraph; at: object | undefined }>('sub-agent graph and its cards');

export function subAgentGraph(program: Program): SubAgentGraph {
  return program.memo.get(GRAPH, () => {
    // A function of the card table alone (ids and parsed cards, which are never mutated).
    const box = program.memo.lastingBox(LAST_GRAPH);
    const last = box.value;
    const revision = program.revision;
    // Used by the compile just before this one, and no card changed since: the same table.
    if (last !== undefined && last.at !== undefined && revision?.changed?.since === last.at && revision.changed.card.size === 0) {
      last.at = revision.self;
      return last.graph;
    }
    const cards: unknown[] = [];
    program.cards.forEach((card, id) => cards.push(id, card));
    if (last !== undefined && last.cards.length === cards.length && last.cards.every((x, i) => x === cards[i])) {
      last.at = revision?.self;
      return last.graph;
    }
    const graph = buildGraph(program);
    box.value = { cards, graph, at: revision?.self };
    return graph;
  });
}

function buildGraph(program: Program): SubAgentGraph {
  const ids = [...program.cards.keys()].sort(cmp);
  const edges = new Map<string, [string, number][]>();
  for (const id of ids) {
    const card = program.cards.get(id)!;
    edges.set(
      id,
      card.data.sub_agents.flatMap((s, i): [string, number][] => (program.cards.has(s) ? [[s, i]] : [])),
    );
  }

  const state = new Map<string, 'open' | 'done'>();
  const back = new Set<string>(); // "from\u0000index"
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const stack: string[] = [];
  // Iterative DFS: deep graphs must not overflow the call stack.
  for (const start of ids) {
    if (state.has(start)) continue;
    const work: { id: string; next: number }[] = [{ id: start, next: 0 }];
    state.set(start, 'open');
    stack.push(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const out = edges.get(top.id)!;
      if (top.next >= out.length) {
        state.set(top.id, 'done');
        stack.pop();
        work.pop();
        continue;
      }
      const [to, index] = out[top.next++]!;
      const s = state.get(to);
      if (s === 'open') {
        back.add(`${top.id}\u0000${index}`);
        const cycle = stack.slice(stack.lastIndexOf(to));
        const canon = canonical(cycle);
        const key = canon.join('\u0000');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push([...canon, canon[0]!]);
        }
      } else if (s === undefined) {
        state.set(to, 'open');
        stack.push(to);
        work.push({ id: to, next: 0 });
      }
    }
  }

  const memo = new Map<string, { depth: number; path: string[] }>();
  const depth = (id: string): { depth: number; path: string[] } => {
    const known = memo.get(id);
    if (known) return known;
    // Post-order without recursion over the DAG (back edges removed).
    const todo: { id: string; expanded: boolean }[] = [{ id, expanded: false }];
    while (todo.length > 0) {
      const t = todo.pop()!;
      if (memo.has(t.id)) continue;
      const children = (edges.get(t.id) ?? []).filter(([, i]) => !back.has(`${t.id}\u0000${i}`)).map(([c]) => c);
      if (!t.expanded) {
        todo.push({ id: t.id, expanded: true });
        for (const c of children) if (!memo.has(c)) todo.push({ id: c, expanded: false });
        continue;
      }
      let best = { depth: 0, path: [t.id] };
      for (const c of children) {
        const d = memo.get(c) ?? { depth: 0, path: [c] };
        if (d.depth + 1 > best.depth) best = { depth: d.depth + 1, path: [t.id, ...d.path] };
      }
      memo.set(t.id, best);
    }
    return memo.get(id) ?? { depth: 0, path: [id] };
  };

  return { edges, cycles, depth };
}

/** Rotation of a cycle that starts at its smallest id (so each cycle has one name). */
function canonical(cycle: string[]): string[] {
  let min = 0;
  for (let i = 1; i < cycle.length; i++) if (cmp(cycle[i]!, cycle[min]!) < 0) min = i;
  return [...cycle.slice(min), ...cycle.slice(0, min)];
}
