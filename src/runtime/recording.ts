/**
 * Wraps an LlmClient and records what every model was shown (the `calls` of
 * `agentc run --format json`).
 *
 * Invariants: records are in order of call start; `messages` is a deep copy
 * taken at call start (later mutation cannot change the record); times are
 * whole milliseconds since `markStart()` (real time by default, so ordering
 * and overlap are meaningful, exact values are not reproducible).
 */
import { createHash } from 'node:crypto';
import type { LlmClient, LlmRequest, Message } from './types.js';

export interface CallRecord {
  agent: string;
  /** The model key used (differs from the agent's model after a fallback). */
  model: string;
  started_ms: number;
  ended_ms: number;
  system: { prefix_sha256: string; suffix: string };
  messages: Message[];
  /** Tool names offered, in order. */
  tools: string[];
}

export interface RecordingClient {
  client: LlmClient;
  calls: CallRecord[];
  /** Sets time zero (call it right before the turn). */
  markStart(): void;
}

export function createRecordingClient(inner: LlmClient, clock: () => number = () => performance.now()): RecordingClient {
  let origin = clock();
  const calls: CallRecord[] = [];
  const hashes = new Map<string, string>();
  const sha = (text: string) => {
    let h = hashes.get(text);
    if (h === undefined) {
      h = createHash('sha256').update(text).digest('hex');
      hashes.set(text, h);
    }
    return h;
  };
  const start = (req: LlmRequest): CallRecord => {
    const record: CallRecord = {
      agent: req.agent,
      model: req.model.id,
      started_ms: Math.round(clock() - origin),
      ended_ms: -1,
      system: { prefix_sha256: sha(req.system.prefix), suffix: req.system.suffix },
      messages: structuredClone(req.messages),
      tools: req.tools.map((t) => t.name),
    };
    calls.push(record);
    return record;
  };
  const client: LlmClient = {
    async complete(req) {
      const record = start(req);
      try {
        return await inner.complete(req);
      } finally {
        record.ended_ms = Math.round(clock() - origin);
      }
    },
  };
  if (typeof inner.stream === 'function') {
    const stream = inner.stream.bind(inner);
    client.stream = async function* (req) {
      const record = start(req);
      try {
        yield* stream(req);
      } finally {
        record.ended_ms = Math.round(clock() - origin);
      }
    };
  }
  return { client, calls, markStart: () => void (origin = clock()) };
}
