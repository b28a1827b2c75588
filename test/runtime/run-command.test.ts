/**
 * `agentc run` (docs/run-script.md): scripted replay on the real example workspace,
 * the json output contract, usage errors (exit 2), workspace errors (exit 1).
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCommand, type RunDeps, type RunOptions } from '../../src/cli/commands/run.js';
import type { CliIO } from '../../src/cli/io.js';
import type { CompileResult } from '../../src/compile.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { tempDir } from '../helpers/temp-dirs.js';
import type { CallRecord, RuntimeEvent } from '../../src/runtime/index.js';
import { makeBundle } from './fixtures/bundle.js';
import { sharedCompileCache } from '../helpers/shared-config.js';

/** Runs reuse the repo's evaluated config (test/helpers/shared-config.ts). */
const compileCache = sharedCompileCache();

const REPO = resolve(import.meta.dirname, '../..');
const SCRIPTS = join(import.meta.dirname, 'fixtures/scripts');

function io(env: Record<string, string> = {}) {
  const out = { stdout: '', stderr: '' };
  const cli: CliIO = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), cwd: REPO, env, isTTY: false, compileCache };
  return { cli, out };
}

async function run(opts: Partial<RunOptions>, deps: RunDeps = {}, env: Record<string, string> = {}) {
  const { cli, out } = io(env);
  const code = await runCommand({ agent: 'fetch_assistant', message: 'points and cold brew?', format: 'json', cwd: REPO, ...opts }, cli, deps);
  return { code, ...out };
}

const stubCompile =
  (over: Partial<CompileResult> = {}): RunDeps['compile'] =>
  async () => ({
    diagnostics: [],
    files: new Map(),
    program: undefined,
    bundle: makeBundle(),
    fatal: undefined,
    ...over,
  });

function tmpScript(text: string): string {
  const dir = tempDir('agentc-run-');
  writeFileSync(join(dir, 's.yaml'), text);
  return join(dir, 's.yaml');
}

