import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runCommand } from '../src/cli/commands/run.js';
import type { CliIO } from '../src/cli/io.js';

const repo = join(import.meta.dirname, '..');

test('examples/mixed-intent.yaml runs on the repo workspace: parallel fan-out, both specialists ok', async () => {
  let stdout = '';
  const io: CliIO = { stdout: (t) => void (stdout += t), stderr: () => {}, cwd: repo, env: {}, isTTY: false };
  const code = await runCommand(
    {
      cwd: repo,
      agent: 'fetch_assistant',
      message: 'How many points do I have, and are there any coffee offers?',
      script: join(repo, 'examples/mixed-intent.yaml'),
      format: 'json',
    },
    io,
  );
  expect(code).toBe(0);
  const out = JSON.parse(stdout) as {
    text: string;
    events: { type: string; outcomes?: Record<string, string>; invoked?: string[] }[];
    calls: { agent: string; started_ms: number; ended_ms: number }[];
  };
  expect(out.text).toContain('12,500 points');
  const routing = out.events.find((e) => e.type === 'routing')!;
  expect(routing.outcomes).toEqual({ offer_details: 'ok', rewards: 'ok' });
  // The two 300 ms specialist replies overlap: the turn is bounded by the slowest, not the sum.
  const slow = out.calls.filter((c) => c.ended_ms - c.started_ms >= 250);
  expect(slow.map((c) => c.agent).sort()).toEqual(['offer_details', 'rewards']);
  const [a, b] = slow;
  expect(Math.max(a!.started_ms, b!.started_ms)).toBeLessThan(Math.min(a!.ended_ms, b!.ended_ms));
  // Status events are rendered per the orchestrator's status_rendering.
  expect(out.events.filter((e) => e.type === 'status').length).toBeGreaterThan(0);
});

async function runExample(cwd: string, agent: string, message: string, script: string, format: 'jsonl' | 'text') {
  const writes: [string, string][] = [];
  const io: CliIO = { stdout: (t) => void writes.push(['out', t]), stderr: (t) => void writes.push(['err', t]), cwd: repo, env: {}, isTTY: false };
  const code = await runCommand({ cwd, agent, message, script: join(repo, script), format }, io);
  return { code, writes };
}

test('examples/streaming-mixed-intent.yaml streams: the preamble before any specialist runs, statuses while they work, then the answer', async () => {
  const { code, writes } = await runExample(repo, 'fetch_assistant', 'points and coffee offers?', 'examples/streaming-mixed-intent.yaml', 'jsonl');
  expect(code).toBe(0);
  const events = writes
    .filter(([s]) => s === 'out')
    .map(([, t]) => JSON.parse(t) as { type: string; at_ms: number; delta?: string; text?: string; agent: string });
  const first = (type: string) => events.findIndex((e) => e.type === type);
  expect(first('text_delta')).toBeLessThan(first('agent_start'));
  expect(first('status')).toBeLessThan(first('agent_end'));
  expect(events.at(-1)?.type).toBe('turn_end');
  const text = events.find((e) => e.type === 'text')!.text!;
  expect(
    events
      .filter((e) => e.type === 'text_delta')
      .map((e) => e.delta)
      .join(''),
  ).toBe(text);
  expect(text.startsWith('Let me check your points and look for coffee offers.\n\nYou have 12,500 points')).toBe(true);
});

test('examples/relay: relay mode streams billing live and travel after it, though travel finished first', async () => {
  const relayRoot = join(repo, 'examples/relay');
  const { code, writes } = await runExample(relayRoot, 'concierge', 'What do I owe, and any trips to Lisbon?', 'examples/relay/relay-turn.yaml', 'text');
  expect(code).toBe(0);
  const out = writes
    .filter(([s]) => s === 'out')
    .map(([, t]) => t)
    .join('');
  expect(out).toBe(
    'Let me check your invoices and look for trips to Lisbon.\n\nYou have one open invoice of $42.10, due on December 1.\n\nTwo Lisbon trips fit your points: 3 nights for 48,000 points, or 5 nights for 71,000.\n',
  );
  // The preamble reached stdout before the first status line reached stderr.
  const firstErr = writes.findIndex(([s]) => s === 'err');
  expect(writes.findIndex(([s, t]) => s === 'out' && t === 'Let ')).toBeLessThan(firstErr);
  expect(writes[firstErr][1]).toBe('\n› Looking up your invoices…\n');
  // The line is broken once: the next status follows on its own line, without a blank one.
  expect(writes.filter(([st]) => st === 'err').map(([, t]) => t)[1]).toBe('› Searching trips…\n');
});
