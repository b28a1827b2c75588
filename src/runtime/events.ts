/**
 * The per-turn event sink and the orchestrator's status-rendering policy.
 *
 * Invariants: every event is stamped with `at_ms` (milliseconds since the turn
 * started) when emitted, recorded, handed to `onEvent` synchronously and pushed
 * to the turn's stream, all in the same order; an exception thrown by `onEvent`
 * never reaches the runtime (it goes to `onError`, kind 'hook'); pushing to the
 * stream never waits for its reader; once the turn has settled the sink is
 * closed and late events (from abandoned work) are dropped. A status event
 * reaches the user only when the emitting agent declares it (its typed
 * vocabulary) AND the root's `status_rendering` has a string for it (null =
 * suppressed, absent = dropped); each event id is rendered at most once per
 * turn (parallel emitters are collapsed).
 */
import type { BundleAgent } from '../bundle/types.js';
import type { RuntimeEvent } from './types.js';

/** An event as the runtime builds it; the sink adds `at_ms`. */
export type EventInput = RuntimeEvent extends infer E ? (E extends RuntimeEvent ? Omit<E, 'at_ms'> : never) : never;

export interface SinkOptions {
  /** Milliseconds since the turn started. */
  now: () => number;
  onEvent?: (e: RuntimeEvent) => void;
  /** Where a listener's exception goes (never thrown). */
  onListenerError: (error: unknown) => void;
  /** The turn's stream, when it has a reader (buffers without waiting for it). */
  push: ((e: RuntimeEvent) => void) | undefined;
  rendering: Record<string, string | null>;
}

export class EventSink {
  readonly events: RuntimeEvent[] = [];
  private closed = false;
  private readonly rendered = new Set<string>();

  constructor(private readonly opts: SinkOptions) {}

  emit(input: EventInput): void {
    if (this.closed) return;
    const event = { ...input, at_ms: this.opts.now() } as RuntimeEvent;
    this.events.push(event);
    this.opts.push?.(event);
    const listener = this.opts.onEvent;
    if (listener === undefined) return;
    try {
      listener(event);
    } catch (e) {
      // A listener's failure is the listener's problem, never the turn's.
      this.opts.onListenerError(e);
    }
  }

  /** Applies the rendering policy; emits at most one `status` event per id and turn. */
  status(agent: BundleAgent, event: string, spanId: string): void {
    if (!(agent.status_events ?? []).includes(event)) return;
    if (!Object.prototype.hasOwnProperty.call(this.opts.rendering, event)) return;
    const text = this.opts.rendering[event];
    if (typeof text !== 'string' || this.rendered.has(event)) return;
    this.rendered.add(event);
    this.emit({ type: 'status', agent: agent.id, span_id: spanId, event, text });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    this.closed = true;
  }
}