describe('scripted replay on the example workspace', () => {
  test('--format json: text, events (incl. routing), calls in start order with what each model was shown', async () => {
    const r = await run({ script: join(SCRIPTS, 'points-and-products.yaml') });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { text: string; events: RuntimeEvent[]; calls: CallRecord[] };
    expect(Object.keys(out)).toEqual(['calls', 'events', 'formatVersion', 'record', 'text']);
    expect(out.text).toBe('You have 12,400 points, and cold brew concentrate starts at $6.99.');
    expect(out.events.filter((e) => e.type === 'status').map((e) => e.type === 'status' && e.text)).toEqual([
      'Checking your points…',
      'Looking through products…',
    ]);
    expect(out.events.at(-1)).toMatchObject({ type: 'turn_end', outcome: 'ok' });
    const routing = out.events.at(-2)!;
    expect(routing).toMatchObject({
      type: 'routing',
      invoked: ['rewards', 'shop'],
      intent_count: 2,
      cap: { limit: 3, requested: 2, dropped: [] },
      outcomes: { rewards: 'ok', shop: 'ok' },
    });

    expect(out.calls.map((c) => c.agent)).toEqual(['fetch_assistant', 'rewards', 'shop', 'rewards', 'shop', 'fetch_assistant']);
    const starts = out.calls.map((c) => c.started_ms);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    const [root, rewards1, shop1, , shop2, compose] = out.calls;
    // The two sub-agents overlap in time (rewards' second call ends after shop's first started).
    expect(shop1.started_ms).toBeLessThan(out.calls[3].ended_ms);
    expect(compose.started_ms).toBeGreaterThanOrEqual(Math.max(out.calls[3].ended_ms, shop2.ended_ms));
    expect(root.tools).toContain('ask_rewards');
    expect(root.system.suffix).toBe('<context>\nDate: 2026-11-21\nLocale: en-US\nLocation: Chicago\n</context>');
    expect(root.system.prefix_sha256).toMatch(/^[0-9a-f]{64}$/);
    // fetch_assistant declares the verbatim guard: a message of four words or fewer reaches every specialist as is.
    expect(rewards1.messages).toEqual([{ content: '{"query":"points and cold brew?"}', role: 'user' }]);
    expect(rewards1.tools).toEqual(['get_user_points', 'get_redemption_history', 'calculate_redemption']);
  });

  test('replays are reproducible apart from the millisecond timings', async () => {
    const strip = (s: string) => s.replace(/"(started|ended|at)_ms": \d+/g, '"$1_ms": 0');
    const a = await run({ script: join(SCRIPTS, 'points-and-products.yaml') });
    const b = await run({ script: join(SCRIPTS, 'points-and-products.yaml') });
    expect(strip(a.stdout)).toBe(strip(b.stdout));
  });

  test('--format text: the answer on stdout; status lines and a routing summary on stderr', async () => {
    const r = await run({ script: join(SCRIPTS, 'points-and-products.yaml'), format: 'text' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('You have 12,400 points, and cold brew concentrate starts at $6.99.\n');
    expect(r.stderr).toBe('› Checking your points…\n› Looking through products…\nrouting: rewards=ok shop=ok (cap 3, within)\n');
  });

  test('--format jsonl: one event per line as it happens, turn_start first and turn_end last; the deltas are the text', async () => {
    const r = await run({ script: join(SCRIPTS, 'points-and-products.yaml'), format: 'jsonl' });
    expect(r.code).toBe(0);
    const events = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as RuntimeEvent);
    expect(events[0].type).toBe('turn_start');
    expect(events.at(-1)).toMatchObject({ type: 'turn_end', outcome: 'ok' });
    const text = events.find((e) => e.type === 'text');
    expect(text?.type === 'text' && text.text).toBe(events.flatMap((e) => (e.type === 'text_delta' ? [e.delta] : [])).join(''));
    expect(r.stderr).toBe('');
  });

  test('--format text on a terminal: the text streams to stdout, statuses dimmed on stderr', async () => {
    const chunks: string[] = [];
    let stderr = '';
    const cli: CliIO = { stdout: (t) => void chunks.push(t), stderr: (t) => void (stderr += t), cwd: REPO, env: {}, isTTY: true, compileCache };
    const code = await runCommand(
      { agent: 'fetch_assistant', message: 'points and cold brew?', format: 'text', cwd: REPO, script: join(SCRIPTS, 'points-and-products.yaml') },
      cli,
    );
    expect(code).toBe(0);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.join('')).toBe('You have 12,400 points, and cold brew concentrate starts at $6.99.\n');
    expect(stderr).toContain('\x1b[2m› Checking your points…\x1b[22m\n');
  });

  test('a script that runs out of replies for the root → exit 2 naming the agent', async () => {
    const r = await run({ script: join(SCRIPTS, 'root-exhausted.yaml') });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('no reply left for agent "fetch_assistant"');
    expect(r.stderr).toContain('llm.fetch_assistant');
  });
});

