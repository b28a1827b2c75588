/** Parses cards/<id>.yaml into a normalized Card (docs/formats/agent-card.md). */
import type { DiagnosticBag } from '../diagnostics/diagnostic.js';
import { cardPath } from '../load/layout.js';
import type { SourceFile } from '../load/source.js';
import type { Card, CardData, JsonSchema } from './types.js';
import { parseMappingFile } from './mapping-file.js';

/** The handoff a sub-agent takes when its card declares no `input` (docs/formats/agent-card.md). */
export const DEFAULT_INPUT: Record<string, JsonSchema> = {
  query: { type: 'string', description: "The user's request, in their own words." },
  prior_context: { type: 'string', description: 'Summary of earlier turns that this request depends on.' },
};

export function parseCard(file: SourceFile, bag: DiagnosticBag): Card | undefined {
  const m = parseMappingFile(file, bag, {
    format: 'agent-card',
    kind: 'Card',
    idKey: 'id',
    empty: 'cardEmpty',
    notMapping: 'cardNotMapping',
    hint: 'startCard',
    renameTo: (id) => cardPath(id),
  });
  if (!m) return undefined;
  const { raw, ok, valid, stem, id } = m;
  const str = (k: string) => (ok(k) ? (raw[k] as string) : undefined);
  const list = (k: string) => (ok(k) ? (raw[k] as string[]) : []);
  const obj = <T>(k: string, d: T): T => (ok(k) ? (raw[k] as T) : d);
  // Settings records keep their valid entries when one entry is invalid (each entry has its own default).
  const settings = <T>(k: string, d: T): T => (valid(k) as T | undefined) ?? d;

  const explicitInput = ok('input');
  const data: CardData = {
    id,
    description: str('description') ?? '',
    role: (str('role') as CardData['role'] | undefined) ?? 'native',
    owner: str('owner') ?? '',
    model: str('model'),
    fallback_model: str('fallback_model'),
    tools: list('tools'),
    prompt_blocks: list('prompt_blocks'),
    sub_agents: list('sub_agents'),
    tuning: settings('tuning', {}),
    input: explicitInput ? (raw.input as Record<string, JsonSchema>) : DEFAULT_INPUT,
    input_required: ok('input_required') ? list('input_required') : explicitInput ? [] : ['query'],
    output: obj<JsonSchema | undefined>('output', undefined),
    status_events: list('status_events'),
    policy: settings('policy', {}),
    dispatch: settings('dispatch', undefined),
    history: settings('history', undefined),
  };
  if (data.fallback_model === undefined) delete data.fallback_model;
  if (data.model === undefined) delete data.model;
  if (data.output === undefined) delete data.output;
  if (data.dispatch === undefined) delete data.dispatch;
  if (data.history === undefined) delete data.history;
  return { kind: 'card', file, stem, data, explicitInput, find: m.find, locate: m.locate };
}
