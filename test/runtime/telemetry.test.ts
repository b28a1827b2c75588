/**
 * OpenTelemetry from the event stream, with the real SDK (in-memory exporter,
 * a metric reader): the span tree and GenAI attributes of a mixed-intent turn
 * with one failing sub-agent, ids equal to the runtime's (the span-id bridge),
 * a caller's traceparent continued, metrics; and the routing-event path that a
 * runtime without agent events takes (an end-to-end turn of the real runtime).
 */
import * as api from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { expect, test } from 'vitest';
import { createRuntime, createScriptedClient, createSpanIdBridge, createTelemetry, loadTelemetry, type RuntimeEvent } from '../../src/runtime/index.js';
import { makeBundle } from './fixtures/bundle.js';
import { CTX } from './helpers.js';

class TestReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

function setup() {
  const exporter = new InMemorySpanExporter();
  const ids = createSpanIdBridge();
  const tracerProvider = new BasicTracerProvider({ idGenerator: ids, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const bundle = makeBundle();
  const telemetry = createTelemetry(api, { bundle, ids, tracerProvider, meterProvider });
  const metrics = async () => {
    const { resourceMetrics } = await reader.collect();
    return metricPoints(resourceMetrics);
  };
  return { exporter, telemetry, metrics, bundle };
}

function metricPoints(rm: ResourceMetrics): Record<string, { attributes: Record<string, unknown>; value: unknown }[]> {
  const out: Record<string, { attributes: Record<string, unknown>; value: unknown }[]> = {};
  for (const sm of rm.scopeMetrics)
    for (const m of sm.metrics) out[m.descriptor.name] = m.dataPoints.map((p) => ({ attributes: p.attributes, value: p.value }));
  return out;
}

const T = '4bf92f3577b34da6a3ce929d0e0e4736';
const S0 = '00f067aa0ba902b7';
const S1 = '1111111111111111';
const S2 = '2222222222222222';
const u = (i: number, o: number, c?: number) => ({ inputTokens: i, outputTokens: o, ...(c !== undefined ? { cachedInputTokens: c } : {}) });

const MIXED: RuntimeEvent[] = [
  { type: 'turn_start', at_ms: 0, agent: 'concierge', trace_id: T, span_id: S0, parent_span_id: 'aaaaaaaaaaaaaaaa' },
  { type: 'model_start', at_ms: 1, agent: 'concierge', span_id: S0, call_id: 'm1', model: 'orch-model' },
  { type: 'text_delta', at_ms: 5, agent: 'concierge', delta: 'Let me check.' },
  { type: 'model_end', at_ms: 10, agent: 'concierge', span_id: S0, call_id: 'm1', model: 'orch-model', outcome: 'ok', usage: u(1200, 30, 1024) },
  { type: 'agent_start', at_ms: 11, agent: 'billing', span_id: S1, parent_span_id: S0, tool: 'ask_billing', tool_call_id: 'c1' },
  { type: 'agent_start', at_ms: 11, agent: 'travel', span_id: S2, parent_span_id: S0, tool: 'ask_travel', tool_call_id: 'c2' },
  { type: 'model_start', at_ms: 12, agent: 'billing', span_id: S1, call_id: 'm2', model: 'sub-model' },
  { type: 'model_start', at_ms: 12, agent: 'travel', span_id: S2, call_id: 'm3', model: 'sub-model' },
  { type: 'model_end', at_ms: 20, agent: 'billing', span_id: S1, call_id: 'm2', model: 'sub-model', outcome: 'ok', usage: u(300, 10) },
  { type: 'tool_start', at_ms: 21, agent: 'billing', tool: 'get_invoices', tool_call_id: 't1', span_id: S1 },
  { type: 'status', agent: 'billing', event: 'fetching_invoices', text: 'Fetching invoices…', span_id: S1 } as RuntimeEvent,
  { type: 'security', kind: 'principal_mismatch', agent: 'billing', tool: 'get_invoices', trace_id: T, span_id: S1 },
  { type: 'tool_end', at_ms: 30, agent: 'billing', tool: 'get_invoices', tool_call_id: 't1', span_id: S1, outcome: 'data_unavailable' },
  { type: 'model_end', at_ms: 40, agent: 'travel', span_id: S2, call_id: 'm3', model: 'sub-model', outcome: 'error', usage: u(0, 0) },
  { type: 'agent_end', at_ms: 41, agent: 'travel', span_id: S2, outcome: 'error', usage: u(0, 0) },
  { type: 'model_start', at_ms: 42, agent: 'billing', span_id: S1, call_id: 'm4', model: 'sub-model' },
  { type: 'model_end', at_ms: 50, agent: 'billing', span_id: S1, call_id: 'm4', model: 'sub-model', outcome: 'ok', usage: u(320, 12) },
  { type: 'agent_end', at_ms: 51, agent: 'billing', span_id: S1, outcome: 'ok', usage: u(620, 22), cost_usd: 0.001 },
  { type: 'model_start', at_ms: 52, agent: 'concierge', span_id: S0, call_id: 'm5', model: 'orch-model' },
  { type: 'model_end', at_ms: 60, agent: 'concierge', span_id: S0, call_id: 'm5', model: 'orch-model', outcome: 'ok', usage: u(1300, 40, 1024) },
  { type: 'text', agent: 'concierge', text: 'Two invoices; trips are unavailable.' },
  {
    type: 'routing',
    agent: 'concierge',
    trace_id: T,
    span_id: S0,
    invoked: ['billing', 'travel'],
    intent_count: 3,
    intent_retry: false,
    cap: { limit: 2, requested: 3, dropped: ['ask_support'], behavior: 'over' },
    outcomes: { billing: 'ok', travel: 'error' },
    tool_outcomes: {},
    spans: [
      {
        agent: 'billing',
        span_id: S1,
        parent_span_id: S0,
        tool: 'ask_billing',
        started_ms: 11,
        ended_ms: 51,
        outcome: 'ok',
        model: 'sub-model',
        fallback: false,
      },
      {
        agent: 'travel',
        span_id: S2,
        parent_span_id: S0,
        tool: 'ask_travel',
        started_ms: 11,
        ended_ms: 41,
        outcome: 'error',
        model: 'sub-model',
        fallback: false,
      },
    ],
    started_ms: 0,
    ended_ms: 61,
  },
  { type: 'turn_end', at_ms: 62, agent: 'concierge', trace_id: T, outcome: 'ok', usage: u(3120, 114, 2048), cost_usd: 0.002 },
];

test('a mixed-intent turn with a failing sub-agent: span tree, ids, GenAI attributes, metrics', async () => {
  const { exporter, telemetry, metrics } = setup();
  for (const e of MIXED) telemetry.onEvent(e);
  const spans = exporter.getFinishedSpans();
  const tree = spans
    .map(
      (s) =>
        `${s.name} ${s.spanContext().spanId === S0 || s.spanContext().spanId === S1 || s.spanContext().spanId === S2 ? s.spanContext().spanId : '*'} <- ${s.parentSpanContext?.spanId ?? '-'}`,
    )
    .sort();
  expect(tree).toEqual([
    `chat gpt-orch * <- ${S0}`,
    `chat gpt-orch * <- ${S0}`,
    `chat gpt-sub * <- ${S1}`,
    `chat gpt-sub * <- ${S1}`,
    `chat gpt-sub * <- ${S2}`,
    `execute_tool get_invoices * <- ${S1}`,
    `invoke_agent billing ${S1} <- ${S0}`,
    `invoke_agent concierge ${S0} <- aaaaaaaaaaaaaaaa`,
    `invoke_agent travel ${S2} <- ${S0}`,
  ]);
  expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([T]));
  const turn = spans.find((s) => s.spanContext().spanId === S0)!;
  expect(turn.attributes).toMatchObject({
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': 'concierge',
    'gen_ai.request.model': 'gpt-orch',
    'gen_ai.usage.input_tokens': 3120,
    'gen_ai.usage.output_tokens': 114,
    'gen_ai.usage.cache_read.input_tokens': 2048,
    'agentc.outcome': 'ok',
    'agentc.cost_usd': 0.002,
    'agentc.routing.cap.behavior': 'over',
    'agentc.routing.cap.dropped': ['ask_support'],
  });
  expect(turn.parentSpanContext?.isRemote).toBe(true);
  const travel = spans.find((s) => s.spanContext().spanId === S2)!;
  expect(travel.attributes).toMatchObject({ 'gen_ai.agent.name': 'travel', 'agentc.outcome': 'error', 'error.type': 'error', 'gen_ai.tool.call.id': 'c2' });
  expect(travel.status.code).toBe(api.SpanStatusCode.ERROR);
  const billing = spans.find((s) => s.spanContext().spanId === S1)!;
  expect(billing.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 620, 'gen_ai.usage.output_tokens': 22, 'agentc.outcome': 'ok' });
  expect(billing.events.map((e) => e.name)).toEqual(['agentc.status', 'agentc.security.principal_mismatch']);
  expect(billing.duration).toEqual([0, 40_000_000]);
  const tool = spans.find((s) => s.name === 'execute_tool get_invoices')!;
  expect(tool.attributes).toMatchObject({
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': 'get_invoices',
    'gen_ai.tool.call.id': 't1',
    'agentc.outcome': 'data_unavailable',
  });
  const chats = spans.filter((s) => s.name === 'chat gpt-orch');
  expect(chats[0]!.attributes).toMatchObject({
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': 'gpt-orch',
    'gen_ai.provider.name': 'openai',
    'gen_ai.usage.input_tokens': 1200,
    'gen_ai.usage.cache_read.input_tokens': 1024,
  });
  expect(chats[0]!.kind).toBe(api.SpanKind.CLIENT);
  // Each span ends by the turn's end; the turn ends last.
  expect(spans.at(-1)!.spanContext().spanId).toBe(S0);

  const m = await metrics();
  expect(m['agentc.security.principal_mismatches']).toEqual([{ attributes: { 'gen_ai.agent.name': 'billing', 'gen_ai.tool.name': 'get_invoices' }, value: 1 }]);
  expect(m['agentc.dispatch.cap_overflows']).toEqual([{ attributes: { 'gen_ai.agent.name': 'concierge' }, value: 1 }]);
  expect(m['agentc.agent.outcomes']!.map((p) => [p.attributes['gen_ai.agent.name'], p.attributes['agentc.outcome'], p.value]).sort()).toEqual([
    ['billing', 'ok', 1],
    ['travel', 'error', 1],
  ]);
  const latency = m['agentc.sub_agent.duration']!.map((p) => [p.attributes['gen_ai.agent.name'], (p.value as { sum: number }).sum]).sort();
  expect(latency).toEqual([
    ['billing', 0.04],
    ['travel', 0.03],
  ]);
});

