/**
 * `agentc eval --full` and `--seed` against a local mock model server (OpenAI
 * Chat Completions on 127.0.0.1): whole turns run through the runtime, the
 * handoff checks read what each sub-agent's model was actually sent, and the
 * seed reaches every request body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExample, edit, removeTempDirs, runCli, write } from '../robustness/workspace.js';
import { startMock, type Mock } from '../runtime/providers/mock-server.js';

let mock: Mock;
let dir: string;
const env = { OPENAI_API_KEY: 'test-key' };

const MIXED = 'How many points do I have, and any coffee offers?';
const SWITCH = 'Actually, how many points would I need for a $25 gift card?';

/** message → the sub-agent calls the mock's orchestrator makes (args as sent). */
let plan: Record<string, { agent: string; args: Record<string, unknown> }[]> = {};

const SUITE = `agent: fetch_assistant
cases:
  - message: ${JSON.stringify(MIXED)}
    expect:
      agents: [offer_details, rewards]
      intent_count: 2
      handoff:
        rewards: { query_contains: [points] }
        offer_details: { query_contains: [coffee] }
  - message: ${JSON.stringify(SWITCH)}
    history:
      - { role: user, content: "Show me Nike running shoes" }
      - { role: assistant, content: "Here are three pairs on sale." }
    expect:
      agents: [rewards]
      handoff:
        rewards: { prior_context: true }
`;

function chat(res: import('node:http').ServerResponse, message: Record<string, unknown>): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'mock',
      choices: [{ index: 0, finish_reason: message.tool_calls ? 'tool_calls' : 'stop', message: { role: 'assistant', content: null, ...message } }],
      usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
    }),
  );
}

/** The orchestrator routes by `plan`; after its tools' results it composes; a specialist answers in words. */
function serve(): void {
  mock.handle((seen, res) => {
    const messages = (seen.body?.messages ?? []) as { role: string; content: unknown }[];
    const routing = ((seen.body?.tools ?? []) as { function: { name: string } }[]).some((t) => t.function.name.startsWith('ask_'));
    const last = messages[messages.length - 1];
    if (!routing) return chat(res, { content: 'Specialist answer.' });
    if (last?.role === 'tool') return chat(res, { content: 'Here is everything.' });
    const calls = plan[String(last?.content ?? '')] ?? [];
    if (calls.length === 0) return chat(res, { content: 'Hi there!' });
    chat(res, {
      tool_calls: calls.map((c, i) => ({
        id: `call_${i}`,
        type: 'function',
        function: { name: `ask_${c.agent}`, arguments: JSON.stringify({ ...c.args, intent_count: calls.length }) },
      })),
    });
  });
}

/** Sub-agent requests the mock saw since `from`: agent → the handoff JSON it was sent. */
function handoffsSeen(from: number): Record<string, unknown>[] {
  return mock.seen.slice(from).flatMap((s) => {
    const tools = (s.body?.tools ?? []) as { function: { name: string } }[];
    if (tools.some((t) => t.function.name.startsWith('ask_'))) return [];
    const msgs = (s.body?.messages ?? []) as { role: string; content: string }[];
    const last = msgs[msgs.length - 1];
    return last?.role === 'user' ? [JSON.parse(last.content) as Record<string, unknown>] : [];
  });
}

const GOOD = () => ({
  [MIXED]: [
    { agent: 'rewards', args: { query: 'How many points do I have' } },
    { agent: 'offer_details', args: { query: 'any coffee offers' } },
  ],
  [SWITCH]: [{ agent: 'rewards', args: { query: SWITCH, prior_context: 'The user was looking at Nike running shoes.' } }],
});

beforeAll(async () => {
  mock = await startMock();
  serve();
  dir = await copyExample('eval-full');
  // Every model speaks Chat Completions to the one mock endpoint.
  await edit(dir, 'agentc.config.ts', (t) =>
    t.replace(/\n\s*api: 'openai-chat',/g, '').replace(/provider: '(openai|anthropic)',/g, "provider: 'openai',\n      api: 'openai-chat',"),
  );
  await write(dir, 'evals/full.yaml', SUITE);
}, 60_000);

afterAll(async () => {
  await mock.close();
  await removeTempDirs();
});