describe('usage errors exit 2', () => {
  test('both --script and --endpoint', async () => {
    const both = await run({ script: 'x.yaml', endpoint: 'http://127.0.0.1:1/v1' });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('pass --script FILE (replay a scripted turn) or real providers (optionally --endpoint URL), not both.');
  });

  test('an unreadable script', async () => {
    const r = await run({ script: join(SCRIPTS, 'missing.yaml') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot read script test/runtime/fixtures/scripts/missing.yaml: no such file');
  });

  test('a script that is not YAML → positions', async () => {
    const r = await run({ script: join(SCRIPTS, 'broken.yaml') });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^test\/runtime\/fixtures\/scripts\/broken\.yaml:\d+:\d+ - error: /);
  });

  test('a script with shape errors → each at its line, with did-you-mean', async () => {
    const r = await run({ script: join(SCRIPTS, 'typo.yaml') });
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toContain(
      'test/runtime/fixtures/scripts/typo.yaml:3:7 - error: llm.fetch_assistant[0].tool_call: unknown key "tool_call"; expected one of delay_ms, chunk_ms, text, tool_calls, error, status, usage. Did you mean "tool_calls"?',
    );
    expect(lines.some((l) => l.startsWith('test/runtime/fixtures/scripts/typo.yaml:4:') && l.includes('delay_ms: must be a number'))).toBe(true);
    expect(lines.some((l) => l.includes('tools.get_user_points.throw: a tool either returns `result` or `throw`s'))).toBe(true);
    expect(lines.at(-1)).toBe('agentc run: invalid script test/runtime/fixtures/scripts/typo.yaml.');
  });

  test('a script naming unknown agents or tools', async () => {
    const r = await run({ script: join(SCRIPTS, 'unknown-names.yaml') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown-names.yaml:2:3 - error: llm.fetch_asistant: unknown agent "fetch_asistant". Did you mean "fetch_assistant"?');
    expect(r.stderr).toContain('tools.get_user_pionts: unknown tool "get_user_pionts". Did you mean "get_user_points"?');
  });

  test('an unknown agent or flag', async () => {
    const script = tmpScript('llm: { concierge: [ { text: hi } ] }\n');
    const a = await run({ script, agent: 'concierg' }, { compile: stubCompile() });
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('unknown agent "concierg". Did you mean "concierge"?');
    const f = await run({ script, agent: 'concierge', flags: ['v3'] }, { compile: stubCompile() });
    expect(f.code).toBe(2);
    expect(f.stderr).toContain('unknown feature flag "v3". Did you mean "v2"?');
  });
});

describe('workspace and root failures', () => {
  test('a workspace with errors → its diagnostics on stderr, exit 1, no turn', async () => {
    const d: Diagnostic = {
      code: 'AGC2001',
      rule: 'unknown-tool',
      severity: 'error',
      message: 'Card "rewards" uses tool "get_user_pionts", which is not declared in schemas/tools/.',
      file: 'cards/rewards.yaml',
      range: { start: { line: 9, column: 26 }, end: { line: 9, column: 41 } },
    };
    const script = tmpScript('llm: { concierge: [ { text: hi } ] }\n');
    const r = await run({ script, agent: 'concierge' }, { compile: stubCompile({ diagnostics: [d], bundle: undefined }) });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('cards/rewards.yaml:9:26 - error AGC2001 unknown-tool: Card "rewards" uses tool');
  });

  test('the root’s model failing on primary and fallback → exit 1, json with the error and events', async () => {
    const script = tmpScript('llm: { concierge: [ { error: "RAW-1" }, { error: "RAW-2" } ] }\n');
    const r = await run({ script, agent: 'concierge' }, { compile: stubCompile() });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { error: { kind: string }; text: null; calls: CallRecord[] };
    expect(out.error).toEqual({ agent: 'concierge', kind: 'error', message: 'The concierge specialist ran into a problem and could not answer.' });
    expect(out.calls.map((c) => c.model)).toEqual(['orch-model', 'fallback-model']);
    expect(r.stdout).not.toContain('RAW-');
  });

  test('--endpoint: the model’s API (Chat Completions here) with OPENAI_API_KEY', async () => {
    const seen: { url: string; auth: string | null; body: any }[] = [];
    const fetchStub = (async (url: string | URL | Request, init?: RequestInit) => {
      seen.push({ url: String(url), auth: new Headers(init?.headers).get('authorization'), body: JSON.parse(String(init?.body)) });
      return new Response(
        JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Hi from the endpoint.' } }], usage: { prompt_tokens: 3, completion_tokens: 4 } }),
        {
          headers: { 'content-type': 'application/json' },
        },
      );
    }) as typeof fetch;
    const bundle = makeBundle();
    for (const m of Object.values(bundle.models)) m.api = 'openai-chat';
    const r = await run(
      { endpoint: 'http://127.0.0.1:9/v1/', agent: 'concierge', format: 'text', flags: ['v2'] },
      { compile: stubCompile({ bundle }), fetch: fetchStub },
      { OPENAI_API_KEY: 'sk-env' },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Hi from the endpoint.\n');
    expect(seen).toHaveLength(1);
    expect(seen[0].url).toBe('http://127.0.0.1:9/v1/chat/completions');
    expect(seen[0].auth).toBe('Bearer sk-env');
    expect(seen[0].body.messages[0].content).toContain('Cohort v2');
  });
});
