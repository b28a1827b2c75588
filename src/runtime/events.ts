/**
 * The per-turn event sink and the orchestrator's status-rendering policy.
 *
 * Invariants: events are delivered to `onEvent` synchronously and recorded in
 * the same order; an exception thrown by `onEvent` never reaches the runtime;
 * once the turn has settled the sink is closed and late events (from abandoned
 * work) are dropped. A status event reaches the user only when the emitting
 * agent declares it (its typed vocabulary) AND the root's `status_rendering`
 * has a string for it (null = suppressed, absent = dropped); each event id is
 * rendered at most once per turn (parallel emitters are collapsed).
 */
import type { BundleAgent } from '../bundle/types.js';
import type { RuntimeEvent } from './types.js';

export class EventSink {
  readonly events: RuntimeEvent[] = [];
  private closed = false;
  private readonly rendered = new Set<string>();

  constructor(
    private readonly onEvent: ((e: RuntimeEvent) => void) | undefined,
    private readonly rendering: Record<string, string | null>,
  ) {}

  emit(event: RuntimeEvent): void {
    if (this.closed) return;
    this.events.push(event);
    if (this.onEvent === undefined) return;
    try {
      this.onEvent(event);
    } catch {
      // A listener's failure is the listener's problem, never the turn's.
    }
  }

  /** Applies the rendering policy; emits at most one `status` event. */
  status(agent: BundleAgent, event: string): void {
    if (!(agent.status_events ?? []).includes(event)) return;
    if (!Object.prototype.hasOwnProperty.call(this.rendering, event)) return;
    const text = this.rendering[event];
    if (typeof text !== 'string' || this.rendered.has(event)) return;
    this.rendered.add(event);
    this.emit({ type: 'status', agent: agent.id, event, text });
  }

  close(): void {
    this.closed = true;
  }
}
