/**
 * OpenTelemetry for turns, built on the runtime's event stream: pass
 * `telemetry.onEvent` as (or inside) `RuntimeOptions.onEvent`.
 *
 *   const ids = createSpanIdBridge();           // give it to the SDK's TracerProvider
 *   const telemetry = await loadTelemetry({ bundle, ids });   // undefined without @opentelemetry/api
 *   createRuntime({ ..., onEvent: telemetry?.onEvent });
 *
 * Spans follow the GenAI semantic conventions: `invoke_agent {agent}` for the
 * turn and for each sub-agent invocation (the parent's child), `chat {model}`
 * per model call, `execute_tool {tool}` per tool call. Metrics (OTel metrics
 * API): principal mismatches, cap overflows, outcomes by kind, sub-agent latency.
 *
 * Invariants: `@opentelemetry/api` is loaded only by `loadTelemetry` (dynamic
 * import), never by the rest of the runtime; with the bridge installed as the
 * TracerProvider's IdGenerator, the turn's and every sub-agent's span/trace ids
 * equal the ids in the runtime's events (the routing event's); a `turn_start`
 * carrying `parent_span_id` continues the caller's trace; span times come from
 * the events' `at_ms`; a turn's spans are all ended by its last event (`turn_end`,
 * or the routing event when the runtime emits no `turn_end`); telemetry never
 * throws into the runtime (an event it cannot place is dropped).
 */
import type * as OtelApi from '@opentelemetry/api';
import type { Bundle, Outcome, RoutingEvent, RuntimeEvent, SpanRecord, Usage } from './types.js';

type Api = typeof OtelApi;

/**
 * An OpenTelemetry SDK `IdGenerator` that hands out the runtime's ids for the
 * spans telemetry opens for turns and sub-agents, and random ids otherwise.
 */
export interface SpanIdBridge {
  generateTraceId(): string;
  generateSpanId(): string;
  /** Set by telemetry around one synchronous `startSpan`. */
  preset(ids: { traceId?: string; spanId?: string } | undefined): void;
}

export function createSpanIdBridge(): SpanIdBridge {
  let next: { traceId?: string; spanId?: string } | undefined;
  const hex = (bytes: number): string => {
    let s = '';
    for (let i = 0; i < bytes; i++)
      s += Math.floor(Math.random() * 256)
        .toString(16)
        .padStart(2, '0');
    return /^0+$/.test(s) ? hex(bytes) : s;
  };
  return {
    generateTraceId: () => next?.traceId ?? hex(16),
    generateSpanId: () => next?.spanId ?? hex(8),
    preset(ids) {
      next = ids;
    },
  };
}

export interface TelemetryOptions {
  /** Model keys → provider model names and providers (attributes); optional. */
  bundle?: Pick<Bundle, 'models' | 'agents'>;
  /** The bridge given to the TracerProvider as its IdGenerator (ids then equal the runtime's). */
  ids?: SpanIdBridge;
  /** An OTel TracerProvider; default the globally registered one. */
  tracerProvider?: unknown;
  /** An OTel MeterProvider; default the globally registered one. */
  meterProvider?: unknown;
}

export interface Telemetry {
  onEvent(e: RuntimeEvent): void;
}

/** Telemetry when `@opentelemetry/api` can be imported, else undefined (nothing else is loaded). */
export async function loadTelemetry(opts: TelemetryOptions = {}): Promise<Telemetry | undefined> {
  let api: unknown;
  try {
    api = await import('@opentelemetry/api');
  } catch {
    return undefined;
  }
  return createTelemetry(api, opts);
}

/** Several event listeners as one (each one's exceptions stay its own). */
export function combineEventListeners(...listeners: (((e: RuntimeEvent) => void) | undefined)[]): (e: RuntimeEvent) => void {
  const list = listeners.filter((l): l is (e: RuntimeEvent) => void => l !== undefined);
  return (e) => {
    for (const l of list) {
      try {
        l(e);
      } catch {
        // One listener's failure does not stop the others.
      }
    }
  };
}

interface TurnSpans {
  epoch: number;
  traceId: string;
  turn: OtelApi.Span | undefined;
  /** Agent spans by the runtime's span id (the turn's included). */
  agents: Map<string, { span: OtelApi.Span; agent: string; startMs: number }>;
  /** Every agent span id opened in this turn (ended ones included). */
  opened: Set<string>;
  models: Map<string, OtelApi.Span>;
  tools: Map<string, OtelApi.Span>;
}

