/**
 * One POST to a provider, with retries.
 *
 * Invariants: 429, 408, 409 and 5xx answers and network failures are retried
 * (at most `maxRetries` times) after `retry-after-ms` / `retry-after` when the
 * provider sends one, else after an exponential backoff with jitter; a wait that
 * would end after `req.deadline` is not started (the last error is thrown at
 * once); the abort signal (and the deadline) cancel the request, the wait and
 * the body. A non-OK answer's body is read only to take the provider's error
 * message, and is never returned.
 */
import { errnoOf, LlmDeadlineError, LlmHttpError, LlmNetworkError } from './errors.js';

export interface RetryPolicy {
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** First backoff, ms (default 500); doubles per attempt. */
  baseDelayMs?: number;
  /** Longest single wait, ms (default 8000). */
  maxDelayMs?: number;
}

export interface HttpOptions {
  fetch: typeof fetch;
  url: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
  deadline?: number;
  retry?: RetryPolicy;
  /** Names the provider in error messages ("OpenAI", "Anthropic"). */
  provider: string;
}

/** The OK response (its body not yet read), and a signal that also fires at the deadline. */
export async function postWithRetry(o: HttpOptions): Promise<{ res: Response; signal: AbortSignal }> {
  const signal = withDeadline(o.signal, o.deadline);
  const maxRetries = o.retry?.maxRetries ?? 2;
  for (let attempt = 0; ; attempt++) {
    let failure: Error;
    let waitMs: number | undefined;
    try {
      const res = await o.fetch(o.url, { method: 'POST', headers: o.headers, body: o.body, signal });
      if (res.ok) return { res, signal };
      failure = await httpError(res, o.provider);
      if (!retryable(res.status)) throw failure;
      waitMs = (failure as LlmHttpError).retryAfterMs;
    } catch (e) {
      if (signal.aborted) throw abortReason(o.signal);
      if (e instanceof LlmHttpError) {
        if (!retryable(e.status)) throw e;
        failure = e;
      } else {
        failure = new LlmNetworkError(o.url, errnoOf(e), e);
      }
    }
    if (attempt >= maxRetries) throw failure;
    const delay = Math.min(waitMs ?? backoff(attempt, o.retry), 60_000);
    if (o.deadline !== undefined && Date.now() + delay >= o.deadline) throw failure;
    await sleep(delay, signal).catch(() => {
      throw abortReason(o.signal);
    });
  }
}

function retryable(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function backoff(attempt: number, p: RetryPolicy | undefined): number {
  const base = (p?.baseDelayMs ?? 500) * 2 ** attempt;
  const capped = Math.min(base, p?.maxDelayMs ?? 8000);
  return capped * (0.75 + Math.random() * 0.25);
}

/** The caller's abort reason when it aborted, else the deadline. */
function abortReason(signal: AbortSignal): Error {
  if (signal.aborted) return signal.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError');
  return new LlmDeadlineError();
}

/** `signal`, also aborted when `deadline` (epoch ms) passes. */
export function withDeadline(signal: AbortSignal, deadline: number | undefined): AbortSignal {
  if (deadline === undefined) return signal;
  const ms = Math.max(0, deadline - Date.now());
  return AbortSignal.any([signal, AbortSignal.timeout(ms)]);
}

async function httpError(res: Response, provider: string): Promise<LlmHttpError> {
  let text = '';
  try {
    text = (await res.text()).slice(0, 64_000);
  } catch {
    // The body is only used for the message; a broken one leaves the status.
  }
  const details: ConstructorParameters<typeof LlmHttpError>[1] = { provider };
  const retryAfterMs = parseRetryAfter(res.headers);
  if (retryAfterMs !== undefined) details.retryAfterMs = retryAfterMs;
  try {
    const err = (JSON.parse(text) as { error?: unknown }).error;
    if (typeof err === 'string') details.providerMessage = clip(err);
    else if (err !== null && typeof err === 'object') {
      const { message, type, code } = err as { message?: unknown; type?: unknown; code?: unknown };
      if (typeof message === 'string') details.providerMessage = clip(message);
      const kind = typeof type === 'string' ? type : typeof code === 'string' ? code : undefined;
      if (kind !== undefined) details.providerType = clip(kind);
    }
  } catch {
    if (text.trim() !== '' && !/^\s*</.test(text)) details.providerMessage = clip(text.trim());
  }
  return new LlmHttpError(res.status, details);
}

/** `retry-after-ms` (OpenAI), else `retry-after` in seconds or as an HTTP date. */
export function parseRetryAfter(h: Headers, now = Date.now()): number | undefined {
  const ms = Number(h.get('retry-after-ms'));
  if (h.get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const v = h.get('retry-after');
  if (v === null || v.trim() === '') return undefined;
  const s = Number(v);
  if (Number.isFinite(s)) return s >= 0 ? s * 1000 : undefined;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function clip(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > 500 ? `${one.slice(0, 497)}...` : one;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
