/**
 * What every provider client shares: options, the cache key, system text,
 * tool shapes, and `complete` built by collecting `stream`.
 *
 * Invariants: the cache key depends only on the agent and its cohort prefix
 * hash (same for every user of a cohort, different across agents and cohorts);
 * `collect` returns exactly what the stream said (text deltas joined, tool calls
 * in emission order, the last usage seen).
 */
import { createHash } from 'node:crypto';
import type { LlmChunk, LlmRequest, LlmResponse, ToolCall, Usage } from '../types.js';
import type { RetryPolicy } from './http.js';

export interface ProviderClientOptions {
  /** Base URL, e.g. https://api.openai.com/v1 or https://api.anthropic.com (no trailing path). */
  baseURL: string;
  apiKey?: string;
  /** A configured fetch (proxies, custom agents, test doubles); default the global fetch. */
  fetch?: typeof fetch;
  /** Extra headers on every request (organization, project, gateway auth…). */
  headers?: Record<string, string>;
  retry?: RetryPolicy;
}

/** `prompt_cache_key` for OpenAI: the agent plus the first 16 hex digits of its cohort prefix hash. */
export function promptCacheKey(req: Pick<LlmRequest, 'agent' | 'system'>): string {
  const sha = req.system.prefixSha256 ?? createHash('sha256').update(req.system.prefix, 'utf8').digest('hex');
  return `agentc:${req.agent.slice(0, 40)}:${sha.slice(0, 16)}`;
}

/** The prefix followed by the suffix (a blank line between, unless the prefix ends a line). */
export function systemText(system: { prefix: string; suffix: string }): string {
  if (system.suffix === '' || system.prefix === '' || system.prefix.endsWith('\n')) return system.prefix + system.suffix;
  return `${system.prefix}\n\n${system.suffix}`;
}

/** The bundle's strict OpenAI tools when the request carries them (aligned with `tools`), else plain function tools. */
export function openaiTools(
  req: LlmRequest,
): { type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown>; strict?: boolean } }[] {
  const strict = req.toolShapes?.openai;
  if (strict !== undefined && strict.length === req.tools.length) return strict;
  return req.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Non-negative finite number, else 0. */
export function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0;
}

/** `complete` for a client that streams: the whole reply, collected. */
export async function collect(chunks: AsyncIterable<LlmChunk>): Promise<LlmResponse> {
  let text = '';
  const toolCalls: ToolCall[] = [];
  let usage: Usage = { inputTokens: 0, outputTokens: 0 };
  const statusEvents: string[] = [];
  for await (const c of chunks) {
    if (c.type === 'text_delta') text += c.delta;
    else if (c.type === 'tool_call') toolCalls.push(c.call);
    else if (c.type === 'usage') usage = c.usage;
    else statusEvents.push(c.event);
  }
  const reply: LlmResponse = { text, toolCalls, usage };
  if (statusEvents.length > 0) reply.statusEvents = statusEvents;
  return reply;
}
