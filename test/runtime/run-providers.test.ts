/**
 * `agentc run` against real providers (mocks on 127.0.0.1): each model's API,
 * keys and base URLs from the SDKs' environment variables, `--endpoint` for
 * every provider, a missing key warned about before the call, and the raw
 * cause of a failure (HTTP status + provider message, or the errno) on stderr
 * once — while the answer and the model see only the typed failure.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { runCommand, type RunDeps, type RunOptions } from '../../src/cli/commands/run.js';
import type { CliIO } from '../../src/cli/io.js';
import type { Bundle } from '../../src/runtime/index.js';
import { makeBundle } from './fixtures/bundle.js';
import { ANTHROPIC_STREAM, RESPONSES_STREAM } from './providers/fixtures.js';
import { json, sse, startMock, type Mock } from './providers/mock-server.js';
import { sharedCompileCache } from '../helpers/shared-config.js';

/** Runs reuse the repo's evaluated config (test/helpers/shared-config.ts). */
const compileCache = sharedCompileCache();

const REPO = resolve(import.meta.dirname, '../..');
let mock: Mock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock.close());
beforeEach(() => {
  mock.seen.length = 0;
});

/** A one-agent bundle: `concierge` alone (no sub-agents), on `model`. */
function bundleWith(model: Partial<Bundle['models'][string]>): Bundle {
  const b = makeBundle();
  const agent = b.agents.concierge!;
  b.models = { 'orch-model': { ...b.models['orch-model']!, ...model } };
  b.agents = {
    concierge: {
      ...agent,
      fallback_model: undefined,
      sub_agents: [],
      tools: { neutral: [], openai: [], anthropic: [] },
      dispatch: { ...agent.dispatch, table: {} },
    },
  };
  return b;
}

async function run(opts: Partial<RunOptions>, bundle: Bundle, env: Record<string, string> = {}) {
  const out = { stdout: '', stderr: '' };
  const io: CliIO = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), cwd: REPO, env, isTTY: false, compileCache };
  const deps: RunDeps = { compile: async () => ({ diagnostics: [], files: new Map(), program: undefined, bundle, fatal: undefined }) };
  const code = await runCommand({ agent: 'concierge', message: 'hello', format: 'text', cwd: REPO, ...opts }, io, deps);
  return { code, ...out };
}

const textOnly = (stream: typeof RESPONSES_STREAM) =>
  stream.filter(
    (e) => !JSON.stringify(e.data).includes('function_call') && !JSON.stringify(e.data).includes('tool_use') && !JSON.stringify(e.data).includes('input_json'),
  );

test('an openai model without --endpoint: OPENAI_BASE_URL and OPENAI_API_KEY, the Responses API', async () => {
  mock.handle((s, res) => (s.path === '/v1/responses' ? sse(res, textOnly(RESPONSES_STREAM)) : json(res, 404, {})));
  const r = await run({}, bundleWith({ provider: 'openai' }), { OPENAI_BASE_URL: `${mock.url}/v1`, OPENAI_API_KEY: 'sk-env' });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toBe('Let me check — ü.\n');
  expect(mock.seen[0]!.headers.authorization).toBe('Bearer sk-env');
  expect(mock.seen[0]!.body.prompt_cache_key).toMatch(/^agentc:concierge:[0-9a-f]{16}$/);
});

test('an anthropic model: ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY, the Messages API', async () => {
  mock.handle((s, res) => (s.path === '/v1/messages' ? sse(res, textOnly(ANTHROPIC_STREAM)) : json(res, 404, {})));
  const r = await run({}, bundleWith({ provider: 'anthropic' }), { ANTHROPIC_BASE_URL: mock.url, ANTHROPIC_API_KEY: 'sk-ant' });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe('Let me check — ü.\n');
  expect(mock.seen[0]!.headers['x-api-key']).toBe('sk-ant');
  expect(mock.seen[0]!.body.system[0].cache_control).toEqual({ type: 'ephemeral' });
});

test('a missing key is a warning before the call; a 401 names the status and the provider message on stderr, once', async () => {
  mock.handle((_s, res) => json(res, 401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } }));
  const r = await run({ endpoint: `${mock.url}/v1` }, bundleWith({ provider: 'openai' }), { OPENAI_BASE_URL: 'http://ignored.invalid/v1' });
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines[0]).toBe(
    `warning: OPENAI_API_KEY is not set: calls to ${mock.url}/v1 (models orch-model) go without an API key and a real provider will refuse them (HTTP 401).`,
  );
  expect(lines.filter((l) => l.includes('HTTP 401'))).toEqual([
    lines[0],
    'agentc run: model call of agent "concierge" (orch-model) failed: OpenAI Responses answered HTTP 401: Incorrect API key provided. (invalid_request_error)',
  ]);
  // What the caller (and any model) sees is the typed failure only.
  expect(lines.at(-1)).toMatch(/^agentc run: .*\(error\)$/);
  expect(lines.at(-1)).not.toContain('Incorrect API key');
});

test('a refused connection names the errno', async () => {
  const closed = await startMock();
  await closed.close();
  const r = await run({ endpoint: closed.url }, bundleWith({ provider: 'anthropic' }), { ANTHROPIC_API_KEY: 'k' });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`agentc run: model call of agent "concierge" (orch-model) failed: cannot reach ${closed.url}/v1/messages: ECONNREFUSED\n`);
  expect(r.stderr).not.toContain('warning:');
}, 20_000);

test('the stderr reporter: one line per raw cause, each error object once, control characters removed', async () => {
  const { setupProviders } = await import('../../src/cli/run-providers.js');
  let err = '';
  const { onError } = setupProviders({ bundle: bundleWith({ provider: 'openai' }), env: { OPENAI_API_KEY: 'k' }, stderr: (t) => void (err += t) });
  const boom = new Error('handler exploded\n\tat line 3');
  onError(boom, { agent: 'billing', span_id: 'x', kind: 'tool', tool: 'get_invoices' });
  onError(boom, { agent: 'billing', span_id: 'x', kind: 'model' });
  onError('store offline', { agent: 'concierge', span_id: 'y', kind: 'session' });
  expect(err).toBe(
    'agentc run: tool get_invoices of agent "billing" threw: handler exploded at line 3\nagentc run: session store failed for agent "concierge": store offline\n',
  );
});
