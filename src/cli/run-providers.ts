/**
 * `agentc run` without `--script`: the model client for the workspace's real
 * providers, the warnings to print before the first call, and the stderr
 * reporter for raw causes (RuntimeOptions.onError).
 *
 * Invariants: each model uses its entry's wire API (`api`, or the provider's
 * default); keys and base URLs come from the official SDKs' environment
 * variables (OPENAI_API_KEY, OPENAI_BASE_URL, ANTHROPIC_API_KEY,
 * ANTHROPIC_BASE_URL); `--endpoint` replaces the base URL of every provider; a
 * missing key is a warning, never a silent 401; a raw cause is printed once
 * however many layers report it, and never reaches the model.
 */
import type { Bundle } from '../bundle/types.js';
import { apiVendor, createProviderClient, modelApi, type ErrorInfo, type LlmChunk, type LlmClient, type LlmRequest } from '../runtime/index.js';

export interface ProviderSetup {
  llm: LlmClient;
  onError: (error: unknown, info: ErrorInfo) => void;
  /** Lines to print (to stderr) before the turn starts. */
  warnings: string[];
}

export interface ProviderSetupOptions {
  bundle: Bundle;
  env: Record<string, string | undefined>;
  endpoint?: string;
  fetch?: typeof fetch;
  stderr: (text: string) => void;
}

const VENDORS = {
  openai: { key: 'OPENAI_API_KEY', base: 'OPENAI_BASE_URL', fallback: 'https://api.openai.com/v1' },
  anthropic: { key: 'ANTHROPIC_API_KEY', base: 'ANTHROPIC_BASE_URL', fallback: 'https://api.anthropic.com' },
} as const;

export function setupProviders(o: ProviderSetupOptions): ProviderSetup {
  const settings = (vendor: keyof typeof VENDORS) => {
    const v = VENDORS[vendor];
    const apiKey = nonEmpty(o.env[v.key]);
    const baseURL = nonEmpty(o.endpoint) ?? nonEmpty(o.env[v.base]) ?? v.fallback;
    return { baseURL, ...(apiKey !== undefined ? { apiKey } : {}), ...(o.fetch !== undefined ? { fetch: o.fetch } : {}) };
  };
  const openai = settings('openai');
  const anthropic = settings('anthropic');

  const warnings: string[] = [];
  const byVendor = new Map<keyof typeof VENDORS, string[]>();
  for (const [id, model] of Object.entries(o.bundle.models).sort(([a], [b]) => a.localeCompare(b))) {
    const vendor = apiVendor(modelApi(model));
    byVendor.set(vendor, [...(byVendor.get(vendor) ?? []), id]);
  }
  for (const [vendor, models] of byVendor) {
    const s = vendor === 'openai' ? openai : anthropic;
    if (s.apiKey !== undefined) continue;
    warnings.push(
      `warning: ${VENDORS[vendor].key} is not set: calls to ${s.baseURL} (models ${models.join(', ')}) go without an API key and a real provider will refuse them (HTTP 401).\n`,
    );
  }

  const printed = new WeakSet<object>();
  const onError = (error: unknown, info: ErrorInfo) => {
    if (error !== null && typeof error === 'object') {
      if (printed.has(error)) return;
      printed.add(error);
    }
    o.stderr(`agentc run: ${describeSite(info)}: ${describeError(error)}\n`);
  };
  return { llm: reportingClient(createProviderClient({ openai, anthropic }), onError), onError, warnings };
}

/** Reports every error a model call throws (the runtime may report the same one: it prints once). */
function reportingClient(inner: LlmClient, onError: ProviderSetup['onError']): LlmClient {
  const report = (req: LlmRequest, e: unknown) => {
    if (!req.signal.aborted) onError(e, { agent: req.agent, span_id: '', kind: 'model', model: req.model.id });
  };
  return {
    async complete(req) {
      try {
        return await inner.complete(req);
      } catch (e) {
        report(req, e);
        throw e;
      }
    },
    async *stream(req): AsyncGenerator<LlmChunk> {
      try {
        yield* inner.stream!(req);
      } catch (e) {
        report(req, e);
        throw e;
      }
    },
  };
}

function describeSite(info: ErrorInfo): string {
  switch (info.kind) {
    case 'model':
      return `model call of agent "${info.agent}"${info.model !== undefined ? ` (${info.model})` : ''} failed`;
    case 'tool':
      return `${info.tool !== undefined ? `tool ${info.tool}` : 'a tool'} of agent "${info.agent}" threw`;
    case 'session':
      return `session store failed for agent "${info.agent}"`;
    default:
      return `an event listener threw (agent "${info.agent}")`;
  }
}

/** One line: the error's message (HTTP status and provider message, or errno), control characters removed. */
export function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : typeof error === 'string' ? error : safeJson(error);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this strips
  const oneLine = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return oneLine.length > 600 ? `${oneLine.slice(0, 597)}...` : oneLine;
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}
