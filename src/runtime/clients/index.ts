/** The provider clients (OpenAI Chat Completions lives in ../openai-client.ts for compatibility). */
export { createOpenAIResponsesClient, toResponsesRequest } from './openai-responses.js';
export { createAnthropicClient, toMessagesRequest, ANTHROPIC_DEFAULT_MAX_TOKENS } from './anthropic-messages.js';
export { createProviderClient, modelApi, apiVendor, type ModelApi, type ProviderClientsOptions } from './provider.js';
export { promptCacheKey, systemText, collect, type ProviderClientOptions } from './common.js';
export { LlmNetworkError, LlmProtocolError, LlmDeadlineError } from './errors.js';
export { parseRetryAfter, type RetryPolicy } from './http.js';
