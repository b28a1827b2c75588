/**
 * `agentc run` exports the turn's spans over OTLP/HTTP when the standard
 * environment asks for it: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (used as is) or
 * OTEL_EXPORTER_OTLP_ENDPOINT (+ `/v1/traces`); OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL
 * `http/protobuf` (the default) or `http/json`; OTEL_EXPORTER_OTLP_(TRACES_)HEADERS;
 * OTEL_SERVICE_NAME (default `agentc`).
 *
 * Invariants: without those variables nothing is imported; the OTel packages
 * are optional — missing ones (or `grpc`) are a warning, never a failure of the
 * turn; the exporter gets the runtime's ids through the span-id bridge, so the
 * exported ids are the ones in `--format json`'s routing event; `shutdown`
 * flushes before `agentc run` exits.
 */
import type { Bundle } from '../bundle/types.js';
import { createSpanIdBridge, createTelemetry, type RuntimeEvent } from '../runtime/index.js';

export interface RunTelemetry {
  onEvent(e: RuntimeEvent): void;
  shutdown(): Promise<void>;
}

export async function setupRunTelemetry(o: {
  env: Record<string, string | undefined>;
  bundle: Bundle;
  stderr: (t: string) => void;
}): Promise<RunTelemetry | undefined> {
  const env = (k: string) => (o.env[k] !== undefined && o.env[k]!.trim() !== '' ? o.env[k]!.trim() : undefined);
  const base = env('OTEL_EXPORTER_OTLP_ENDPOINT');
  const url = env('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? (base !== undefined ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined);
  if (url === undefined) return undefined;
  const protocol = env('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? env('OTEL_EXPORTER_OTLP_PROTOCOL') ?? 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    o.stderr(`warning: OTEL_EXPORTER_OTLP_PROTOCOL "${protocol}" is not supported by agentc run (use http/protobuf or http/json); no traces are exported.\n`);
    return undefined;
  }
  const exporterPackage = protocol === 'http/json' ? '@opentelemetry/exporter-trace-otlp-http' : '@opentelemetry/exporter-trace-otlp-proto';
  let api: typeof import('@opentelemetry/api');
  let sdk: typeof import('@opentelemetry/sdk-trace-base');
  let exporterModule: { OTLPTraceExporter: new (config: { url: string; headers: Record<string, string> }) => unknown };
  try {
    api = await import('@opentelemetry/api');
    sdk = await import('@opentelemetry/sdk-trace-base');
    exporterModule = (await import(exporterPackage)) as typeof exporterModule;
  } catch {
    o.stderr(
      `warning: OTEL_EXPORTER_OTLP_ENDPOINT is set but the OpenTelemetry packages are not installed (npm install @opentelemetry/api @opentelemetry/sdk-trace-base ${exporterPackage}); no traces are exported.\n`,
    );
    return undefined;
  }
  const headers = parseHeaders(env('OTEL_EXPORTER_OTLP_TRACES_HEADERS') ?? env('OTEL_EXPORTER_OTLP_HEADERS'));
  const exporter = new exporterModule.OTLPTraceExporter({ url, headers }) as import('@opentelemetry/sdk-trace-base').SpanExporter;
  const ids = createSpanIdBridge();
  const resource = await serviceResource(env('OTEL_SERVICE_NAME') ?? 'agentc');
  const provider = new sdk.BasicTracerProvider({
    idGenerator: ids,
    spanProcessors: [new sdk.BatchSpanProcessor(exporter)],
    ...(resource !== undefined ? { resource } : {}),
  });
  const telemetry = createTelemetry(api, { bundle: o.bundle, ids, tracerProvider: provider });
  return {
    onEvent: telemetry.onEvent,
    async shutdown() {
      try {
        await provider.forceFlush();
        await provider.shutdown();
      } catch (e) {
        o.stderr(`warning: exporting traces to ${url} failed: ${e instanceof Error ? e.message : String(e)}\n`);
      }
    },
  };
}

/** `service.name` on the spans when @opentelemetry/resources is there (it comes with the exporters). */
async function serviceResource(name: string): Promise<import('@opentelemetry/resources').Resource | undefined> {
  try {
    const { resourceFromAttributes } = await import('@opentelemetry/resources');
    return resourceFromAttributes({ 'service.name': name });
  } catch {
    return undefined;
  }
}

/** `k1=v1,k2=v2` (values URL-encoded), as the OTLP exporter spec writes headers. */
function parseHeaders(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const i = pair.indexOf('=');
    if (i <= 0) continue;
    try {
      out[decodeURIComponent(pair.slice(0, i).trim())] = decodeURIComponent(pair.slice(i + 1).trim());
    } catch {
      // A malformed pair is skipped, like the SDK does.
    }
  }
  return out;
}
