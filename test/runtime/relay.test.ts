/** The pure pieces behind streaming: relay slots, the user-visible text, the event queue. */
import { expect, test } from 'vitest';
import { EventQueue } from '../../src/runtime/event-queue.js';
import { EventSink } from '../../src/runtime/events.js';
import { Relay } from '../../src/runtime/relay.js';
import type { RuntimeEvent } from '../../src/runtime/types.js';
import { UserText } from '../../src/runtime/user-text.js';

function textSink() {
  const events: RuntimeEvent[] = [];
  const sink = new EventSink({ now: () => 0, onListenerError: () => undefined, push: (e) => events.push(e), rendering: {} });
  const deltas = () => events.flatMap((e) => (e.type === 'text_delta' ? [`${e.agent}:${e.delta}`] : []));
  return { sink, out: new UserText(sink), deltas };
}

test('relay: the earliest unfinished slot is live, later ones buffer and flush in call order; failures add their sentence', () => {
  const { out, deltas } = textSink();
  const relay = new Relay(out);
  const [a, b, c] = [relay.add('a'), relay.add('b'), relay.add('c')];
  const wb = relay.segment(b);
  wb('b1 ');
  wb('b2');
  relay.finish(b);
  const wc = relay.segment(c);
  wc('c1');
  expect(deltas()).toEqual([]); // a has said nothing yet: everything waits
  const wa = relay.segment(a);
  wa('a1 ');
  expect(deltas()).toEqual(['a:a1 ']); // live
  relay.finish(a, 'a failed.');
  // a's sentence, then b (done) flushed, then c's buffer; c is live now
  expect(deltas()).toEqual(['a:a1 ', 'a:a failed.', 'b:\n\n', 'b:b1 ', 'b:b2', 'c:\n\n', 'c:c1']);
  wc(' c2');
  relay.finish(c);
  relay.finish(c, 'ignored: finished twice');
  wc('ignored: after finish');
  expect(deltas().slice(-1)).toEqual(['c: c2']);
  expect(out.text()).toBe('a1 a failed.\n\nb1 b2\n\nc1 c2');
});

test('user text: a new segment after text not ending in whitespace gets a blank line; empty deltas are dropped; closed sink drops all', () => {
  const { sink, out, deltas } = textSink();
  const one = out.segment('x');
  one('');
  one('Hello.');
  const two = out.segment('x');
  two('World');
  const three = out.segment('y');
  three('\n');
  const four = out.segment('y');
  four('!');
  expect(deltas()).toEqual(['x:Hello.', 'x:\n\n', 'x:World', 'y:\n\n', 'y:\n', 'y:!']);
  sink.close();
  out.segment('x')('late');
  expect(out.text()).toBe('Hello.\n\nWorld\n\n\n!');
});

test('event queue: a waiting reader is woken by push and by end; after return() pushes are dropped and onLeave runs once', async () => {
  let left = 0;
  const q = new EventQueue(() => void left++);
  const e = (n: number) => ({ type: 'text_delta', agent: 'a', delta: String(n), at_ms: n }) as RuntimeEvent;
  const waiting = q.next();
  q.push(e(1));
  expect(await waiting).toEqual({ done: false, value: e(1) });
  q.push(e(2));
  q.push(e(3));
  expect((await q.next()).value).toEqual(e(2));
  await q.return();
  await q.return();
  q.push(e(4));
  expect(await q.next()).toEqual({ done: true, value: undefined });
  expect(left).toBe(1);

  const r = new EventQueue(() => void left++);
  const pending = r.next();
  r.end();
  expect(await pending).toEqual({ done: true, value: undefined });
  await r.return();
  expect(left).toBe(1); // the turn had already ended: leaving cancels nothing
});
