/**
 * The scripted LLM client and tool handlers (docs/run-script.md): replays a turn exactly.
 *
 * Invariants: each agent's replies are consumed strictly in order, one per
 * model call — including the fallback retry and the intent-count retry, which
 * are model calls like any other; running out of replies throws a
 * ScriptExhaustedError naming the agent; a delay honours the request's abort
 * signal; tool-call ids are `call_<agent>_<n>` (n counts per agent), so replays
 * are byte-identical. Streamed, a reply is: its status events, then its text
 * word by word (each word with the whitespace after it; `delay_ms` before the
 * first chunk, `chunk_ms` between words), then its tool calls, then its usage —
 * the concatenated deltas equal `text` exactly.
 */
import { sleep } from './deadline.js';
import type { LlmChunk, LlmClient, LlmRequest, LlmResponse, ToolCall, ToolHandler, Usage } from './types.js';

export interface ScriptToolCall {
  id?: string;
  name: string;
  /** An object (serialized as JSON) or a raw string (to script malformed JSON). */
  arguments?: Record<string, unknown> | string;
}

export interface ScriptReply {
  delay_ms?: number;
  /** Streaming: milliseconds between two words of `text` (default 0). */
  chunk_ms?: number;
  text?: string;
  tool_calls?: ScriptToolCall[];
  /** The model call itself fails (after `delay_ms`). */
  error?: string;
  /** Typed status events the agent reports with this reply. */
  status?: string[];
  usage?: Partial<Usage>;
}

export interface ScriptTool {
  delay_ms?: number;
  result?: unknown;
  /** The handler throws an Error with this message. */
  throw?: string;
}

export interface ScriptContext {
  principal?: string;
  episode?: string;
  flags?: string[];
  [field: string]: string | string[] | undefined;
}

export interface Script {
  /** Per agent id: the model's replies, consumed in order. */
  llm: Record<string, ScriptReply[]>;
  /** Per tool: one behaviour for every call, or a list consumed in order (the last repeats). */
  tools?: Record<string, ScriptTool | ScriptTool[]>;
  context?: ScriptContext;
}

export class ScriptExhaustedError extends Error {
  readonly code = 'AGENTC_SCRIPT_EXHAUSTED';
  constructor(
    readonly agent: string,
    readonly available: number,
  ) {
    super(
      `The script has no reply left for agent "${agent}": model call ${available + 1} was made but llm.${agent} has ${available} ${available === 1 ? 'reply' : 'replies'}.`,
    );
    this.name = 'ScriptExhaustedError';
  }
}

/** A scripted `error:` reply. Its message is the script's text; the runtime never forwards it. */
export class ScriptedModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptedModelError';
  }
}

export interface ScriptedClient extends LlmClient {
  /** Replies not consumed yet, per agent. */
  remaining(): Record<string, number>;
}

/** Accepts a whole Script or just its `llm` map. */
export function createScriptedClient(script: Script | Record<string, ScriptReply[]>): ScriptedClient {
  const llm = isWholeScript(script) ? script.llm : script;
  const next = new Map<string, number>();
  const callIds = new Map<string, number>();
  /** Takes the agent's next reply (or throws ScriptExhaustedError). */
  const take = (req: LlmRequest): ScriptReply => {
    const replies = Object.prototype.hasOwnProperty.call(llm, req.agent) ? llm[req.agent] : [];
    const index = next.get(req.agent) ?? 0;
    if (index >= replies.length) throw new ScriptExhaustedError(req.agent, replies.length);
    next.set(req.agent, index + 1);
    return replies[index];
  };
  const toolCallsOf = (req: LlmRequest, reply: ScriptReply): ToolCall[] =>
    (reply.tool_calls ?? []).map((c) => {
      const n = (callIds.get(req.agent) ?? 0) + 1;
      callIds.set(req.agent, n);
      return {
        id: c.id ?? `call_${req.agent}_${n}`,
        name: c.name,
        arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
      };
    });
  const usageOf = (reply: ScriptReply): Usage => ({ inputTokens: reply.usage?.inputTokens ?? 0, outputTokens: reply.usage?.outputTokens ?? 0 });
  return {
    async complete(req): Promise<LlmResponse> {
      const reply = take(req);
      await sleep(reply.delay_ms ?? 0, req.signal);
      if (reply.error !== undefined) throw new ScriptedModelError(reply.error);
      const response: LlmResponse = { text: reply.text ?? '', toolCalls: toolCallsOf(req, reply), usage: usageOf(reply) };
      if (reply.status !== undefined) response.statusEvents = [...reply.status];
      return response;
    },
    async *stream(req): AsyncGenerator<LlmChunk> {
      const reply = take(req);
      await sleep(reply.delay_ms ?? 0, req.signal);
      if (reply.error !== undefined) throw new ScriptedModelError(reply.error);
      for (const event of reply.status ?? []) yield { type: 'status', event };
      const words = splitWords(reply.text ?? '');
      for (let i = 0; i < words.length; i++) {
        if (i > 0) await sleep(reply.chunk_ms ?? 0, req.signal);
        yield { type: 'text_delta', delta: words[i] };
      }
      for (const call of toolCallsOf(req, reply)) yield { type: 'tool_call', call };
      yield { type: 'usage', usage: usageOf(reply) };
    },
    remaining() {
      const out: Record<string, number> = {};
      for (const agent of Object.keys(llm).sort()) out[agent] = llm[agent].length - (next.get(agent) ?? 0);
      return out;
    },
  };
}

/** Tool handlers that replay `script.tools`. */
export function createScriptedTools(tools: Script['tools']): Record<string, ToolHandler> {
  const handlers: Record<string, ToolHandler> = {};
  for (const [name, spec] of Object.entries(tools ?? {})) {
    const list = Array.isArray(spec) ? spec : [spec];
    let calls = 0;
    handlers[name] = async (_args, ctx) => {
      const entry = list[Math.min(calls++, list.length - 1)] ?? {};
      await sleep(entry.delay_ms ?? 0, ctx.signal);
      if (entry.throw !== undefined) throw new Error(entry.throw);
      return entry.result === undefined ? undefined : structuredClone(entry.result);
    };
  }
  return handlers;
}

/** Words with their trailing whitespace (leading whitespace stays with the first word); joined, they are `text`. */
export function splitWords(text: string): string[] {
  return text === '' ? [] : (text.match(/^\s*\S+\s*|\S+\s*/g) ?? [text]);
}

function isWholeScript(s: Script | Record<string, ScriptReply[]>): s is Script {
  const llm = (s as { llm?: unknown }).llm;
  return llm !== undefined && llm !== null && typeof llm === 'object' && !Array.isArray(llm);
}
