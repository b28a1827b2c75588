/**
 * Completion from the text left of the cursor: which list or key the cursor is in
 * decides which ids are offered. Ids come from the last compiled program.
 */
import { CompletionItemKind, type CompletionItem } from 'vscode-languageserver';
import { buildContextShape, fieldNames, type Shape } from '../resolve/context.js';
import { sourceKindOf } from '../load/layout.js';
import type { Program } from '../resolve/types.js';

const CARD_FIELDS = [
  'id',
  'description',
  'role',
  'owner',
  'model',
  'fallback_model',
  'tools',
  'prompt_blocks',
  'sub_agents',
  'tuning',
  'input',
  'input_required',
  'output',
  'status_events',
  'policy',
  'dispatch',
];
const BLOCK_FIELDS = ['id', 'category', 'owner', 'reusable', 'feature_flag', 'max_tokens'];

/** The key whose value the cursor is in: `key: [a, |` or `key: |` on the line, or a `- |` item under `key:`. */
export function keyAt(lines: readonly string[], line: number, character: number): string | undefined {
  const before = (lines[line] ?? '').slice(0, character);
  const inline = /^\s*([A-Za-z_]+)\s*:\s*(\[[^\]]*)?[^\]:]*$/.exec(before);
  if (inline) return inline[1];
  // A key being typed in a nested mapping (`status_rendering:` entries) belongs to its parent key.
  const item = /^(\s*)-\s*[^:]*$/.exec(before) ?? /^(\s+)[\w-]*$/.exec(before);
  if (!item) return undefined;
  const indent = item[1]!.length;
  for (let i = line - 1; i >= 0; i--) {
    const m = /^(\s*)([A-Za-z_]+)\s*:\s*$/.exec(lines[i] ?? '');
    if (m && m[1]!.length <= indent) return m[2];
    if (/^\S/.test(lines[i] ?? '') && !m) return undefined;
  }
  return undefined;
}

export function completions(program: Program, file: string, text: string, line: number, character: number): CompletionItem[] {
  const lines = text.split('\n');
  const before = (lines[line] ?? '').slice(0, character);
  const ids = (names: Iterable<string>, kind: CompletionItemKind, detail: string): CompletionItem[] =>
    [...names].sort().map((label) => ({ label, kind, detail }));
  const expr = /\{\{[#/^>~\s]*(?:\w+\s+)?([\w.@]*)$/.exec(before);
  const kind = sourceKindOf(file, program.layout);
  if (kind === 'block' && expr) return templateFields(program, expr[1]!);
  const key = keyAt(lines, line, character);
  switch (key) {
    case 'tools':
      return ids(program.tools.keys(), CompletionItemKind.Function, 'tool');
    case 'prompt_blocks':
      return ids(program.blocks.keys(), CompletionItemKind.Module, 'block');
    case 'sub_agents':
      return ids(program.cards.keys(), CompletionItemKind.Class, 'agent');
    case 'tool_whitelist':
      return ids([...program.tools.keys(), ...program.cards.keys()], CompletionItemKind.Function, 'tool or agent');
    case 'model':
    case 'fallback_model':
      return ids(Object.keys(program.config.data.models), CompletionItemKind.Value, 'model (agentc.config.ts)');
    case 'status_rendering': {
      const card = [...program.cards.values()].find((c) => c.file.path === file);
      // A half-typed key may leave the card unparsed: then every agent's events are offered.
      const sources = card ? card.data.sub_agents.flatMap((id) => program.cards.get(id) ?? []) : [...program.cards.values()];
      const events = sources.flatMap((c) => c.data.status_events);
      return ids(new Set(events), CompletionItemKind.EnumMember, 'status event of a sub-agent');
    }
    case 'feature_flag':
      return ids(program.config.data.flags, CompletionItemKind.Constant, 'feature flag');
  }
  if (/^\w*$/.test(before)) {
    if (kind === 'card') return ids(CARD_FIELDS, CompletionItemKind.Field, 'card field');
    if (kind === 'block') return ids(BLOCK_FIELDS, CompletionItemKind.Field, 'front-matter field');
  }
  return [];
}

/** Fields of the compile-time context below the dotted path typed so far (`agent.po` → agent's fields). */
function templateFields(program: Program, typed: string): CompletionItem[] {
  const parts = typed.split('.').slice(0, -1);
  let shape: Shape | undefined = buildContextShape({ flags: program.config.data.flags });
  for (const p of parts) shape = shape?.kind === 'object' ? shape.fields[p] : shape?.kind === 'array' ? shape.element : undefined;
  const names = shape ? fieldNames(shape) : [];
  const dynamic = parts.length === 0 ? program.config.data.dynamicContext.fields : [];
  return [
    ...names.map((label) => ({ label, kind: CompletionItemKind.Variable, detail: 'compile-time context' })),
    ...[...dynamic].sort().map((label) => ({ label, kind: CompletionItemKind.Variable, detail: 'per-request field (config.dynamicContext)' })),
  ];
}
