/**
 * A provider mock on 127.0.0.1 (node:http, ephemeral port). Each request is
 * recorded (path, headers, raw body bytes, parsed body, whether the client hung
 * up early) and answered by the test's handler. `sse` writes events in the
 * provider's wire format, split into small chunks with a pause between, so the
 * clients must reassemble deltas, events and even UTF-8 characters.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: any;
  aborted: boolean;
}

export type Handler = (seen: Seen, res: ServerResponse) => void | Promise<void>;

export interface Mock {
  url: string;
  seen: Seen[];
  handle(h: Handler): void;
  close(): Promise<void>;
}

export async function startMock(): Promise<Mock> {
  let handler: Handler = (_s, res) => void res.writeHead(500).end();
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(parts).toString('utf8');
      const record: Seen = { path: req.url ?? '', headers: req.headers, raw, body: raw === '' ? undefined : JSON.parse(raw), aborted: false };
      seen.push(record);
      res.on('close', () => {
        if (!res.writableEnded) record.aborted = true;
      });
      void handler(record, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    handle(h) {
      handler = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** One SSE event: `event:` line when `event` is given (Responses, Anthropic), `data:` JSON or a raw string. */
export interface SseOut {
  event?: string;
  data: unknown;
}

export function sseText(events: SseOut[]): string {
  return events
    .map((e) => `${e.event !== undefined ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`)
    .join('');
}

/** Writes the events as a 200 text/event-stream, `chunk` bytes at a time. */
export async function sse(res: ServerResponse, events: SseOut[], chunk = 7): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const bytes = Buffer.from(sseText(events), 'utf8');
  for (let i = 0; i < bytes.length; i += chunk) {
    if (res.destroyed) return;
    res.write(bytes.subarray(i, i + chunk));
    await new Promise((r) => setImmediate(r));
  }
  res.end();
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
