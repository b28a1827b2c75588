/**
 * Envelope checks for context-service-backed tools (docs/runtime.md#envelopes-and-principals).
 * An envelope is `{ status: 'ok' | 'partial' | 'error', principal, payload }`.
 *
 * Invariants: the principal is checked first and a mismatch (including a missing
 * or non-string principal: it cannot be verified) wins over any status; only the
 * `ok` and `partial` verdicts carry the payload, so a suppressed payload cannot
 * be forwarded by mistake; `status` is the single decision boundary — nothing
 * else in the envelope (e.g. `partial[]`) is inspected.
 */
export type EnvelopeVerdict =
  { kind: 'ok'; payload: unknown } | { kind: 'partial'; payload: unknown } | { kind: 'error' } | { kind: 'principal_mismatch' } | { kind: 'malformed' };

export function checkEnvelope(value: unknown, principal: string): EnvelopeVerdict {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { kind: 'malformed' };
  const env = value as Record<string, unknown>;
  if (typeof env.principal !== 'string' || env.principal !== principal) return { kind: 'principal_mismatch' };
  switch (env.status) {
    case 'ok':
      return { kind: 'ok', payload: env.payload };
    case 'partial':
      return { kind: 'partial', payload: env.payload };
    case 'error':
      return { kind: 'error' };
    default:
      return { kind: 'malformed' };
  }
}
