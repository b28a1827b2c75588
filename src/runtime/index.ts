/**
 * `agentc/runtime`: the small orchestrator runtime that executes a bundle.
 * The generated `orchestrator.ts` imports exactly these names.
 */
export { createRuntime } from './runtime.js';
export { createMemorySessionStore } from './session.js';
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
export { createRecordingClient, type CallRecord, type RecordingClient } from './recording.js';
export { createRandomIds, createSequentialIds } from './ids.js';
export { renderSuffix } from './template.js';
export { selectPrefix } from './cohort.js';
export { TurnError, RuntimeUsageError, type FailureResult } from './failure.js';
export type * from './types.js';