/** `api` is the `@opentelemetry/api` module. */
export function createTelemetry(apiModule: unknown, opts: TelemetryOptions = {}): Telemetry {
  const api = apiModule as Api;
  const tracerProvider = (opts.tracerProvider as OtelApi.TracerProvider | undefined) ?? api.trace.getTracerProvider();
  const tracer = tracerProvider.getTracer('agentc');
  const meter = ((opts.meterProvider as OtelApi.MeterProvider | undefined) ?? api.metrics.getMeterProvider()).getMeter('agentc');
  const mismatches = meter.createCounter('agentc.security.principal_mismatches', { description: 'Tool envelopes whose principal was not the turn’s' });
  const overflows = meter.createCounter('agentc.dispatch.cap_overflows', {
    description: 'Turns whose model asked for more sub-agent calls than the fan-out cap',
  });
  const outcomes = meter.createCounter('agentc.agent.outcomes', { description: 'Sub-agent invocations by outcome kind' });
  const latency = meter.createHistogram('agentc.sub_agent.duration', { unit: 's', description: 'Sub-agent invocation latency' });
  const turns = new Map<string, TurnSpans>();
  const models = opts.bundle?.models ?? {};

  const ctxOf = (t: TurnSpans, spanId: string | undefined): OtelApi.Context => {
    const parent = spanId === undefined ? undefined : t.agents.get(spanId)?.span;
    if (parent !== undefined) return api.trace.setSpan(api.ROOT_CONTEXT, parent);
    return t.turn !== undefined ? api.trace.setSpan(api.ROOT_CONTEXT, t.turn) : api.ROOT_CONTEXT;
  };
  const start = (name: string, o: OtelApi.SpanOptions, ctx: OtelApi.Context, ids?: { traceId?: string; spanId?: string }): OtelApi.Span => {
    opts.ids?.preset(ids);
    try {
      return tracer.startSpan(name, o, ctx);
    } finally {
      opts.ids?.preset(undefined);
    }
  };
  const modelAttrs = (key: string | undefined): OtelApi.Attributes => {
    const m = key !== undefined && Object.prototype.hasOwnProperty.call(models, key) ? models[key] : undefined;
    if (m === undefined) return key !== undefined ? { 'gen_ai.request.model': key } : {};
    return { 'gen_ai.request.model': m.model, 'gen_ai.provider.name': m.provider, 'agentc.model': key! };
  };
  const agentModel = (agent: string) => opts.bundle?.agents[agent]?.model;
  const finish = (span: OtelApi.Span, outcome: Outcome | 'cancelled', at: number, usage?: Usage, cost?: number) => {
    span.setAttribute('agentc.outcome', outcome);
    if (usage !== undefined) setUsage(span, usage);
    if (cost !== undefined) span.setAttribute('agentc.cost_usd', cost);
    if (outcome !== 'ok') {
      span.setAttribute('error.type', outcome);
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: outcome });
    }
    span.end(at);
  };
  const subAgentEnded = (agent: string, outcome: Outcome, ms: number) => {
    outcomes.add(1, { 'gen_ai.agent.name': agent, 'agentc.outcome': outcome });
    latency.record(ms / 1000, { 'gen_ai.agent.name': agent, 'agentc.outcome': outcome });
  };
  const openTurn = (traceId: string, spanId: string, agent: string, at: number, parentSpanId?: string): TurnSpans => {
    const t: TurnSpans = {
      epoch: Date.now() - at,
      traceId,
      turn: undefined,
      agents: new Map(),
      opened: new Set([spanId]),
      models: new Map(),
      tools: new Map(),
    };
    let ctx = api.ROOT_CONTEXT;
    if (parentSpanId !== undefined && /^[0-9a-f]{16}$/.test(parentSpanId) && parentSpanId !== '0000000000000000') {
      ctx = api.trace.setSpanContext(ctx, { traceId, spanId: parentSpanId, traceFlags: api.TraceFlags.SAMPLED, isRemote: true });
    }
    t.turn = start(
      `invoke_agent ${agent}`,
      {
        kind: api.SpanKind.INTERNAL,
        startTime: t.epoch + at,
        attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': agent, ...modelAttrs(agentModel(agent)) },
      },
      ctx,
      { traceId, spanId },
    );
    t.agents.set(spanId, { span: t.turn, agent, startMs: at });
    turns.set(traceId, t);
    return t;
  };
  const closeTurn = (t: TurnSpans, at: number) => {
    for (const s of t.models.values()) s.end(t.epoch + at);
    for (const s of t.tools.values()) s.end(t.epoch + at);
    for (const [id, a] of t.agents) {
      if (a.span === t.turn) continue;
      a.span.end(t.epoch + at);
      t.agents.delete(id);
    }
    turns.delete(t.traceId);
  };
  /** The routing event: turn attributes, metrics, and — when no agent events came — the sub-agent spans themselves. */
  const routing = (e: RoutingEvent) => {
    let t = turns.get(e.trace_id);
    const fromRouting = t === undefined;
    if (t === undefined) t = openTurn(e.trace_id, e.span_id, e.agent, e.started_ms);
    const turnSpan = t.turn!;
    turnSpan.setAttributes({
      'agentc.routing.invoked': e.invoked,
      'agentc.routing.cap.limit': e.cap.limit,
      'agentc.routing.cap.requested': e.cap.requested,
      'agentc.routing.cap.behavior': e.cap.behavior,
      'agentc.routing.cap.dropped': e.cap.dropped,
      'agentc.routing.intent_retry': e.intent_retry,
    });
    if (e.intent_count !== null) turnSpan.setAttribute('agentc.routing.intent_count', e.intent_count);
    if (e.cap.behavior === 'over') overflows.add(1, { 'gen_ai.agent.name': e.agent });
    const missing = e.spans.filter((s) => !t!.opened.has(s.span_id));
    if (missing.length > 0) replaySpans(t, missing);
    if (fromRouting) {
      // A runtime without turn_start/turn_end: the routing event is the turn's last word.
      closeTurn(t, e.ended_ms);
      turnSpan.end(t.epoch + e.ended_ms);
    }
  };
  const replaySpans = (t: TurnSpans, spans: SpanRecord[]) => {
    for (const s of spans) {
      const span = start(
        `invoke_agent ${s.agent}`,
        {
          kind: api.SpanKind.INTERNAL,
          startTime: t.epoch + s.started_ms,
          attributes: {
            'gen_ai.operation.name': 'invoke_agent',
            'gen_ai.agent.name': s.agent,
            'agentc.tool': s.tool,
            ...modelAttrs(s.model ?? agentModel(s.agent)),
            ...(s.fallback ? { 'agentc.fallback': true } : {}),
          },
        },
        ctxOf(t, s.parent_span_id),
        { spanId: s.span_id },
      );
      t.agents.set(s.span_id, { span, agent: s.agent, startMs: s.started_ms });
      t.opened.add(s.span_id);
    }
    for (const s of [...spans].reverse()) {
      finish(t.agents.get(s.span_id)!.span, s.outcome, t.epoch + s.ended_ms);
      t.agents.delete(s.span_id);
      subAgentEnded(s.agent, s.outcome, s.ended_ms - s.started_ms);
    }
  };

  const handle = (e: RuntimeEvent) => {
    switch (e.type) {
      case 'turn_start':
        openTurn(e.trace_id, e.span_id, e.agent, e.at_ms, e.parent_span_id ?? traceparentSpan((e as { traceparent?: unknown }).traceparent, e.trace_id));
        return;
      case 'routing':
        routing(e);
        return;
      case 'security':
        mismatches.add(1, { 'gen_ai.agent.name': e.agent, 'gen_ai.tool.name': e.tool });
        turns.get(e.trace_id)?.agents.get(e.span_id)?.span.addEvent('agentc.security.principal_mismatch', { 'gen_ai.tool.name': e.tool });
        return;
      default:
        break;
    }
    const t = currentTurn(turns, e);
    if (t === undefined) return;
    const at = t.epoch + ('at_ms' in e ? e.at_ms : 0);
    switch (e.type) {
      case 'agent_start': {
        const span = start(
          `invoke_agent ${e.agent}`,
          {
            kind: api.SpanKind.INTERNAL,
            startTime: at,
            attributes: {
              'gen_ai.operation.name': 'invoke_agent',
              'gen_ai.agent.name': e.agent,
              'gen_ai.tool.call.id': e.tool_call_id,
              'agentc.tool': e.tool,
              ...modelAttrs(agentModel(e.agent)),
            },
          },
          ctxOf(t, e.parent_span_id),
          { traceId: t.traceId, spanId: e.span_id },
        );
        t.agents.set(e.span_id, { span, agent: e.agent, startMs: e.at_ms });
        t.opened.add(e.span_id);
        return;
      }
      case 'agent_end': {
        const a = t.agents.get(e.span_id);
        if (a === undefined || a.span === t.turn) return;
        finish(a.span, e.outcome, at, e.usage, e.cost_usd);
        t.agents.delete(e.span_id);
        subAgentEnded(e.agent, e.outcome, e.at_ms - a.startMs);
        return;
      }
      case 'model_start': {
        const span = start(
          `chat ${modelName(models, e.model)}`,
          { kind: api.SpanKind.CLIENT, startTime: at, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.agent.name': e.agent, ...modelAttrs(e.model) } },
          ctxOf(t, e.span_id),
        );
        t.models.set(e.call_id, span);
        return;
      }
      case 'model_end': {
        const span = t.models.get(e.call_id);
        if (span === undefined) return;
        t.models.delete(e.call_id);
        finish(span, e.outcome, at, e.usage, e.cost_usd);
        return;
      }
      case 'tool_start': {
        const span = start(
          `execute_tool ${e.tool}`,
          {
            kind: api.SpanKind.INTERNAL,
            startTime: at,
            attributes: {
              'gen_ai.operation.name': 'execute_tool',
              'gen_ai.agent.name': e.agent,
              'gen_ai.tool.name': e.tool,
              'gen_ai.tool.call.id': e.tool_call_id,
              'gen_ai.tool.type': 'function',
            },
          },
          ctxOf(t, e.span_id),
        );
        t.tools.set(`${e.span_id}/${e.tool_call_id}`, span);
        return;
      }
      case 'tool_end': {
        const key = `${e.span_id}/${e.tool_call_id}`;
        const span = t.tools.get(key);
        if (span === undefined) return;
        t.tools.delete(key);
        finish(span, e.outcome, at);
        return;
      }
      case 'status': {
        const spanId = (e as { span_id?: string }).span_id;
        const a = (spanId !== undefined ? t.agents.get(spanId) : undefined) ?? { span: t.turn };
        a.span?.addEvent('agentc.status', { 'agentc.status.event': e.event, 'gen_ai.agent.name': e.agent }, at);
        return;
      }
      case 'turn_end': {
        const turnSpan = t.turn;
        closeTurn(t, e.at_ms);
        if (turnSpan !== undefined) finish(turnSpan, e.outcome, at, e.usage, e.cost_usd);
        return;
      }
      default:
        return;
    }
  };
  return {
    onEvent(e) {
      try {
        handle(e);
      } catch {
        // Telemetry never breaks a turn.
      }
    },
  };
}

