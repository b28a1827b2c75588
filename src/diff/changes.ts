/**
 * The change catalog of `agentc diff`: every change type with its level and its
 * message template, as src/diagnostics/catalog.ts is for diagnostics. Messages are
 * built only from structured data: `{key}` is replaced by `data[key]`.
 *
 * Classification (buf-like: removing or tightening what a caller relies on is
 * breaking; anything that alters text the model reads, or runtime behaviour a
 * reviewer must judge, is dangerous; pure, compatible additions are safe).
 * "Caller" here is both the model that emits tool calls and the service that
 * implements the handlers / consumes the events, i.e. generated/bundle.ts users.
 *
 * | type                          | level     | why                                                              |
 * |-------------------------------|-----------|------------------------------------------------------------------|
 * | agent-removed                 | breaking  | services and orchestrators that run it lose it                   |
 * | agent-added                   | safe      | nothing relied on it; its use shows as sub-agent-added elsewhere |
 * | role-changed                  | dangerous | changes how checks and the runtime treat the agent               |
 * | model-changed                 | dangerous | different model reads the same prompt (key or provider model)   |
 * | model-settings-changed        | dangerous | context window, tokenizer, capabilities or effort changed        |
 * | fallback-model-changed        | dangerous | what runs when the primary fails (added/removed included)        |
 * | tuning-changed                | dangerous | output length / effort / verbosity of every answer               |
 * | policy-changed                | dangerous | budgets and limits decide when a run fails                       |
 * | output-schema-changed         | dangerous | the structured result a parent reads                             |
 * | status-event-removed          | breaking  | a UI listening for the event never gets it again                 |
 * | status-event-added            | safe      | new event; dropped until rendered                                |
 * | suffix-changed                | dangerous | per-request text the model reads                                 |
 * | prompt-changed                | dangerous | prompt text; lists token delta and lost prompt-cache cohorts     |
 * | cohort-added / cohort-removed | dangerous | flag-gated users get a different prefix                          |
 * | block-added / block-removed   | dangerous | prompt text                                                      |
 * | blocks-reordered              | dangerous | same blocks, different order (default cohort): changes emphasis  |
 * | tool-removed                  | breaking  | the model's calls to it fail; its handler is orphaned            |
 * | tool-added                    | dangerous | new model-visible text and a new handler to implement            |
 * | tools-reordered               | dangerous | same tools, different order in what the model reads              |
 * | tool-description-changed      | dangerous | prompt text (the model routes on it)                             |
 * | tool-envelope-changed         | dangerous | result checks (principal, status) switch on or off               |
 * | parameter-removed             | breaking  | handlers that read it get nothing                                |
 * | parameter-added-required      | breaking  | existing calls (and few-shot examples) no longer validate        |
 * | parameter-made-required       | breaking  | optional → required: as above                                    |
 * | type-changed                  | breaking  | values of the old type no longer validate / handlers misread     |
 * | enum-value-removed            | breaking  | a value callers send is now rejected                             |
 * | constraint-tightened          | breaking  | min/max/length/pattern added or narrowed, additionalProperties off |
 * | parameter-added-optional      | safe      | old calls still validate; handlers see it as possibly absent     |
 * | parameter-made-optional       | dangerous | required → optional: no call breaks, but a handler that relied  |
 * |                               |           | on the value being present may now receive none (bundle.ts types |
 * |                               |           | change to `x?:`), so a reviewer must look                        |
 * | parameter-description-changed | dangerous | prompt text                                                      |
 * | enum-value-added              | dangerous | the model may send a value handlers do not know                  |
 * | default-changed               | dangerous | behaviour of calls that omit it (default added/removed included) |
 * | constraint-loosened           | safe      | every old value still validates                                  |
 * | constraint-changed            | dangerous | a pattern/format change: neither wider nor narrower for sure     |
 * | schema-changed                | dangerous | any other schema keyword (anyOf, const…): compared as a whole    |
 * | sub-agent-removed             | breaking  | the orchestrator can no longer route that intent                 |
 * | sub-agent-added               | dangerous | a new ask_* tool the model reads and routes to                   |
 * | fan-out-cap-changed           | dangerous | how many calls of a mixed-intent turn run                        |
 * | intent-count-failsafe-changed | dangerous | retry for missing calls on/off (its intent_count parameter is   |
 * |                               |           | reported by this change, not per ask_* tool)                     |
 * | dispatch-stream-changed       | dangerous | relay ↔ compose: who writes what the user reads                 |
 * | status-rendering-removed      | dangerous | the event is no longer shown to the user                         |
 * | status-rendering-changed      | dangerous | user-visible text (or suppress) changed                          |
 * | status-rendering-added        | safe      | an event that was dropped is now shown                           |
 */
