/**
 * Errors the model clients throw. They carry the raw cause for the developer
 * (`RuntimeOptions.onError`, `agentc run`'s stderr); the runtime turns every one
 * of them into a typed failure, so none of this text ever reaches a model.
 *
 * Invariant: `timeout` is true exactly for causes the runtime reports as the
 * `timeout` kind (HTTP 408/504, a deadline that ran out inside the client).
 */

/** The provider answered with an HTTP error status. */
export class LlmHttpError extends Error {
  readonly timeout: boolean;
  /** The provider's own error message (`error.message` of its JSON body), when it sent one. */
  readonly providerMessage: string | undefined;
  /** The provider's error type or code (`error.type` / `error.code`), when it sent one. */
  readonly providerType: string | undefined;
  /** How long the provider asked us to wait (`retry-after` / `retry-after-ms`), in ms. */
  readonly retryAfterMs: number | undefined;
  constructor(
    readonly status: number,
    details: { providerMessage?: string; providerType?: string; retryAfterMs?: number; provider?: string } = {},
  ) {
    const who = details.provider ?? 'model endpoint';
    const what = details.providerMessage !== undefined ? `: ${details.providerMessage}` : '';
    const type = details.providerType !== undefined ? ` (${details.providerType})` : '';
    super(`${who} answered HTTP ${status}${what}${type}`);
    this.name = 'LlmHttpError';
    this.timeout = status === 408 || status === 504;
    this.providerMessage = details.providerMessage;
    this.providerType = details.providerType;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** The request never got an HTTP answer (refused, reset, DNS, TLS…). `code` is the errno name. */
export class LlmNetworkError extends Error {
  readonly timeout = false;
  constructor(
    readonly url: string,
    readonly code: string | undefined,
    cause: unknown,
  ) {
    super(`cannot reach ${url}: ${code ?? innermostMessage(cause)}`, { cause });
    this.name = 'LlmNetworkError';
  }
}

/** The provider reported an error inside a 200 stream, or sent something that is not its wire format. */
export class LlmProtocolError extends Error {
  readonly timeout = false;
  constructor(
    message: string,
    readonly providerType?: string,
  ) {
    super(message);
    this.name = 'LlmProtocolError';
  }
}

/** The client stopped because `req.deadline` passed (the runtime's signal may not have fired yet). */
export class LlmDeadlineError extends Error {
  readonly timeout = true;
  constructor() {
    super('the agent time budget ran out before the model answered');
    this.name = 'LlmDeadlineError';
  }
}

/** The errno name (ECONNREFUSED, ENOTFOUND…) of a fetch failure, looking through `cause` chains. */
export function errnoOf(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur !== null && typeof cur === 'object'; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    const errors = (cur as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) {
      const inner = errnoOf(errors[0]);
      if (inner !== undefined) return inner;
    }
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The message of the deepest `cause` ("bad port", "getaddrinfo …"), which says more than "fetch failed". */
function innermostMessage(e: unknown): string {
  let message = e instanceof Error ? e.message : String(e);
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur instanceof Error && cur.cause !== undefined; i++) {
    cur = cur.cause;
    if (cur instanceof Error && cur.message !== '') message = cur.message;
  }
  return message;
}
