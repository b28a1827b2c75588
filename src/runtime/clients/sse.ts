/**
 * Server-sent events of a streamed model reply, as parsed JSON objects.
 *
 * Invariants: events arrive in the order the server sent them, whatever the
 * chunking of the bytes; `data: [DONE]` (OpenAI Chat) ends the stream; data that
 * is not JSON is a protocol error, never skipped silently; reading stops (and
 * the body is cancelled) as soon as the consumer stops or `signal` aborts.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
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
    throw new LlmProtocolError(
      `${provider} answered with ${type === '' ? 'no content type' : `"${type.split(';')[0]}"`}, not an event stream: is the base URL right?`,
    );
  }
  // The parser is fed directly (no TransformStreams): web streams cost more than the parse itself.
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (m) => void pending.push(m) });
  const decoder = new TextDecoder();
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // An event not closed by a blank line when the body ends is dropped, as the SSE spec says.
      parser.feed(done ? decoder.decode() : decoder.decode(value, { stream: true }));
      for (let m = pending.shift(); m !== undefined; m = pending.shift()) {
        if (m.data === '[DONE]') return;
        yield { event: m.event ?? '', data: parseData(m.data, provider) };
      }
      if (done) return;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

function parseData(text: string, provider: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new LlmProtocolError(`${provider} sent a stream event that is not JSON`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new LlmProtocolError(`${provider} sent a stream event that is not a JSON object`);
  }
  return data as Record<string, unknown>;
}