import { formatInt } from '../diagnostics/format-number.js';
import type { Change, ChangeLevel, ChangeType, JsonValue } from './types.js';

export interface ChangeEntry {
  readonly level: ChangeLevel;
  /** `{key}` placeholders are filled from the change's data. */
  readonly message: string;
}

export const CHANGE_CATALOG: Readonly<Record<ChangeType, ChangeEntry>> = {
  'agent-added': { level: 'safe', message: 'Agent "{agent}" added ({tokens} prompt tokens).' },
  'agent-removed': { level: 'breaking', message: 'Agent "{agent}" removed.' },
  'role-changed': { level: 'dangerous', message: 'Role of "{agent}" changed from {before} to {after}.' },
  'model-changed': { level: 'dangerous', message: 'Model of "{agent}" changed from {before} to {after}.' },
  'model-settings-changed': { level: 'dangerous', message: 'Model "{model}" of "{agent}" changed its {field} from {before} to {after}.' },
  'fallback-model-changed': { level: 'dangerous', message: 'Fallback model of "{agent}" changed from {before} to {after}.' },
  'tuning-changed': { level: 'dangerous', message: 'Tuning of "{agent}": {field} changed from {before} to {after}.' },
  'policy-changed': { level: 'dangerous', message: 'Policy of "{agent}": {field} changed from {before} to {after}.' },
  'output-schema-changed': { level: 'dangerous', message: 'Output schema of "{agent}" changed.' },
  'status-event-added': { level: 'safe', message: '"{agent}" can now emit status event "{event}".' },
  'status-event-removed': { level: 'breaking', message: '"{agent}" no longer emits status event "{event}"; listeners for it stop receiving it.' },
  'suffix-changed': { level: 'dangerous', message: 'Dynamic-context suffix template of "{agent}" changed.' },

  'prompt-changed': { level: 'dangerous', message: 'Prompt of "{agent}" changed in {cohorts}; prompt cache lost for {cacheCount}.' },
  'cohort-added': {
    level: 'dangerous',
    message: 'Prompt cohort "{cohort}" of "{agent}" added: {tokens} tokens, {delta} tokens against the default prompt those users got before.',
  },
  'cohort-removed': {
    level: 'dangerous',
    message: 'Prompt cohort "{cohort}" of "{agent}" removed; users with those flags now get the default prompt ({delta} tokens).',
  },
  'block-added': { level: 'dangerous', message: 'Block "{block}" added to the prompt of "{agent}"{where}.' },
  'block-removed': { level: 'dangerous', message: 'Block "{block}" removed from the prompt of "{agent}"{where}.' },
  'blocks-reordered': { level: 'dangerous', message: 'Blocks of "{agent}" reordered: {before} → {after}.' },

  'tool-added': { level: 'dangerous', message: 'Tool "{tool}" added to "{agent}".' },
  'tool-removed': { level: 'breaking', message: 'Tool "{tool}" removed from "{agent}".' },
  'tools-reordered': { level: 'dangerous', message: 'Tools of "{agent}" reordered: {before} → {after}.' },
  'tool-description-changed': { level: 'dangerous', message: 'Description of tool "{tool}" of "{agent}" changed (the model reads it).' },
  'tool-envelope-changed': {
    level: 'dangerous',
    message: 'Tool "{tool}" of "{agent}" changed envelope from {before} to {after} (result status and principal checks).',
  },
  'parameter-added-optional': { level: 'safe', message: 'Optional parameter "{param}" added to tool "{tool}" of "{agent}".' },
  'parameter-added-required': {
    level: 'breaking',
    message: 'Required parameter "{param}" added to tool "{tool}" of "{agent}"; calls without it no longer validate.',
  },
  'parameter-removed': { level: 'breaking', message: 'Parameter "{param}" removed from tool "{tool}" of "{agent}".' },
  'parameter-description-changed': {
    level: 'dangerous',
    message: 'Description of parameter "{param}" of tool "{tool}" of "{agent}" changed (the model reads it).',
  },
  'parameter-made-required': { level: 'breaking', message: 'Parameter "{param}" of tool "{tool}" of "{agent}" changed from optional to required.' },
  'parameter-made-optional': {
    level: 'dangerous',
    message: 'Parameter "{param}" of tool "{tool}" of "{agent}" changed from required to optional; its handler may now receive no value.',
  },
  'type-changed': { level: 'breaking', message: 'Type of "{param}" in tool "{tool}" of "{agent}" changed from {before} to {after}.' },
  'enum-value-added': { level: 'dangerous', message: 'Value {value} added to the enum of "{param}" in tool "{tool}" of "{agent}".' },
  'enum-value-removed': { level: 'breaking', message: 'Value {value} removed from the enum of "{param}" in tool "{tool}" of "{agent}".' },
  'default-changed': { level: 'dangerous', message: 'Default of "{param}" in tool "{tool}" of "{agent}" changed from {before} to {after}.' },
  'constraint-tightened': { level: 'breaking', message: '{keyword} of "{param}" in tool "{tool}" of "{agent}" tightened from {before} to {after}.' },
  'constraint-loosened': { level: 'safe', message: '{keyword} of "{param}" in tool "{tool}" of "{agent}" loosened from {before} to {after}.' },
  'constraint-changed': { level: 'dangerous', message: '{keyword} of "{param}" in tool "{tool}" of "{agent}" changed from {before} to {after}.' },
  'schema-changed': { level: 'dangerous', message: 'Schema keyword {keyword} of "{param}" in tool "{tool}" of "{agent}" changed.' },

  'sub-agent-added': { level: 'dangerous', message: 'Sub-agent "{sub}" added to "{agent}" as tool "{tool}".' },
  'sub-agent-removed': { level: 'breaking', message: 'Sub-agent "{sub}" removed from "{agent}" (tool "{tool}" is gone).' },
  'fan-out-cap-changed': { level: 'dangerous', message: 'Fan-out cap of "{agent}" changed from {before} to {after}.' },
  'intent-count-failsafe-changed': { level: 'dangerous', message: 'intent_count failsafe of "{agent}" turned {after}.' },
  'dispatch-stream-changed': {
    level: 'dangerous',
    message: 'Streaming of "{agent}" changed from {before} to {after}: in relay mode its specialists answer the user directly.',
  },
  'status-rendering-added': { level: 'safe', message: 'Status event "{event}" of "{agent}" is now rendered as {after}.' },
  'status-rendering-removed': { level: 'dangerous', message: 'Status event "{event}" of "{agent}" is no longer rendered (was {before}).' },
  'status-rendering-changed': { level: 'dangerous', message: 'Rendering of status event "{event}" of "{agent}" changed from {before} to {after}.' },
};