const run = async (...extra: string[]) => {
  const r = await runCli(['eval', 'evals/full.yaml', '--cwd', dir, '--endpoint', mock.url, '--no-cache', '-f', 'json', ...extra], { env, cwd: dir });
  return { ...r, report: r.stdout === '' ? undefined : (JSON.parse(r.stdout) as any) };
};

describe('agentc eval --full', () => {
  it('passes when the sub-agents receive the expected handoffs, and shows what they received', async () => {
    plan = GOOD();
    const from = mock.seen.length;
    const r = await run('--full');
    expect(r.stderr).toBe('');
    expect(r.report.mode).toBe('full');
    expect(r.report.cases.map((c: any) => [c.passed, c.runs[0].reasons])).toEqual([
      [true, []],
      [true, []],
    ]);
    expect(r.code).toBe(0);
    // The specialists ran: each got exactly its declared handoff fields (intent_count stripped).
    const got = handoffsSeen(from);
    expect(got).toContainEqual({ query: 'How many points do I have' });
    expect(got).toContainEqual({ query: 'any coffee offers' });
    expect(got).toContainEqual({ query: SWITCH, prior_context: 'The user was looking at Nike running shoes.' });
    // The orchestrator's routing call carried the case's history before the message.
    const routed = mock.seen.slice(from).find((s) => JSON.stringify(s.body?.messages ?? []).includes(SWITCH));
    expect(JSON.stringify(routed!.body.messages)).toContain('Show me Nike running shoes');
  }, 60_000);

  it('fails the handoff checks when the mock hands the wrong query or no prior_context', async () => {
    plan = GOOD();
    plan[MIXED]![1] = { agent: 'offer_details', args: { query: 'any offers' } };
    plan[SWITCH] = [{ agent: 'rewards', args: { query: SWITCH } }];
    const r = await run('--full');
    expect(r.code).toBe(1);
    expect(r.report.accuracy).toBe(0);
    expect(r.report.cases[0].runs[0].reasons).toEqual(['offer_details\'s query does not contain "coffee"']);
    expect(r.report.cases[1].runs[0].reasons).toEqual(['rewards got no prior_context']);
  }, 60_000);

  it('judges what the runtime delivered: a call its overlap guard drops is a missed sub-agent, not a bad query', async () => {
    plan = GOOD();
    // No content word of the user's message: the orchestrator's dispatch.guards (overlap) drop this call.
    plan[MIXED]![1] = { agent: 'offer_details', args: { query: 'cheap snack deals' } };
    const routingOnly = await run();
    expect(routingOnly.report.cases[0].runs[0].reasons).toEqual(['offer_details\'s query does not contain "coffee"']);
    const from = mock.seen.length;
    const full = await run('--full');
    expect(full.report.cases[0].runs[0].reasons).toEqual(['asked rewards, expected offer_details, rewards']);
    expect(handoffsSeen(from).some((h) => String(h.query).includes('snack'))).toBe(false);
  }, 60_000);
});

describe('agentc eval --seed', () => {
  it('sends the seed in every Chat Completions body and shows it in the report', async () => {
    plan = GOOD();
    let from = mock.seen.length;
    const routingOnly = await run('--seed', '42');
    expect(routingOnly.code).toBe(0);
    expect(routingOnly.report.seed).toBe(42);
    expect(routingOnly.report.mode).toBe('routing');
    const sent = mock.seen.slice(from);
    expect(sent).toHaveLength(2);
    for (const s of sent) expect(s.body.seed).toBe(42);

    from = mock.seen.length;
    const full = await run('--full', '--seed', '7');
    expect(full.code).toBe(0);
    const all = mock.seen.slice(from);
    expect(all.length).toBeGreaterThan(4); // routing, specialists, composing
    for (const s of all) expect(s.body.seed).toBe(7);

    const pretty = await runCli(['eval', 'evals/full.yaml', '--cwd', dir, '--endpoint', mock.url, '--no-cache', '--seed', '42'], { env, cwd: dir });
    expect(pretty.stdout).toContain('routing calls, seed 42');
    const unseeded = await run();
    expect(unseeded.report.seed).toBeNull();
    expect(mock.seen.slice(-2).every((s) => !('seed' in s.body))).toBe(true);
  }, 60_000);
});
