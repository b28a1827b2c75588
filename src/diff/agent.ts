/**
 * Compares an agent's own settings: role, model and fallback model (by key and by
 * what the key resolves to in the bundle's model registry), tuning, policy,
 * output schema, status events and dynamic suffix.
 *
 * Not compared here, because they reach the model through another agent and are
 * reported there: `description` (the parent's ask_* tool description) and
 * `input` (the parent's ask_* tool parameters).
 */
import { formatInt } from '../diagnostics/format-number.js';
import { makeChange } from './changes.js';
import { asJson, canonicalJson, deepEqual, isObject } from './json.js';
import type { Bundle, BundleAgent } from '../bundle/types.js';
import type { Change } from './types.js';

export function compareAgentSettings(id: string, bundles: { before: Bundle; after: Bundle }, before: BundleAgent, after: BundleAgent): Change[] {
  const changes: Change[] = [];
  if (before.role !== after.role) changes.push(makeChange('role-changed', id, 'role', {}, before.role, after.role));

  const modelBefore = modelLabel(bundles.before, before.model);
  const modelAfter = modelLabel(bundles.after, after.model);
  if (modelBefore !== modelAfter) {
    changes.push(makeChange('model-changed', id, 'model', { before: modelBefore, after: modelAfter }, before.model, after.model));
  } else {
    changes.push(...modelSettings(id, bundles, before.model));
  }
  const fbBefore = before.fallback_model === undefined ? '(none)' : modelLabel(bundles.before, before.fallback_model);
  const fbAfter = after.fallback_model === undefined ? '(none)' : modelLabel(bundles.after, after.fallback_model);
  if (fbBefore !== fbAfter) {
    changes.push(makeChange('fallback-model-changed', id, 'fallback_model', { before: fbBefore, after: fbAfter }, before.fallback_model, after.fallback_model));
  }

  changes.push(...compareFields(id, 'tuning-changed', 'tuning', before.tuning, after.tuning));
  changes.push(...compareFields(id, 'policy-changed', 'policy', before.policy, after.policy));

  if (!deepEqual(before.output, after.output)) {
    changes.push(makeChange('output-schema-changed', id, 'output', {}, asJson(before.output), asJson(after.output)));
  }

  const eventsBefore = new Set(before.status_events);
  const eventsAfter = new Set(after.status_events);
  for (const event of after.status_events) {
    if (!eventsBefore.has(event)) changes.push(makeChange('status-event-added', id, `status_events.${event}`, { event }, undefined, event));
  }
  for (const event of before.status_events) {
    if (!eventsAfter.has(event)) changes.push(makeChange('status-event-removed', id, `status_events.${event}`, { event }, event));
  }

  if (before.suffix_template !== after.suffix_template) {
    changes.push(makeChange('suffix-changed', id, 'suffix_template', {}, before.suffix_template, after.suffix_template));
  }
  return changes;
}

/** `key (provider/model)`: a key now naming another provider model counts as a model change. */
function modelLabel(bundle: Bundle, key: string): string {
  const entry = bundle.models[key];
  return entry === undefined ? key : `${key} (${entry.provider}/${entry.model})`;
}

/** Other registry fields of the same model (context window, tokenizer, capabilities, effort). */
function modelSettings(id: string, bundles: { before: Bundle; after: Bundle }, key: string): Change[] {
  const b = bundles.before.models[key] as unknown as Record<string, unknown> | undefined;
  const a = bundles.after.models[key] as unknown as Record<string, unknown> | undefined;
  if (b === undefined || a === undefined) return [];
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((f) => f !== 'provider' && f !== 'model').sort();
  const changes: Change[] = [];
  for (const field of fields) {
    if (deepEqual(b[field], a[field])) continue;
    changes.push(
      makeChange(
        'model-settings-changed',
        id,
        `model.${field}`,
        { model: key, field, before: show(b[field]), after: show(a[field]) },
        asJson(b[field]),
        asJson(a[field]),
      ),
    );
  }
  return changes;
}

/** One change per differing leaf field (nested objects flattened with dots, arrays compared whole). */
function compareFields(id: string, type: 'tuning-changed' | 'policy-changed', root: string, before: unknown, after: unknown): Change[] {
  const flatBefore = flatten(before);
  const flatAfter = flatten(after);
  const fields = [...new Set([...flatBefore.keys(), ...flatAfter.keys()])].sort();
  const changes: Change[] = [];
  for (const field of fields) {
    const b = flatBefore.get(field);
    const a = flatAfter.get(field);
    if (deepEqual(b, a)) continue;
    changes.push(makeChange(type, id, `${root}.${field}`, { field, before: show(b), after: show(a) }, asJson(b), asJson(a)));
  }
  return changes;
}

function flatten(value: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (!isObject(value)) return out;
  for (const [key, child] of Object.entries(value)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (isObject(child)) flatten(child, path, out);
    else if (child !== undefined) out.set(path, child);
  }
  return out;
}

function show(value: unknown): string {
  return value === undefined ? '(none)' : typeof value === 'number' ? formatInt(value) : canonicalJson(value);
}
