import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runCommand } from '../src/cli/commands/run.js';
import type { CliIO } from '../src/cli/io.js';

const repo = join(import.meta.dirname, '..');

test('examples/mixed-intent.yaml runs on the repo workspace: parallel fan-out, both specialists ok', async () => {
  let stdout = '';
  const io: CliIO = { stdout: (t) => void (stdout += t), stderr: () => {}, cwd: repo, env: {}, isTTY: false };
  const code = await runCommand(
    { cwd: repo, agent: 'fetch_assistant', message: 'How many points do I have, and are there any coffee offers?', script: join(repo, 'examples/mixed-intent.yaml'), format: 'json' },
    io,
  );
  expect(code).toBe(0);
  const out = JSON.parse(stdout) as { text: string; events: { type: string; outcomes?: Record<string, string>; invoked?: string[] }[]; calls: { agent: string; started_ms: number; ended_ms: number }[] };
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
