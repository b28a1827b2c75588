/**
 * Validates the data of a run script (docs/run-script.md) — YAML parsing is the CLI's —
 * and derives the turn context from it.
 *
 * Invariants: `parseScript` never throws; every problem names its data path
 * (`llm.concierge[0].delay_ms`) so a caller can point at the exact YAML node;
 * an accepted script satisfies the `Script` type exactly (unknown keys are
 * errors, with a did-you-mean).
 */
import { didYouMean } from './did-you-mean.js';
import type { Script } from './scripted-client.js';
import type { TurnContext } from './types.js';

export type ScriptPath = (string | number)[];
export interface ScriptProblem {
  path: ScriptPath;
  message: string;
}
export type ParsedScript = { ok: true; script: Script } | { ok: false; problems: ScriptProblem[] };

const TOP_KEYS = ['llm', 'tools', 'context'];
const REPLY_KEYS = ['delay_ms', 'chunk_ms', 'text', 'tool_calls', 'error', 'status', 'usage'];
const CALL_KEYS = ['id', 'name', 'arguments'];
const TOOL_KEYS = ['delay_ms', 'result', 'throw'];
const USAGE_KEYS = ['inputTokens', 'outputTokens'];

export function parseScript(value: unknown): ParsedScript {
  const problems: ScriptProblem[] = [];
  const bad = (path: ScriptPath, message: string) => void problems.push({ path, message });
  if (!isMap(value)) {
    bad([], 'a script is a mapping with `llm` (and optionally `tools` and `context`)');
    return { ok: false, problems };
  }
  keysOf(value, [], TOP_KEYS, bad);
  if (!isMap(value.llm)) bad(['llm'], 'must be a mapping: agent id → list of replies');
  else {
    for (const [agent, replies] of Object.entries(value.llm)) {
      if (!Array.isArray(replies)) bad(['llm', agent], 'must be a list of replies');
      else replies.forEach((r, i) => checkReply(r, ['llm', agent, i], bad));
    }
  }
  if (value.tools !== undefined) {
    if (!isMap(value.tools)) bad(['tools'], 'must be a mapping: tool name → behaviour');
    else {
      for (const [tool, spec] of Object.entries(value.tools)) {
        if (Array.isArray(spec)) {
          if (spec.length === 0) bad(['tools', tool], 'an empty list gives the tool no behaviour');
          spec.forEach((s, i) => checkTool(s, ['tools', tool, i], bad));
        } else checkTool(spec, ['tools', tool], bad);
      }
    }
  }
  if (value.context !== undefined) {
    if (!isMap(value.context)) bad(['context'], 'must be a mapping of context fields');
    else {
      for (const [field, v] of Object.entries(value.context)) {
        if (field === 'flags') {
          if (!Array.isArray(v) || !v.every((f) => typeof f === 'string')) bad(['context', 'flags'], 'must be a list of flag names');
        } else if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
          bad(['context', field], 'must be a string');
        }
      }
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  const script = value as unknown as Script;
  if (isMap(value.context)) {
    // Scalars are read as strings (YAML reads `date: 2026-11-21` unquoted as text here, but numbers as numbers).
    const ctx: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value.context)) ctx[k] = k === 'flags' ? v : String(v);
    script.context = ctx as Script['context'];
  }
  return { ok: true, script };
}

/** The turn context and flags a script asks for; absent fields get CLI defaults. */
export function scriptTurnContext(script: Script | undefined): { context: TurnContext; flags: string[] } {
  const context: TurnContext = { principal: 'cli-user', episode: 'cli-episode' };
  let flags: string[] = [];
  for (const [k, v] of Object.entries(script?.context ?? {})) {
    if (k === 'flags') flags = Array.isArray(v) ? [...v] : [];
    else if (typeof v === 'string') context[k] = v;
  }
  return { context, flags };
}

function checkReply(r: unknown, path: ScriptPath, bad: (p: ScriptPath, m: string) => void): void {
  if (!isMap(r)) return bad(path, 'a reply is a mapping with `text`, `tool_calls` or `error`');
  keysOf(r, path, REPLY_KEYS, bad);
  checkDelay(r.delay_ms, [...path, 'delay_ms'], bad);
  checkDelay(r.chunk_ms, [...path, 'chunk_ms'], bad);
  if (r.text !== undefined && typeof r.text !== 'string') bad([...path, 'text'], 'must be a string');
  if (r.error !== undefined && typeof r.error !== 'string') bad([...path, 'error'], 'must be a string (the failure, never shown to any model)');
  if (r.error !== undefined && (r.text !== undefined || r.tool_calls !== undefined)) bad([...path, 'error'], 'a failing reply has no `text` or `tool_calls`');
  if (r.error === undefined && r.text === undefined && r.tool_calls === undefined) bad(path, 'a reply needs `text`, `tool_calls` or `error`');
  if (r.status !== undefined && (!Array.isArray(r.status) || !r.status.every((s) => typeof s === 'string'))) {
    bad([...path, 'status'], 'must be a list of status event ids');
  }
  if (r.usage !== undefined) {
    if (!isMap(r.usage)) bad([...path, 'usage'], 'must be a mapping with inputTokens and outputTokens');
    else {
      keysOf(r.usage, [...path, 'usage'], USAGE_KEYS, bad);
      for (const k of USAGE_KEYS) if (r.usage[k] !== undefined && !isCount(r.usage[k])) bad([...path, 'usage', k], 'must be a non-negative integer');
    }
  }
  if (r.tool_calls !== undefined) {
    if (!Array.isArray(r.tool_calls)) return bad([...path, 'tool_calls'], 'must be a list of { name, arguments }');
    r.tool_calls.forEach((c, i) => {
      const at = [...path, 'tool_calls', i];
      if (!isMap(c)) return bad(at, 'a tool call is a mapping { name, arguments }');
      keysOf(c, at, CALL_KEYS, bad);
      if (typeof c.name !== 'string' || c.name === '') bad([...at, 'name'], 'must be the tool name');
      if (c.id !== undefined && typeof c.id !== 'string') bad([...at, 'id'], 'must be a string');
      if (c.arguments !== undefined && typeof c.arguments !== 'string' && !isMap(c.arguments)) {
        bad([...at, 'arguments'], 'must be a mapping (or a string, to script malformed JSON)');
      }
    });
  }
}

function checkTool(s: unknown, path: ScriptPath, bad: (p: ScriptPath, m: string) => void): void {
  if (!isMap(s)) return bad(path, 'a tool behaviour is a mapping with `result` or `throw` (and optionally `delay_ms`)');
  keysOf(s, path, TOOL_KEYS, bad);
  checkDelay(s.delay_ms, [...path, 'delay_ms'], bad);
  if (s.throw !== undefined && typeof s.throw !== 'string') bad([...path, 'throw'], 'must be a string (the error message, never shown to any model)');
  if (s.throw !== undefined && s.result !== undefined) bad([...path, 'throw'], 'a tool either returns `result` or `throw`s, not both');
}

function checkDelay(v: unknown, path: ScriptPath, bad: (p: ScriptPath, m: string) => void): void {
  if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 600_000)) {
    bad(path, 'must be a number of milliseconds between 0 and 600000');
  }
}

function keysOf(obj: Record<string, unknown>, path: ScriptPath, allowed: string[], bad: (p: ScriptPath, m: string) => void): void {
  for (const key of Object.keys(obj)) {
    if (allowed.includes(key)) continue;
    const hint = didYouMean(key, allowed);
    bad([...path, key], `unknown key "${key}"; expected one of ${allowed.join(', ')}.${hint === undefined ? '' : ` ${hint}`}`);
  }
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isCount(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}
