/**
 * Trace and span ids in OpenTelemetry's format (32 / 16 lowercase hex digits).
 *
 * Invariant: ids are never all zero (OpenTelemetry treats that as invalid).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IdGenerator } from './types.js';

export function createRandomIds(): IdGenerator {
  const hex = (bytes: number) => {
    for (;;) {
      const s = randomBytes(bytes).toString('hex');
      if (!/^0+$/.test(s)) return s;
    }
  };
  return { traceId: () => hex(16), spanId: () => hex(8) };
}

/**
 * Reproducible ids for replays (`agentc run --script`): the trace id is derived
 * from `seed`, span ids count up from 1 in the order spans start.
 */
export function createSequentialIds(seed: string): IdGenerator {
  let traces = 0;
  let spans = 0;
  return {
    traceId: () => createHash('sha256').update(`${seed}\u0000${++traces}`).digest('hex').slice(0, 32),
    spanId: () => (++spans).toString(16).padStart(16, '0'),
  };
}
