/**
 * W3C Trace Context `traceparent` (version 00): `00-<32 hex trace-id>-<16 hex parent-id>-<2 hex flags>`.
 *
 * Invariant: anything that is not a valid header (wrong shape, upper case,
 * version ff, all-zero ids) parses to undefined, and the caller starts a new
 * trace, as the W3C recommendation requires.
 */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

export function parseTraceparent(header: unknown): { traceId: string; parentId: string } | undefined {
  if (typeof header !== 'string') return undefined;
  const m = TRACEPARENT.exec(header.trim());
  if (m === null) return undefined;
  const [, version, traceId, parentId] = m;
  if (version === 'ff' || (version === '00' && m[5] !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(parentId)) return undefined;
  return { traceId, parentId };
}
