/**
 * Token counting on a second thread: a worker (./count-worker.ts) that loads
 * the encodings and counts the texts it is asked for, while the main thread
 * goes on parsing and rendering. The encodings cost ~0.3 s to load and a large
 * workspace ~0.3 s more to count; on a machine with a spare core that time
 * overlaps the parse phase instead of following it.
 *
 * `request` asks without waiting; `take` answers synchronously, blocking on a
 * shared counter (Atomics.wait) until the worker's answer can be read with
 * receiveMessageOnPort — so the resolve phase stays synchronous.
 *
 * Invariant: take(text, e) === countTokens(text, e). The worker counts with the
 * same function; when it fails, is missing, or stalls for STALL_MS, the text is
 * counted here instead (slower, never different).
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { countTokens, type Encoding } from './index.js';

export interface CountRequest {
  id: number;
  encoding: Encoding;
  texts: string[];
}
export type CountReply = { id: number; counts: number[] } | { id: number; error: string };
export interface CountWorkerData {
  port: MessagePort;
  /** An Int32Array's buffer: [0] counts the answers posted. */
  signal: SharedArrayBuffer;
}

const here = dirname(fileURLToPath(import.meta.url));
/** The worker is plain JS: dist/tokenize/count-worker.js, also when agentc itself runs from src/ (tests, after a build). */
const workerEntry = [join(here, 'count-worker.js'), join(here, '..', '..', 'dist', 'tokenize', 'count-worker.js')].find((p) => existsSync(p));

/** How long `take` waits without any answer arriving before it gives up on the worker. */
const STALL_MS = 30_000;
/** One wait's bound: an answer is looked for again after it, whatever the signal says. */
const POLL_MS = 50;

/**
 * Whether a second thread would find a core to run on: the last minute's load
 * average is below the number of cores. On a saturated machine a worker only adds
 * CPU time (its start-up, copying texts to it) and the counts are made here.
 */
export function spareCore(): boolean {
  return os.loadavg()[0] < os.availableParallelism();
}

export class RemoteCounter {
  /** Per encoding: texts asked for, with their count once answered (null until then). */
  private readonly answers = new Map<Encoding, Map<string, number | null>>();
  /** Requests not yet answered, by id. */
  private readonly open = new Map<number, { encoding: Encoding; texts: string[] }>();
  private readonly flag: Int32Array;
  private nextId = 0;
  private failed = false;

  private constructor(
    private readonly worker: Worker,
    private readonly port: MessagePort,
    signal: SharedArrayBuffer,
  ) {
    this.flag = new Int32Array(signal);
    // Seen only while the main thread is idle; `take` also gives up after STALL_MS.
    worker.on('error', () => this.fail());
    worker.on('exit', () => this.fail());
  }

  /** Starts the worker, or returns undefined when it cannot be (no built worker file, no threads). */
  static start(): RemoteCounter | undefined {
    if (!workerEntry) return undefined;
    try {
      const { port1, port2 } = new MessageChannel();
      const signal = new SharedArrayBuffer(4);
      const data: CountWorkerData = { port: port2, signal };
      const worker = new Worker(workerEntry, { workerData: data, transferList: [port2] });
      // Neither may keep the process alive: a finished compile exits even if close() was missed.
      worker.unref();
      port1.unref();
      return new RemoteCounter(worker, port1, signal);
    } catch {
      return undefined;
    }
  }

  /** Asks for the counts of the texts not asked for yet; does not wait. */
  request(texts: readonly string[], encoding: Encoding): void {
    if (this.failed) return;
    const known = this.known(encoding);
    const fresh: string[] = [];
    for (const t of texts) {
      if (known.has(t)) continue;
      known.set(t, null);
      fresh.push(t);
    }
    if (fresh.length === 0) return;
    const id = this.nextId++;
    this.open.set(id, { encoding, texts: fresh });
    this.port.postMessage({ id, encoding, texts: fresh } satisfies CountRequest);
  }

  /** Has the worker load `encoding` now, before any text to count arrives. */
  preload(encoding: Encoding): void {
    if (this.failed) return;
    const id = this.nextId++;
    this.open.set(id, { encoding, texts: [] });
    this.port.postMessage({ id, encoding, texts: [] } satisfies CountRequest);
  }

  /** The count of `text` under `encoding`: the worker's answer (asked for now if it was not), waited for. */
  take(text: string, encoding: Encoding): number {
    if (!this.known(encoding).has(text)) this.request([text], encoding);
    let deadline = Date.now() + STALL_MS;
    for (;;) {
      const seen = Atomics.load(this.flag, 0);
      const n = this.known(encoding).get(text);
      if (typeof n === 'number') return n;
      // Failed, or the worker answered with an error: count here.
      if (this.failed || n === undefined) return countTokens(text, encoding);
      if (this.drain()) {
        deadline = Date.now() + STALL_MS;
        continue;
      }
      const left = deadline - Date.now();
      if (left <= 0) this.fail();
      else Atomics.wait(this.flag, 0, seen, Math.min(left, POLL_MS));
    }
  }

  /** Stops the worker (answers not taken are dropped). */
  close(): void {
    this.fail();
  }

  private known(encoding: Encoding): Map<string, number | null> {
    let m = this.answers.get(encoding);
    if (!m) this.answers.set(encoding, (m = new Map<string, number | null>()));
    return m;
  }

  /** Reads every answer that has arrived; whether there was one. */
  private drain(): boolean {
    let got = false;
    for (let m = receiveMessageOnPort(this.port); m !== undefined; m = receiveMessageOnPort(this.port)) {
      got = true;
      const reply = m.message as CountReply;
      const asked = this.open.get(reply.id);
      if (!asked) continue;
      this.open.delete(reply.id);
      const known = this.known(asked.encoding);
      if ('error' in reply) for (const t of asked.texts) known.delete(t);
      else asked.texts.forEach((t, i) => known.set(t, reply.counts[i]!));
    }
    return got;
  }

  /** Gives up on the worker: every unanswered text is counted here from now on. */
  private fail(): void {
    if (this.failed) return;
    this.failed = true;
    for (const { encoding, texts } of this.open.values()) for (const t of texts) this.known(encoding).delete(t);
    this.open.clear();
    this.port.close();
    void this.worker.terminate();
  }
}