/** The turn an event belongs to: by trace id when it has one, else the only (or latest) open turn. */
function currentTurn(turns: Map<string, TurnSpans>, e: RuntimeEvent): TurnSpans | undefined {
  const traceId = (e as { trace_id?: string }).trace_id;
  if (traceId !== undefined) return turns.get(traceId);
  const spanId = (e as { span_id?: string; parent_span_id?: string }).parent_span_id ?? (e as { span_id?: string }).span_id;
  if (spanId !== undefined) for (const t of turns.values()) if (t.agents.has(spanId)) return t;
  let last: TurnSpans | undefined;
  for (const t of turns.values()) last = t;
  return last;
}

/** The parent span id of a W3C `traceparent` (00-<trace>-<span>-<flags>) of this trace, else undefined. */
function traceparentSpan(traceparent: unknown, traceId: string): string | undefined {
  if (typeof traceparent !== 'string') return undefined;
  const m = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(traceparent.trim().toLowerCase());
  return m !== null && m[1] === traceId ? m[2] : undefined;
}

function modelName(models: Bundle['models'], key: string): string {
  return Object.prototype.hasOwnProperty.call(models, key) ? models[key]!.model : key;
}

function setUsage(span: OtelApi.Span, usage: Usage): void {
  span.setAttributes({ 'gen_ai.usage.input_tokens': usage.inputTokens, 'gen_ai.usage.output_tokens': usage.outputTokens });
  if (usage.cachedInputTokens !== undefined) span.setAttribute('gen_ai.usage.cache_read.input_tokens', usage.cachedInputTokens);
}
