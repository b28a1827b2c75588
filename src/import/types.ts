/**
 * The neutral shape every importer produces, before ids are normalized and files
 * written. Invariant: an importer records every source field it does not carry
 * over as a `Dropped` entry of the file it came from — nothing is lost silently.
 */
export type ImportFormat = 'claude-code' | 'cagent' | 'adk' | 'fast-agent' | 'openai-agents-ts';

export const IMPORT_FORMATS: readonly ImportFormat[] = ['claude-code', 'cagent', 'adk', 'fast-agent', 'openai-agents-ts'];

export type JsonSchema = Record<string, unknown>;

export interface ImportedTool {
  /** The tool's name in the source. */
  name: string;
  description?: string;
  /** JSON Schema of the arguments; absent when the source only names the tool (a placeholder contract is written). */
  parameters?: JsonSchema;
  /** Source file that declares (or first names) the tool. */
  file: string;
}

export interface ImportedAgent {
  /** A key unique within the import (e.g. the source name, or file + name). */
  key: string;
  /** The agent's name in the source (normalized into the card id). */
  name: string;
  file: string;
  description?: string;
  /** Instructions exactly as the source has them. */
  instructions?: string;
  /** Model name as the source writes it. */
  model?: string;
  /** Source names of tools (keys into ImportSource.tools). */
  tools: string[];
  /** Keys of sub-agents / handoff targets, in source order. */
  subAgents: string[];
  /** JSON Schema of a structured result, when the source declares one statically. */
  output?: JsonSchema;
  /** The source's output-token limit (→ tuning.max_output_tokens). */
  maxOutputTokens?: number;
}

/** A positive whole number, or undefined. */
export function positiveInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;
}

/**
 * Reads the output-token limit `key` of a settings mapping; every other key of it
 * is reported as dropped under `field`.
 */
export function takeMaxTokens(src: ImportSource, file: string, field: string, settings: unknown, key: string): number | undefined {
  if (!isRecord(settings)) {
    if (settings !== undefined) src.dropped.push({ file, field, reason: 'not a mapping' });
    return undefined;
  }
  const max = positiveInt(settings[key]);
  for (const k of Object.keys(settings).sort()) {
    if (k === key && max !== undefined) continue;
    src.dropped.push({ file, field: `${field}.${k}`, reason: k === key ? 'not a positive whole number' : 'a sampling setting with no agentc equivalent' });
  }
  return max;
}

export interface Dropped {
  file: string;
  /** Where in the source: `field` or `agent.field`. */
  field: string;
  reason: string;
}

export interface Problem {
  file: string;
  message: string;
}

export interface ImportSource {
  agents: ImportedAgent[];
  tools: ImportedTool[];
  dropped: Dropped[];
  /** Inputs that could not be read at all (unreadable file, invalid YAML…). */
  problems: Problem[];
  /** Files met while walking a directory that are not agents of the format (e.g. a README): reported, not failures. */
  skipped: Problem[];
  /** Files read, in reading order (workspace-relative or as given). */
  files: string[];
}

export function emptySource(): ImportSource {
  return { agents: [], tools: [], dropped: [], problems: [], skipped: [], files: [] };
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A key no other agent of `src` has: the name, else `file#name`. */
export function uniqueKey(src: ImportSource, name: string, file: string): string {
  const taken = (k: string) => src.agents.some((a) => a.key === k);
  if (!taken(name)) return name;
  let key = `${file}#${name}`;
  for (let n = 2; taken(key); n++) key = `${file}#${name}#${n}`;
  return key;
}

/** A string field's value; any other type is reported as dropped (undefined/null: absent). */
export function stringField(src: ImportSource, file: string, field: string, v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  src.dropped.push({ file, field, reason: `not a string (${Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a mapping' : typeof v})` });
  return undefined;
}