test('a traceparent on turn_start (instead of parent_span_id) continues the caller’s trace too', () => {
  const { exporter, telemetry } = setup();
  const [first, ...rest] = MIXED;
  const { parent_span_id: _drop, ...start } = first as Extract<RuntimeEvent, { type: 'turn_start' }>;
  telemetry.onEvent({ ...start, traceparent: `00-${T}-bbbbbbbbbbbbbbbb-01` } as RuntimeEvent);
  for (const e of rest) telemetry.onEvent(e);
  const turn = exporter.getFinishedSpans().find((s) => s.spanContext().spanId === S0)!;
  expect(turn.parentSpanContext?.spanId).toBe('bbbbbbbbbbbbbbbb');
  expect(turn.spanContext().traceId).toBe(T);
});

test('without the bridge the tree is the same, with the SDK’s own ids', () => {
  const exporter = new InMemorySpanExporter();
  const telemetry = createTelemetry(api, { tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }) });
  for (const e of MIXED) telemetry.onEvent(e);
  const spans = exporter.getFinishedSpans();
  expect(spans).toHaveLength(9);
  const turn = spans.find((s) => s.name === 'invoke_agent concierge')!;
  expect(turn.spanContext().traceId).toBe(T); // the caller's trace continues
  expect(spans.filter((s) => s.name.startsWith('invoke_agent ') && s !== turn).every((s) => s.parentSpanContext?.spanId === turn.spanContext().spanId)).toBe(
    true,
  );
});

