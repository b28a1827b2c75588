/**
 * `agentc eval --seed`: which wire APIs carry it. Chat Completions has a `seed`
 * field; the Responses and Anthropic Messages APIs have none, so their request
 * bodies leave it out (docs/eval.md#seeds). Whether the Chat body reaches a
 * server is tested end to end in eval-full.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { toChatRequest, toMessagesRequest, toResponsesRequest, type LlmRequest } from '../../src/runtime/index.js';
import { cacheKey } from '../../src/eval/run.js';

function request(seed?: number): LlmRequest {
  return {
    agent: 'router',
    model: {
      id: 'm',
      provider: 'openai',
      model: 'gpt-4.1-mini',
      contextWindow: 128_000,
      encoding: 'o200k_base',
      tools: true,
      parallelToolCalls: true,
    } as LlmRequest['model'],
    system: { prefix: 'You route.', suffix: '' },
    messages: [{ role: 'user', content: 'points?' }],
    tools: [],
    parallelToolCalls: false,
    signal: new AbortController().signal,
    ...(seed !== undefined ? { seed } : {}),
  };
}

describe('--seed on the wire', () => {
  it('is sent by Chat Completions only', () => {
    expect(toChatRequest(request(42)).seed).toBe(42);
    expect('seed' in toChatRequest(request())).toBe(false);
    expect('seed' in toResponsesRequest(request(42))).toBe(false);
    expect('seed' in toMessagesRequest({ ...request(42), model: { ...request().model, provider: 'anthropic', model: 'claude-haiku-4-5' } })).toBe(false);
  });

  it('is part of the results-cache key', () => {
    expect(cacheKey(request(), 0, 1)).not.toBe(cacheKey(request(), 0, 2));
    expect(cacheKey(request(), 0, undefined)).not.toBe(cacheKey(request(), 0, 1));
    expect(cacheKey(request(), 0, 7)).toBe(cacheKey(request(), 0, 7));
  });
});
