/**
 * Compiled by sdk-types.test.ts with `tsc --strict`: the request bodies the
 * clients send are assignable to the official SDKs' request types. The one
 * cast is the reasoning effort, which the card states as a string and the
 * clients pass through as written.
 */
import type OpenAI from 'openai';
import type Anthropic from '@anthropic-ai/sdk';
import { toChatRequest } from '../../../src/runtime/openai-client.js';
import { toResponsesRequest } from '../../../src/runtime/clients/openai-responses.js';
import { toMessagesRequest } from '../../../src/runtime/clients/anthropic-messages.js';
import type { LlmRequest } from '../../../src/runtime/types.js';

declare const req: LlmRequest;

const chat = toChatRequest(req);
export const chatStreaming: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming = {
  ...chat,
  reasoning_effort: chat.reasoning_effort as OpenAI.ReasoningEffort,
  stream: true,
  stream_options: { include_usage: true },
};
export const chatOnce: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
  ...chat,
  reasoning_effort: chat.reasoning_effort as OpenAI.ReasoningEffort,
  stream: undefined,
  stream_options: undefined,
};

const responses = toResponsesRequest(req);
export const responsesStreaming: OpenAI.Responses.ResponseCreateParamsStreaming = {
  ...responses,
  reasoning: responses.reasoning === undefined ? undefined : { effort: responses.reasoning.effort as OpenAI.ReasoningEffort },
};

export const messagesStreaming: Anthropic.Messages.MessageCreateParamsStreaming = toMessagesRequest(req);
