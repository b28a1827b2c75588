/**
 * A client for a wire API that always streams: each request is one POST (with the
 * shared retry and deadline handling of ./http.ts) whose event stream becomes
 * LlmChunks; `complete` collects the same stream. The Responses and Messages
 * clients differ only in their request body and their event parser.
 */
import type { LlmChunk, LlmClient, LlmRequest } from '../types.js';
import { collect, type ProviderClientOptions } from './common.js';
import { postWithRetry } from './http.js';

export interface StreamingWire {
  url: string;
  headers: Record<string, string>;
  /** The provider's name in errors and retries. */
  provider: string;
  body(req: LlmRequest): unknown;
  chunks(res: Response): AsyncIterable<LlmChunk>;
}

export function streamingClient(opts: Pick<ProviderClientOptions, 'fetch' | 'retry'>, wire: StreamingWire): LlmClient {
  const doFetch = opts.fetch ?? fetch;
  const client: LlmClient = {
    complete: (req) => collect(client.stream!(req)),
    async *stream(req) {
      const { res } = await postWithRetry({
        fetch: doFetch,
        url: wire.url,
        headers: wire.headers,
        body: JSON.stringify(wire.body(req)),
        signal: req.signal,
        ...(req.deadline !== undefined ? { deadline: req.deadline } : {}),
        ...(opts.retry ? { retry: opts.retry } : {}),
        provider: wire.provider,
      });
      yield* wire.chunks(res);
    },
  };
  return client;
}
