/**
 * Relay mode (`dispatch.stream: relay`): the root's sub-agents answer the user
 * directly, in the order the calls were made (docs/runtime-streaming.md).
 *
 * Invariants: slot i's words reach the user only after every slot before it
 * has finished — the earliest unfinished slot streams live, later ones buffer
 * and flush, in order, the moment they become the earliest; every slot
 * finishes exactly once (a second `finish` is ignored); a failed slot
 * contributes its plain-words sentence after whatever it had already written.
 */
import type { TextWriter, UserText } from './user-text.js';

interface Chunk {
  delta: string;
  first: boolean;
}

interface Slot {
  agent: string;
  buffered: Chunk[];
  done: boolean;
}

/** What a dropped (fan-out cap) call contributes. */
export const RELAY_DROPPED = 'I could not look into every part of your request in this turn; ask me about the rest next.';

export class Relay {
  private readonly slots: Slot[] = [];
  private live = 0;

  constructor(private readonly out: UserText) {}

  /** Adds the next slot (call order); returns its index. */
  add(agent: string): number {
    this.slots.push({ agent, buffered: [], done: false });
    return this.slots.length - 1;
  }

  /** A writer for one segment (one model reply) of slot i. */
  segment(i: number): TextWriter {
    let first = true;
    return (delta) => {
      if (typeof delta !== 'string' || delta === '') return;
      this.write(i, { delta, first });
      first = false;
    };
  }

  finish(i: number, failure?: string): void {
    const slot = this.slots[i];
    if (slot === undefined || slot.done) return;
    if (failure !== undefined) this.write(i, { delta: failure, first: true });
    slot.done = true;
    if (i !== this.live) return;
    this.live++;
    while (this.live < this.slots.length) {
      const next = this.slots[this.live];
      for (const chunk of next.buffered.splice(0)) this.show(next.agent, chunk);
      if (!next.done) break;
      this.live++;
    }
  }

  private write(i: number, chunk: Chunk): void {
    const slot = this.slots[i];
    if (slot === undefined || slot.done) return;
    if (i === this.live) this.show(slot.agent, chunk);
    else slot.buffered.push(chunk);
  }

  private show(agent: string, chunk: Chunk): void {
    this.out.write(agent, chunk.delta, chunk.first);
  }
}
