/**
 * Server-sent events of a streamed model reply, as parsed JSON objects.
 *
 * Invariants: events arrive in the order the server sent them, whatever the
 * chunking of the bytes; `data: [DONE]` (OpenAI Chat) ends the stream; data that
 * is not JSON is a protocol error, never skipped silently; reading stops (and
 * the body is cancelled) as soon as the consumer stops or `signal` aborts.
 */
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { LlmProtocolError } from './errors.js';

export interface SseEvent {
  /** The `event:` field ('' when the server sent none). */
  event: string;
  data: Record<string, unknown>;
}

export async function* readSse(res: Response, provider: string): AsyncGenerator<SseEvent> {
  if (res.body === null) throw new LlmProtocolError(`${provider} sent an empty streaming response`);
  const type = res.headers.get('content-type') ?? '';
  if (!type.toLowerCase().includes('text/event-stream')) {
    await res.body.cancel().catch(() => undefined);
    throw new LlmProtocolError(`${provider} answered with ${type === '' ? 'no content type' : `"${type.split(';')[0]}"`}, not an event stream: is the base URL right?`);
  }
  const reader = res.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value.data === '[DONE]') return;
      let data: unknown;
      try {
        data = JSON.parse(value.data);
      } catch {
        throw new LlmProtocolError(`${provider} sent a stream event that is not JSON`);
      }
      if (data === null || typeof data !== 'object' || Array.isArray(data)) {
        throw new LlmProtocolError(`${provider} sent a stream event that is not a JSON object`);
      }
      yield { event: value.event ?? '', data: data as Record<string, unknown> };
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
