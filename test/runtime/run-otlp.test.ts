/**
 * `agentc run` exports the turn's spans to an OTLP/HTTP receiver (a node http
 * server on 127.0.0.1) when OTEL_EXPORTER_OTLP_ENDPOINT is set, in http/json
 * and http/protobuf; the exported ids are the routing event's.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { runCommand } from '../../src/cli/commands/run.js';
import type { CliIO } from '../../src/cli/io.js';
import type { RoutingEvent, RuntimeEvent } from '../../src/runtime/index.js';
import { sharedCompileCache } from '../helpers/shared-config.js';

/** Runs reuse the repo's evaluated config (test/helpers/shared-config.ts). */
const compileCache = sharedCompileCache();

const REPO = resolve(import.meta.dirname, '../..');
const SCRIPT = join(import.meta.dirname, 'fixtures/scripts/points-and-products.yaml');

let received: { path: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
let endpoint = '';
const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (c: Buffer) => parts.push(c));
  req.on('end', () => {
    received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(parts) });
    const json = (req.headers['content-type'] ?? '').includes('json');
    res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
    res.end(json ? '{}' : '');
  });
});
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  received = [];
});

async function run(env: Record<string, string>) {
  const out = { stdout: '', stderr: '' };
  const io: CliIO = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), cwd: REPO, env, isTTY: false, compileCache };
  const code = await runCommand({ agent: 'fetch_assistant', message: 'points and cold brew?', format: 'json', cwd: REPO, script: SCRIPT }, io);
  const events = (JSON.parse(out.stdout) as { events: RuntimeEvent[] }).events;
  return { code, stderr: out.stderr, routing: events.find((e): e is RoutingEvent => e.type === 'routing')! };
}

test('http/json: spans with the routing event’s trace and span ids, GenAI attributes, service name', async () => {
  const r = await run({
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_SERVICE_NAME: 'fetch-assistant',
    OTEL_EXPORTER_OTLP_HEADERS: 'x-team=platform',
  });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(received.length).toBeGreaterThan(0);
  expect(received[0]!.path).toBe('/v1/traces');
  expect(received[0]!.headers['x-team']).toBe('platform');
  const spans: any[] = [];
  let service = '';
  for (const req of received) {
    const body = JSON.parse(req.body.toString('utf8'));
    for (const rs of body.resourceSpans) {
      service = rs.resource.attributes.find((a: any) => a.key === 'service.name')?.value.stringValue;
      for (const ss of rs.scopeSpans) spans.push(...ss.spans);
    }
  }
  expect(service).toBe('fetch-assistant');
  const got = spans
    .filter((s) => s.name.startsWith('invoke_agent '))
    .map((s) => [s.name, s.traceId, s.spanId, s.parentSpanId || null])
    .sort();
  // Model calls and tool calls (model_start/end, tool_start/end events) are child spans of their agent's span.
  const agentSpans = new Set([r.routing.span_id, ...r.routing.spans.map((s) => s.span_id)]);
  const children = spans.filter((s) => !s.name.startsWith('invoke_agent '));
  expect(children.some((s) => s.name.startsWith('chat '))).toBe(true);
  expect(children.every((s) => agentSpans.has(s.parentSpanId))).toBe(true);
  expect(got).toEqual(
    [
      ['invoke_agent fetch_assistant', r.routing.trace_id, r.routing.span_id, null],
      ...r.routing.spans.map((s) => [`invoke_agent ${s.agent}`, r.routing.trace_id, s.span_id, s.parent_span_id]),
    ].sort(),
  );
  const turn = spans.find((s) => s.spanId === r.routing.span_id);
  const attrs = Object.fromEntries(turn.attributes.map((a: any) => [a.key, Object.values(a.value)[0]]));
  expect(attrs).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'fetch_assistant', 'gen_ai.request.model': 'gpt-4.1-mini' });
});

test('http/protobuf (the default) to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is', async () => {
  const r = await run({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/custom/traces` });
  expect(r.code).toBe(0);
  expect(received.map((x) => [x.path, x.headers['content-type']])).toEqual([['/custom/traces', 'application/x-protobuf']]);
  const body = received[0]!.body;
  for (const id of [r.routing.trace_id, r.routing.span_id, ...r.routing.spans.map((s) => s.span_id)]) {
    expect(body.includes(Buffer.from(id, 'hex'))).toBe(true);
  }
  expect(body.includes(Buffer.from('invoke_agent fetch_assistant'))).toBe(true);
});

test('grpc is a warning; no endpoint means nothing is exported', async () => {
  const r = await run({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain('warning: OTEL_EXPORTER_OTLP_PROTOCOL "grpc" is not supported');
  const quiet = await run({});
  expect(quiet.stderr).toBe('');
  expect(received).toEqual([]);
});
