/**
 * One LlmClient for a whole bundle: each request goes to the wire API its model
 * entry names (`api`), or the provider's default.
 *
 * Default API per provider: `openai` → `openai-responses` (the API OpenAI's
 * reasoning models with tools need), `anthropic` → `anthropic-messages`, any
 * other provider → `openai-chat` (the format OpenAI-compatible servers speak).
 *
 * Invariant: one client per API, made on first use; a request never goes to an
 * API other than its model's.
 */
import type { BundleModel, LlmClient, LlmRequest } from '../types.js';
import { createOpenAIClient } from '../openai-client.js';
import { createAnthropicClient } from './anthropic-messages.js';
import type { ProviderClientOptions } from './common.js';
import { createOpenAIResponsesClient } from './openai-responses.js';

export type ModelApi = 'openai-responses' | 'openai-chat' | 'anthropic-messages';

export function modelApi(model: Pick<BundleModel, 'provider' | 'api'>): ModelApi {
  if (model.api !== undefined) return model.api;
  if (model.provider === 'openai') return 'openai-responses';
  if (model.provider === 'anthropic') return 'anthropic-messages';
  return 'openai-chat';
}

/** Which credentials an API uses: the OpenAI ones for both OpenAI APIs. */
export function apiVendor(api: ModelApi): 'openai' | 'anthropic' {
  return api === 'anthropic-messages' ? 'anthropic' : 'openai';
}

export interface ProviderClientsOptions {
  openai: ProviderClientOptions;
  anthropic: ProviderClientOptions;
}

export function createProviderClient(opts: ProviderClientsOptions): LlmClient {
  const clients = new Map<ModelApi, LlmClient>();
  const pick = (req: LlmRequest): LlmClient => {
    const api = modelApi(req.model);
    let client = clients.get(api);
    if (client === undefined) {
      if (api === 'openai-chat') client = createOpenAIClient(opts.openai);
      else if (api === 'openai-responses') client = createOpenAIResponsesClient(opts.openai);
      else client = createAnthropicClient(opts.anthropic);
      clients.set(api, client);
    }
    return client;
  };
  return {
    complete: (req) => pick(req).complete(req),
    stream: (req) => pick(req).stream!(req),
  };
}
