/**
 * An unbounded single-reader queue behind `Runtime.stream`.
 *
 * Invariants: `push` never blocks and never throws (a slow or absent reader
 * never stalls the turn: events wait in memory); the reader gets every event
 * pushed before `end()`, in order, then `done`; after the reader leaves
 * (`return()`) buffered events are discarded and `onLeave` runs once.
 */
import type { RuntimeEvent } from './types.js';

export class EventQueue implements AsyncIterator<RuntimeEvent> {
  private readonly buffer: RuntimeEvent[] = [];
  private head = 0;
  private ended = false;
  private left = false;
  private waiting: ((r: IteratorResult<RuntimeEvent>) => void) | undefined;

  constructor(private readonly onLeave: () => void) {}

  push(e: RuntimeEvent): void {
    if (this.ended || this.left) return;
    if (this.waiting !== undefined) {
      const wake = this.waiting;
      this.waiting = undefined;
      wake({ done: false, value: e });
      return;
    }
    this.buffer.push(e);
  }

  end(): void {
    this.ended = true;
    if (this.waiting !== undefined && this.head >= this.buffer.length) {
      const wake = this.waiting;
      this.waiting = undefined;
      wake({ done: true, value: undefined });
    }
  }

  next(): Promise<IteratorResult<RuntimeEvent>> {
    if (this.head < this.buffer.length) {
      const value = this.buffer[this.head++];
      if (this.head > 1024 && this.head * 2 > this.buffer.length) {
        this.buffer.splice(0, this.head);
        this.head = 0;
      }
      return Promise.resolve({ done: false, value });
    }
    if (this.ended || this.left) return Promise.resolve({ done: true, value: undefined });
    if (this.waiting !== undefined) return Promise.reject(new Error('EventQueue: one reader at a time'));
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<RuntimeEvent>> {
    if (!this.left) {
      this.left = true;
      this.buffer.length = 0;
      this.head = 0;
      const wake = this.waiting;
      this.waiting = undefined;
      wake?.({ done: true, value: undefined });
      if (!this.ended) this.onLeave();
    }
    return Promise.resolve({ done: true, value: undefined });
  }
}
