/**
 * Small helpers shared by the rules: where to point when a key may be absent
 * (each file kind's locator answers "not written" and falls back explicitly),
 * related-information entries, and number formatting. Pure functions.
 */
import type { RelatedRef } from '../diagnostics/catalog.js';
import type { Range, RelatedInput } from '../diagnostics/diagnostic.js';
import { suggestions } from '../diagnostics/did-you-mean.js';
import type { Block, Card, Tool } from '../parse/types.js';
import type { PathSegment } from '../parse/yaml.js';
import { effectiveDispatch } from '../resolve/dispatch.js';
import { memoSlot } from '../resolve/run-memo.js';
import type { Agent, Program } from '../resolve/types.js';

/**
 * Range of a card's key (`part` 'key') or value where it is written; where it is
 * not, the card's `id` key (the card's own locator chooses that fallback).
 */
export function cardAt(card: Card, path: readonly PathSegment[], part: 'key' | 'value' = 'value'): Range {
  return card.locate(path, part);
}

/** Range of a block's front-matter key or value where written, else its first front-matter line. */
export function blockAt(block: Block, path: readonly PathSegment[], part: 'key' | 'value' = 'value'): Range {
  return block.locate(path, part);
}

/** The first line of a block's body (where a render failure without a position is shown). */
export function bodyStart(block: Block): Range {
  const start = block.file.positionAt(block.bodyOffset);
  return { start, end: { line: start.line, column: Math.max(2, block.file.lineText(start.line).length + 1) } };
}

/** Where a block is identified: its `id` key when written, else its first front-matter line. */
export function blockIdAt(block: Block): Range {
  return blockAt(block, ['id']);
}

/** Range of a contract's key or value where written, else its `name` key. */
export function toolAt(tool: Tool, path: readonly PathSegment[], part: 'key' | 'value' = 'value'): Range {
  return tool.locate(path, part);
}

/**
 * File and range of a path in the config, or nothing when the workspace has no
 * config file. Where the path is not written (a default, an imported value) the
 * range is the line that exports the config.
 */
export function configAt(program: Program, path: readonly PathSegment[], part: 'key' | 'value' = 'value'): { file?: string; range?: Range } {
  const file = program.config.file;
  if (!file) return {};
  return { file: file.path, range: program.config.locate(path, part) };
}

/** A related entry pointing into the config, or none when there is no config file. */
export function configRelated(program: Program, path: readonly PathSegment[], label: RelatedRef, part: 'key' | 'value' = 'value'): RelatedInput[] {
  const at = configAt(program, path, part);
  if (at.file === undefined) return [];
  return [{ file: at.file, ...(at.range ? { range: at.range } : {}), ...label }];
}

/** Per-run sorted lists (rules run in sequence over one program; none mutates these lists). */
const CARDS_BY_ID = memoSlot<readonly Card[]>('cards by id');
const BLOCKS_BY_ID = memoSlot<readonly Block[]>('blocks by id');
const TOOLS_BY_NAME = memoSlot<readonly Tool[]>('tools by name');

/** Per kind, across compiles: the ids in table order and the permutation that sorts them (the same ids sort the same way). */
const CARD_ORDER = memoSlot<SortOrder>('card sort order');
const BLOCK_ORDER = memoSlot<SortOrder>('block sort order');
const TOOL_ORDER = memoSlot<SortOrder>('tool sort order');
interface SortOrder {
  ids: readonly string[];
  order: readonly number[];
}

/** Cards in id order (Map iteration order is insertion order; do not rely on it). */
export function sortedCards(program: Program): readonly Card[] {
  return program.memo.get(CARDS_BY_ID, () => sortedBy(program, CARD_ORDER, [...program.cards.values()], (c) => c.data.id));
}

export function sortedBlocks(program: Program): readonly Block[] {
  return program.memo.get(BLOCKS_BY_ID, () => sortedBy(program, BLOCK_ORDER, [...program.blocks.values()], (b) => b.data.id));
}

export function sortedTools(program: Program): readonly Tool[] {
  return program.memo.get(TOOLS_BY_NAME, () => sortedBy(program, TOOL_ORDER, [...program.tools.values()], (t) => t.data.name));
}

/** `items` stably sorted by `idOf` (code units), frozen; the permutation is reused while the ids in order are the same. */
function sortedBy<T>(program: Program, slot: typeof CARD_ORDER, items: readonly T[], idOf: (t: T) => string): readonly T[] {
  const ids = items.map(idOf);
  const box = program.memo.lastingBox(slot);
  const last = box.value;
  let order = last?.order;
  if (last === undefined || last.ids.length !== ids.length || !last.ids.every((id, i) => id === ids[i])) {
    order = ids.map((_, i) => i).sort((a, b) => cmp(ids[a]!, ids[b]!) || a - b);
    box.value = { ids, order };
  }
  return Object.freeze(order!.map((i) => items[i]!));
}

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Cards that dispatch to sub-agents (non-empty `sub_agents`). */
export function isOrchestratorShaped(card: Card): boolean {
  return card.data.sub_agents.length > 0;
}

/** `ratio` as a percentage with at most one decimal: 0.25 → "25", 0.1234 → "12.3". */
export function percent(ratio: number): string {
  const p = Math.round(ratio * 1000) / 10;
  return Number.isInteger(p) ? String(p) : p.toFixed(1);
}

/** `1 sub-agent`, `2 sub-agents`. */
export function plural(n: number, word: string, pluralWord = `${word}s`): string {
  return `${n} ${n === 1 ? word : pluralWord}`;
}

/** ` (cohort a+b)` for a non-default cohort, '' for the default one. */
export function cohortSuffix(key: string): string {
  return key === '' ? '' : ` (cohort ${key})`;
}

