/**
 * `@agentc/runtime`: the small orchestrator runtime that executes a bundle
 * (docs/runtime.md). The generated `orchestrator.ts` imports exactly these names.
 *
 *   const runtime = createRuntime({ bundle, llm: createOpenAIClient({ baseURL, apiKey }), tools: handlers });
 *   const { text, events, outcomes, trace_id } = await runtime.turn({
 *     agent: 'fetch_assistant', message, context: { principal: userId, episode, locale, location, date },
 *   });
 *
 *   for await (const e of runtime.stream({ agent, message, context })) {
 *     if (e.type === 'text_delta') res.write(e.delta); // the preamble, then the answer, as they arrive
 *   }
 *
 * A turn resolves with the root agent's answer whatever its sub-agents do (their
 * failures are typed tool results the root's model words plainly); it rejects
 * only when the root itself cannot answer (TurnError), when a script has no
 * reply left for the root (ScriptExhaustedError), or on a bad request
 * (RuntimeUsageError).
 */
export { createRuntime } from './runtime.js';
export { loadBundle, loadBundleJson, readBundle, verifyBundle, BundleLoadError, type BundleLoadErrorCode, type LoadBundleOptions } from './load-bundle.js';
export { createMemorySessionStore, type MemoryStoreOptions } from './session.js';
export { openSessionStore } from './sessions/open.js';
export { createSqliteSessionStore } from './sessions/sqlite.js';
export { createRedisSessionStore, type RedisStoreOptions } from './sessions/redis.js';
export { SessionStoreError } from './sessions/driver.js';
export { echoGuard, overlapGuard, verbatimGuard, contentWords } from './guards.js';
export {
  createScriptedClient,
  createScriptedTools,
  ScriptExhaustedError,
  ScriptedModelError,
  type Script,
  type ScriptContext,
  type ScriptReply,
  type ScriptTool,
  type ScriptToolCall,
  type ScriptedClient,
} from './scripted-client.js';
export { parseScript, scriptTurnContext, type ParsedScript, type ScriptProblem, type ScriptPath } from './script.js';
export { createOpenAIClient, LlmHttpError, toChatRequest, fromChatResponse, type OpenAIClientOptions } from './openai-client.js';
export * from './clients/index.js';
export {
  loadTelemetry,
  createTelemetry,
  createSpanIdBridge,
  combineEventListeners,
  type Telemetry,
  type TelemetryOptions,
  type SpanIdBridge,
} from './telemetry.js';
export { createRecordingClient, type CallRecord, type RecordingClient } from './recording.js';
export { createRandomIds, createSequentialIds } from './ids.js';
export { renderAgentSuffix, renderSuffix, SuffixRenderError } from './template.js';
export { selectPrefix } from './cohort.js';
export { costUsd } from './cost.js';
export { TurnError, RuntimeUsageError, type FailureResult } from './failure.js';
export type * from './types.js';
