/**
 * The text the user sees, as `text_delta` events, and its running total.
 *
 * Invariants: `text()` is exactly the concatenation of every `text_delta` this
 * turn emitted, in order; a new segment (another model reply, another relayed
 * sub-agent) that follows text not ending in whitespace is separated from it
 * by one "\n\n" delta, emitted before the segment's first non-empty delta;
 * empty deltas are never emitted.
 */
import type { EventSink } from './events.js';

export type TextWriter = (delta: string) => void;

export class UserText {
  private readonly parts: string[] = [];
  private last = '';

  constructor(private readonly sink: EventSink) {}

  /** A writer for one segment of `agent`'s words. */
  segment(agent: string): TextWriter {
    let first = true;
    return (delta) => {
      if (typeof delta !== 'string' || delta === '') return;
      this.write(agent, delta, first);
      first = false;
    };
  }

  /** `first`: this delta opens a new segment. */
  write(agent: string, delta: string, first: boolean): void {
    if (delta === '' || this.sink.isClosed) return;
    if (first && this.last !== '' && !/\s$/.test(this.last)) this.put(agent, '\n\n');
    this.put(agent, delta);
  }

  text(): string {
    return this.parts.join('');
  }

  private put(agent: string, delta: string): void {
    this.parts.push(delta);
    this.last = delta;
    this.sink.emit({ type: 'text_delta', agent, delta });
  }
}
