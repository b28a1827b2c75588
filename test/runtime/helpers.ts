/** Shared set-up for runtime tests: a runtime over the fixture bundle, a scripted model, a call recorder. */
import type { Bundle } from '../../src/bundle/types.js';
import {
  createRecordingClient,
  createRuntime,
  createScriptedClient,
  createScriptedTools,
  createSequentialIds,
  type CallRecord,
  type LlmClient,
  type RuntimeEvent,
  type RuntimeOptions,
  type Script,
  type ScriptReply,
  type ToolHandler,
  type TurnContext,
} from '../../src/runtime/index.js';
import { makeBundle } from './fixtures/bundle.js';

export const CTX: TurnContext = { principal: 'user-1', episode: 'ep-1', locale: 'en-US', location: 'Rome', date: '2026-11-21' };

export interface SetupOptions {
  bundle?: Bundle;
  llm?: Record<string, ScriptReply[]>;
  client?: LlmClient;
  tools?: Script['tools'];
  handlers?: Record<string, ToolHandler>;
  flags?: string[];
  sessions?: RuntimeOptions['sessions'];
  limits?: RuntimeOptions['limits'];
}

export function setup(opts: SetupOptions = {}) {
  const bundle = opts.bundle ?? makeBundle();
  const rec = createRecordingClient(opts.client ?? createScriptedClient(opts.llm ?? {}));
  const events: RuntimeEvent[] = [];
  const options: RuntimeOptions = {
    bundle,
    llm: rec.client,
    tools: { ...createScriptedTools(opts.tools), ...(opts.handlers ?? {}) },
    onEvent: (e) => events.push(e),
    flags: opts.flags ?? [],
    ids: createSequentialIds('test'),
  };
  if (opts.sessions !== undefined) options.sessions = opts.sessions;
  if (opts.limits !== undefined) options.limits = opts.limits;
  const runtime = createRuntime(options);
  const turn = (message: string, ctx: Partial<TurnContext> = {}, agent = 'concierge', signal?: AbortSignal) => {
    rec.markStart();
    return runtime.turn({ agent, message, context: { ...CTX, ...ctx } as TurnContext, ...(signal ? { signal } : {}) });
  };
  return { bundle, runtime, calls: rec.calls, events, turn };
}

export const ask = (agent: string, args: Record<string, unknown>) => ({ name: `ask_${agent}`, arguments: args });

export const env = (payload: unknown, status: 'ok' | 'partial' | 'error' = 'ok', principal = 'user-1') => ({ status, principal, payload });

/** The calls one agent's model received, in start order. */
export const callsOf = (calls: CallRecord[], agent: string) => calls.filter((c) => c.agent === agent);

/** Tool results (parsed JSON) in a model call's messages, in order. */
export function toolResults(call: CallRecord): { name: string; result: Record<string, unknown> }[] {
  return call.messages.flatMap((m) => (m.role === 'tool' ? [{ name: m.name, result: JSON.parse(m.content) as Record<string, unknown> }] : []));
}

export function routingOf(events: RuntimeEvent[]) {
  const r = events.filter((e) => e.type === 'routing');
  if (r.length !== 1) throw new Error(`expected one routing event, got ${r.length}`);
  return r[0] as Extract<RuntimeEvent, { type: 'routing' }>;
}