test('end to end: a real turn’s routing event yields spans whose ids equal the routing event’s', async () => {
  const { exporter, telemetry, metrics, bundle } = setup();
  const events: RuntimeEvent[] = [];
  const runtime = createRuntime({
    bundle,
    llm: createScriptedClient({
      concierge: [
        {
          tool_calls: [
            { name: 'ask_billing', arguments: { query: 'invoices', intent_count: 2 } },
            { name: 'ask_travel', arguments: { query: 'Rome', intent_count: 2 } },
          ],
        },
        { text: 'Done.' },
      ],
      billing: [{ text: '2 invoices' }],
      travel: [{ error: 'boom' }],
    } as never),
    tools: {},
    onEvent: (e) => {
      events.push(e);
      telemetry.onEvent(e);
    },
  });
  const r = await runtime.turn({ agent: 'concierge', message: 'invoices and a trip', context: CTX });
  const routing = events.find((e) => e.type === 'routing')!;
  if (routing.type !== 'routing') throw new Error('no routing event');
  const spans = exporter.getFinishedSpans();
  const agentSpans = spans.filter((s) => s.name.startsWith('invoke_agent '));
  expect(agentSpans.map((s) => [s.name, s.spanContext().traceId, s.spanContext().spanId, s.parentSpanContext?.spanId ?? null]).sort()).toEqual(
    [
      ['invoke_agent concierge', r.trace_id, routing.span_id, null],
      ...routing.spans.map((s) => [`invoke_agent ${s.agent}`, r.trace_id, s.span_id, s.parent_span_id]),
    ].sort(),
  );
  expect(routing.outcomes.travel).not.toBe('ok');
  expect(agentSpans.find((s) => s.name === 'invoke_agent travel')!.status.code).toBe(api.SpanStatusCode.ERROR);
  const m = await metrics();
  expect(m['agentc.agent.outcomes']!.length).toBe(2);
});

test('loadTelemetry finds @opentelemetry/api when it is installed', async () => {
  const t = await loadTelemetry();
  expect(typeof t?.onEvent).toBe('function');
});

test('the runtime never loads OpenTelemetry statically: type imports only, the module behind loadTelemetry()', async () => {
  const { readdir, readFile } = await import('node:fs/promises');
  const dir = new URL('../../src/runtime/', import.meta.url);
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.ts'));
  const offenders: string[] = [];
  for (const f of files) {
    const text = await readFile(new URL(f, dir), 'utf8');
    for (const m of text.matchAll(/^\s*(import|export)\s+(?!type\b)[^;]*from\s+'(@opentelemetry\/[^']+)'/gm)) offenders.push(`${f}: ${m[2]}`);
  }
  expect(offenders).toEqual([]);
});
