/**
 * Runs in a worker thread (see ./remote.ts): counts tokens of the texts it is
 * sent, so the encodings load and count on the second core while the main
 * thread parses. Counts come from the same functions as in-process counting
 * (./index.ts), so they are identical by construction.
 *
 * Protocol: a request `{ id, encoding, texts }` on the port (no texts: load the
 * encoding now, before any text arrives) is answered with
 * `{ id, counts }` (or `{ id, error }`) on the same port; after each answer the
 * shared `signal[0]` is incremented and notified, so a main thread that blocks
 * on it (Atomics.wait) wakes and reads the answer with receiveMessageOnPort.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { countTokens, loadEncoding } from './index.js';
import type { CountReply, CountRequest, CountWorkerData } from './remote.js';

const { port, signal } = workerData as CountWorkerData;
const flag = new Int32Array(signal);

function reply(m: CountReply, to: MessagePort): void {
  to.postMessage(m);
  Atomics.add(flag, 0, 1);
  Atomics.notify(flag, 0);
}

port.on('message', (req: CountRequest) => {
  try {
    if (req.texts.length === 0) loadEncoding(req.encoding);
    reply({ id: req.id, counts: req.texts.map((t) => countTokens(t, req.encoding)) }, port);
  } catch (e) {
    reply({ id: req.id, error: e instanceof Error ? e.message : String(e) }, port);
  }
});
