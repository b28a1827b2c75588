/**
 * Durable sessions through the whole runtime: `agentc run --sessions sqlite:…`
 * keeps history across invocations (separate processes), and two runtimes on
 * one Redis see each other's turns and episode metadata.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../src/bundle/types.js';
import { createRecordingClient, createRuntime, createScriptedClient, createSequentialIds, type ToolHandler } from '../../../src/runtime/index.js';
import { createRedisSessionStore } from '../../../src/runtime/sessions/redis.js';
import { createSqliteSessionStore } from '../../../src/runtime/sessions/sqlite.js';
import { mustHaveRedis, redisAvailable, startRedis, type RedisServer } from './redis-server.js';

const REPO = resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'agentc-durable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = promisify(execFile);

function script(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, `llm:\n  fetch_assistant:\n    - text: "${text}"\ncontext: { principal: user-1, episode: from-script }\n`);
  return file;
}

async function agentc(message: string, scriptFile: string, db: string) {
  const { stdout } = await run(
    process.execPath,
    [
      join(REPO, 'bin/agentc.js'),
      'run',
      'fetch_assistant',
      message,
      '--script',
      scriptFile,
      '--sessions',
      `sqlite:${db}`,
      '--episode',
      'ep-cli',
      '--format',
      'json',
      '--cwd',
      REPO,
    ],
    { cwd: dir },
  );
  return JSON.parse(stdout) as { text: string; calls: { agent: string; messages: { role: string; content: string }[] }[]; record: { narration: unknown } };
}

describe('agentc run --sessions sqlite:PATH --episode ID', () => {
  it('keeps history across invocations (separate processes)', async () => {
    const db = join(dir, 'cli.db');
    const first = await agentc('Hi, I am Ana.', script('one.yaml', 'Hello Ana!'), db);
    expect(first.record.narration).toEqual({ user: 'Hi, I am Ana.', assistant: 'Hello Ana!' });
    const second = await agentc('What is my name?', script('two.yaml', 'You are Ana.'), db);
    expect(second.calls[0].messages).toEqual([
      { role: 'user', content: 'Hi, I am Ana.' },
      { role: 'assistant', content: 'Hello Ana!' },
      { role: 'user', content: 'What is my name?' },
    ]);
    const store = await createSqliteSessionStore(db);
    expect((await store.turns('ep-cli', 'fetch_assistant')).map((r) => r.narration.user)).toEqual(['Hi, I am Ana.', 'What is my name?']);
    expect(await store.turns('from-script', 'fetch_assistant')).toEqual([]); // --episode wins over the script's
    await store.close();
  });
});

describe.runIf(redisAvailable || mustHaveRedis)('two runtimes sharing one Redis', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('see each other’s turns, and a tool keeps a vendor conversation id in the episode metadata', async () => {
    const bundle = JSON.parse(readFileSync(join(REPO, 'generated/bundle.json'), 'utf8')) as Bundle;
    const seenIds: unknown[] = [];
    // A support tool that continues the vendor's conversation while its 55-minute window lasts.
    const searchHelp: ToolHandler = async (_args, ctx) => {
      const id = await ctx.session!.get('vendor_conversation_id');
      seenIds.push(id ?? null);
      if (id === undefined) await ctx.session!.set('vendor_conversation_id', 'conv-42', { ttlMs: 55 * 60_000 });
      return { articles: [] };
    };
    const tool = 'search_help_center';
    const mk = async (replies: Parameters<typeof createScriptedClient>[0]) => {
      const store = await createRedisSessionStore(server.url, { ttlMs: 60 * 60_000 });
      const rec = createRecordingClient(createScriptedClient(replies));
      const runtime = createRuntime({ bundle, llm: rec.client, tools: { [tool]: searchHelp }, sessions: store, ids: createSequentialIds('r') });
      return { store, rec, runtime };
    };
    const support = (text: string) => [{ tool_calls: [{ name: tool, arguments: { query: 'missing points' } }] }, { text }];
    const a = await mk({
      fetch_assistant: [{ tool_calls: [{ name: 'ask_support', arguments: { query: 'points missing', intent_count: 1 } }] }, { text: 'Looking into it.' }],
      support: support('Checked.'),
    });
    const b = await mk({
      fetch_assistant: [{ tool_calls: [{ name: 'ask_support', arguments: { query: 'any news?', intent_count: 1 } }] }, { text: 'Still on it.' }],
      support: support('Still checking.'),
    });
    const context = { principal: 'user-1', episode: 'shared-ep' };
    await a.runtime.turn({ agent: 'fetch_assistant', message: 'points missing', context });
    await b.runtime.turn({ agent: 'fetch_assistant', message: 'any news?', context });
    // Runtime b read runtime a's turn — the orchestrator's and the support agent's own.
    expect(b.rec.calls.find((c) => c.agent === 'fetch_assistant')!.messages.slice(0, 2)).toEqual([
      { role: 'user', content: 'points missing' },
      { role: 'assistant', content: 'Looking into it.\n[handled by: support]' },
    ]);
    expect(
      b.rec.calls
        .find((c) => c.agent === 'support')!
        .messages.slice(0, 2)
        .map((m) => m.content),
    ).toEqual(['{"query":"points missing"}', 'Checked.']);
    expect(seenIds).toEqual([null, 'conv-42']);
    expect((await a.store.turns('shared-ep', 'fetch_assistant')).map((r) => r.handled_by)).toEqual([['support'], ['support']]);
    await a.store.close();
    await b.store.close();
  });
});