/** The fan-out cap in effect (resolve's `Agent.dispatch`): the card's own, else the config default. */
export function effectiveFanOutCap(program: Program, card: Card): { cap: number; explicit: boolean } {
  const dispatch = program.agents.get(card.data.id)?.dispatch ?? effectiveDispatch(card.data, program.config.data);
  return { cap: dispatch.fanOutCap, explicit: dispatch.fanOutCapExplicit };
}

/**
 * Events a card can emit: its own status_events plus those of its resolved
 * tools. `range` is a getter: locating re-parses a file, so it is computed only
 * when a rule reports.
 */
export function emittableEvents(program: Program, card: Card): Map<string, { file: { path: string }; readonly range: Range }> {
  const events = new Map<string, { file: { path: string }; readonly range: Range }>();
  const origin = (file: { path: string }, locate: () => Range) => {
    let range: Range | undefined;
    return {
      file,
      get range() {
        return (range ??= locate());
      },
    };
  };
  card.data.status_events.forEach((e, i) => {
    if (!events.has(e))
      events.set(
        e,
        origin(card.file, () => card.locate(['status_events', i])),
      );
  });
  for (const name of card.data.tools) {
    const tool = program.tools.get(name);
    if (!tool) continue;
    tool.data.status_events.forEach((e, i) => {
      if (!events.has(e))
        events.set(
          e,
          origin(tool.file, () => tool.locate(['status_events', i])),
        );
    });
  }
  return events;
}

/** The config is missing or did not load (Program.configStatus): its values are unknown, not the defaults. */
export function configFailed(program: Program): boolean {
  return program.configStatus !== 'loaded';
}

/**
 * Names that some unresolved reference is probably a typo of (within did-you-mean
 * distance), by kind. Hygiene rules stay silent about them: a tool that a typo
 * failed to reference is not unused, and no hint may advise deleting it.
 */
export function typoTargets(program: Program): TypoTargets {
  return program.memo.get(TYPO_TARGETS, () => findTypoTargets(program));
}

type TypoTargets = { tools: Set<string>; blocks: Set<string>; cards: Set<string>; models: Set<string> };
/** Per run: four hygiene rules ask; none mutates the sets. */
const TYPO_TARGETS = memoSlot<TypoTargets>('typo targets');

function findTypoTargets(program: Program): TypoTargets {
  const out = { tools: new Set<string>(), blocks: new Set<string>(), cards: new Set<string>(), models: new Set<string>() };
  const toolNames = [...program.tools.keys()];
  const blockIds = [...program.blocks.keys()];
  const cardIds = [...program.cards.keys()];
  const modelNames = Object.keys(program.config.data.models);
  const near = (name: string, candidates: string[], into: Set<string>) => {
    for (const s of suggestions(name, candidates)) into.add(s);
  };
  for (const card of program.cards.values()) {
    for (const t of [...card.data.tools, ...(card.data.policy.tool_whitelist ?? [])]) {
      if (!program.tools.has(t) && !program.unparsed.tools.has(t)) near(t, toolNames, out.tools);
    }
    for (const b of card.data.prompt_blocks) if (!program.blocks.has(b) && !program.unparsed.blocks.has(b)) near(b, blockIds, out.blocks);
    for (const s of card.data.sub_agents) if (!program.cards.has(s) && !program.unparsed.cards.has(s)) near(s, cardIds, out.cards);
    for (const m of [card.data.model, card.data.fallback_model, card.data.history?.summary_model]) {
      if (m !== undefined && !Object.prototype.hasOwnProperty.call(program.config.data.models, m)) near(m, modelNames, out.models);
    }
  }
  for (const b of program.config.data.platform.requiredBlocks) if (!program.blocks.has(b) && !program.unparsed.blocks.has(b)) near(b, blockIds, out.blocks);
  return out;
}

/**
 * File stems of cards and tools whose id (name) differs from their file name:
 * id-mismatch reports each; a reference by the file name is that mistake's
 * consequence, not a second one.
 */
export function mismatchedStems(program: Program): { cards: Set<string>; tools: Set<string> } {
  const cards = new Set<string>();
  const tools = new Set<string>();
  for (const c of program.cards.values()) if (c.stem !== c.data.id) cards.add(c.stem);
  for (const t of program.tools.values()) if (t.stem !== t.data.name) tools.add(t.stem);
  return { cards, tools };
}

/**
 * Some card is not in the program: it did not parse, or it lost a duplicate id.
 * Such a card may use (or reach) anything, so hygiene rules say nothing rather than guess.
 */
export function cardsIncomplete(program: Program): boolean {
  return program.unparsed.cards.size > 0 || program.duplicates.some((d) => d.kind === 'card');
}

/** Ids of the cards that declare sub-agents (the agents an eval suite can test), sorted. */
export function orchestratorIds(program: Program): string[] {
  return [...program.cards.values()]
    .filter((c) => c.data.sub_agents.length > 0)
    .map((c) => c.data.id)
    .sort(cmp);
}

/**
 * The orchestrator an eval suite tests, when the suite's names can be checked
 * against it: it exists, has resolved sub-agents, and none of its declared
 * sub-agents is missing (an unknown one is unknown-sub-agent's error; the suite
 * may name it correctly).
 */
export function evalOrchestrator(program: Program, name: string): Agent | undefined {
  const agent = program.agents.get(name);
  if (agent === undefined || agent.subAgents.length === 0) return undefined;
  return agent.subAgents.length === agent.card.data.sub_agents.length ? agent : undefined;
}

/** A case's label in messages: `#3` (1-based), with its name when it has one. */
export function caseLabel(index: number, name: string | undefined): string {
  return name === undefined ? `#${index + 1}` : `#${index + 1} ("${name}")`;
}