export type ChangeData = Record<string, string | number>;

/** Fill `{key}` placeholders (numbers as "8,000"); a missing key is an agentc bug. */
export function formatChangeMessage(template: string, data: ChangeData): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = data[key];
    if (value === undefined) throw new Error(`agentc bug: change message placeholder {${key}} has no data`);
    return typeof value === 'number' ? formatInt(value) : String(value);
  });
}

/**
 * Build a change from its catalog entry. `data.agent` is filled from `agent`;
 * `before`/`after` are also available to the template (as display strings, via
 * `display`) unless `data` overrides them.
 */
export function makeChange(type: ChangeType, agent: string, path: string, data: ChangeData = {}, before?: JsonValue, after?: JsonValue): Change {
  const entry = CHANGE_CATALOG[type];
  const filled: ChangeData = { before: display(before), after: display(after), ...data, agent };
  const change: Change = { level: entry.level, type, agent, path, message: formatChangeMessage(entry.message, filled) };
  if (before !== undefined) change.before = before;
  if (after !== undefined) change.after = after;
  return change;
}

/** How a value appears in a message: strings quoted, absent as (none), JSON otherwise. */
export function display(value: JsonValue | undefined): string {
  if (value === undefined) return '(none)';
  return typeof value === 'number' ? formatInt(value) : JSON.stringify(value);
}
