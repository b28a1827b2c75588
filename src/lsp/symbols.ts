/**
 * What an id under the cursor names, and every place that names it. References are
 * found structurally (the parsed YAML's locators), never by searching prose, so a
 * rename touches only ids: card lists, whitelists, models, flags, and the owner's id.
 */
import type { Range } from '../diagnostics/diagnostic.js';
import type { Card } from '../parse/types.js';
import { sourceKindOf } from '../load/layout.js';
import type { Program } from '../resolve/types.js';

export type SymbolKind = 'tool' | 'block' | 'card' | 'model' | 'flag' | 'status';

export interface SymbolRef {
  kind: SymbolKind;
  id: string;
}

export interface Place {
  file: string;
  range: Range;
}

/** The id-like word around a 0-based offset (letters, digits, `_`, `-`, `.`, `:`). */
export function wordAt(text: string, offset: number): { word: string; start: number; end: number } | undefined {
  const isId = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_.:-]/.test(c);
  let start = offset;
  while (start > 0 && isId(text[start - 1])) start--;
  let end = offset;
  while (end < text.length && isId(text[end])) end++;
  if (start === end) return undefined;
  return { word: text.slice(start, end), start, end };
}

/** Classifies a word in a file: its own id (owner file) first, then every kind by name. */
export function classify(program: Program, file: string, word: string): SymbolRef | undefined {
  const own = sourceKindOf(file, program.layout);
  if (own === 'block' && program.blocks.get(word)?.file.path === file) return { kind: 'block', id: word };
  if (own === 'card' && program.cards.get(word)?.file.path === file) return { kind: 'card', id: word };
  if (program.tools.has(word)) return { kind: 'tool', id: word };
  if (program.blocks.has(word)) return { kind: 'block', id: word };
  if (program.cards.has(word)) return { kind: 'card', id: word };
  if (word in program.config.data.models) return { kind: 'model', id: word };
  if (program.config.data.flags.includes(word)) return { kind: 'flag', id: word };
  for (const card of program.cards.values()) if (card.data.status_events.includes(word)) return { kind: 'status', id: word };
  return undefined;
}

/** A locator's range, or the file's start when the path is not in the file (it was edited away). */
function safe(f: () => Range): Range {
  try {
    return f();
  } catch {
    return { start: { line: 1, column: 1 }, end: { line: 1, column: 1 } };
  }
}

/** Where the symbol is declared: the owner's id, or its entry in the config. */
export function definitionOf(program: Program, ref: SymbolRef): Place | undefined {
  switch (ref.kind) {
    case 'tool': {
      const t = program.tools.get(ref.id);
      return t && { file: t.file.path, range: safe(() => t.locate(['name'], 'value')) };
    }
    case 'block': {
      const b = program.blocks.get(ref.id);
      return b && { file: b.file.path, range: safe(() => b.locate(['id'], 'value')) };
    }
    case 'card': {
      const c = program.cards.get(ref.id);
      return c && { file: c.file.path, range: safe(() => c.locate(['id'], 'value')) };
    }
    case 'model':
    case 'flag':
      return inConfig(program, ref.id)[0];
    case 'status': {
      for (const card of program.cards.values()) {
        const i = card.data.status_events.indexOf(ref.id);
        if (i >= 0) return { file: card.file.path, range: safe(() => card.locate(['status_events', i], 'value')) };
      }
      return undefined;
    }
  }
}

/** Every place that names the symbol, the declaration included, in file order. */
export function referencesOf(program: Program, ref: SymbolRef): Place[] {
  const out: Place[] = [];
  const def = definitionOf(program, ref);
  if (def && ref.kind !== 'model' && ref.kind !== 'flag') out.push(def);
  for (const card of program.cards.values()) out.push(...inCard(card, ref), ...(ref.kind === 'card' ? askToolRefs(program, card, ref.id) : []));
  if (ref.kind === 'flag') {
    for (const b of program.blocks.values())
      if (b.data.feature_flag === ref.id) out.push({ file: b.file.path, range: safe(() => b.locate(['feature_flag'], 'value')) });
  }
  if (ref.kind === 'block' || ref.kind === 'model' || ref.kind === 'flag') out.push(...inConfig(program, ref.id));
  return dedupe(out);
}

function inCard(card: Card, ref: SymbolRef): Place[] {
  const d = card.data;
  const lists: [readonly (string | number)[], readonly string[] | undefined][] = [];
  if (ref.kind === 'tool') lists.push([['tools'], d.tools], [['policy', 'tool_whitelist'], d.policy?.tool_whitelist]);
  if (ref.kind === 'block') lists.push([['prompt_blocks'], d.prompt_blocks]);
  if (ref.kind === 'card') lists.push([['sub_agents'], d.sub_agents], [['policy', 'tool_whitelist'], d.policy?.tool_whitelist]);
  if (ref.kind === 'status') lists.push([['status_events'], d.status_events]);
  const out: Place[] = [];
  for (const [path, items] of lists) {
    (items ?? []).forEach((item, i) => {
      if (item === ref.id) out.push({ file: card.file.path, range: safe(() => card.locate([...path, i], 'value')) });
    });
  }
  if (ref.kind === 'model') {
    if (d.model === ref.id) out.push({ file: card.file.path, range: safe(() => card.locate(['model'], 'value')) });
    if (d.fallback_model === ref.id) out.push({ file: card.file.path, range: safe(() => card.locate(['fallback_model'], 'value')) });
  }
  return out;
}

/** Quoted or bare occurrences of the id in the config's text (the config is TypeScript, not YAML). */
function inConfig(program: Program, id: string): Place[] {
  const file = program.config.file;
  if (!file) return [];
  const out: Place[] = [];
  const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(?<![A-Za-z0-9_.:\\-])${escaped}(?![A-Za-z0-9_.:\\-])`, 'g');
  for (const m of file.text.matchAll(re)) out.push({ file: file.path, range: file.rangeAt(m.index, m.index + id.length) });
  return out;
}

function dedupe(places: Place[]): Place[] {
  const seen = new Set<string>();
  return places.filter((p) => {
    const key = `${p.file}:${p.range.start.line}:${p.range.start.column}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `policy.tool_whitelist` entries naming a sub-agent by its tool name (`ask_<id>`): the id part only. */
function askToolRefs(program: Program, card: Card, id: string): Place[] {
  const prefix = program.agents.get(card.data.id)?.dispatch.toolPrefix ?? program.config.data.dispatch.toolPrefix;
  const out: Place[] = [];
  (card.data.policy?.tool_whitelist ?? []).forEach((item, i) => {
    if (item !== `${prefix}${id}`) return;
    const r = safe(() => card.locate(['policy', 'tool_whitelist', i], 'value'));
    // Only when the range is exactly the bare entry (not quoted), so the id part's columns are known.
    if (r.start.line === r.end.line && r.end.column - r.start.column === item.length) {
      out.push({ file: card.file.path, range: { start: { line: r.start.line, column: r.start.column + prefix.length }, end: r.end } });
    }
  });
  return out;
}
