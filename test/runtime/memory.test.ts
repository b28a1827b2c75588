/**
 * Conversation memory end to end on the repo's own bundle (generated/bundle.json):
 * compaction over 200 turns, budget trimming, the handled-by note and
 * prior_context on a topic switch, each query guard on its own scripted turn.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { Bundle } from '../../src/bundle/types.js';
import { SUMMARY_HEADER } from '../../src/runtime/history.js';
import {
  createMemorySessionStore,
  createRecordingClient,
  createRuntime,
  createScriptedClient,
  createScriptedTools,
  createSequentialIds,
  type LlmClient,
  type LlmRequest,
  type RuntimeEvent,
  type RuntimeOptions,
  type Script,
  type TurnStore,
} from '../../src/runtime/index.js';

const ROOT = 'fetch_assistant';
const loadBundle = (): Bundle => JSON.parse(readFileSync(new URL('../../generated/bundle.json', import.meta.url), 'utf8')) as Bundle;
const tokens = (t: string) => encode(t).length;
const requestTokens = (r: LlmRequest) =>
  tokens(r.system.prefix) +
  tokens(r.system.suffix) +
  r.messages.reduce(
    (n, m) => n + 4 + tokens(m.content) + (m.role === 'assistant' ? (m.toolCalls ?? []).reduce((k, c) => k + tokens(c.name) + tokens(c.arguments), 0) : 0),
    0,
  );
const ctx = (episode: string) => ({ principal: 'user-1', episode, locale: 'en-US', location: 'Chicago', date: '2026-11-21' });

function runtimeWith(bundle: Bundle, llm: LlmClient, extra: Partial<RuntimeOptions> = {}) {
  const events: RuntimeEvent[] = [];
  const runtime = createRuntime({ bundle, llm, tools: {}, ids: createSequentialIds('memory'), onEvent: (e) => events.push(e), ...extra });
  return { runtime, events };
}

/** A model that answers every root turn with a long-ish text and writes summaries naming the last turn folded. */
function chattyModel() {
  const requests: LlmRequest[] = [];
  const client: LlmClient = {
    async complete(req) {
      requests.push(req);
      if (req.agent === `${ROOT}:summary`) {
        const users = [...req.messages[0].content.matchAll(/User: (question \d+)/g)].map((m) => m[1]);
        return {
          text: `The user asked ${users.length} more questions, the last being ${users.at(-1)}.`,
          toolCalls: [],
          usage: { inputTokens: 10, outputTokens: 10 },
        };
      }
      const last = req.messages.at(-1)!.content;
      return { text: `Here is a detailed answer to ${last}: ${'points and offers '.repeat(12)}`, toolCalls: [], usage: { inputTokens: 1, outputTokens: 1 } };
    },
  };
  return { client, requests };
}

describe('compaction (FR-11)', () => {
  it('200 turns stay within max_tokens and token_budget.input: the last turns verbatim, a summary in front', async () => {
    const bundle = loadBundle();
    bundle.agents[ROOT].history = { max_tokens: 1200, keep_last_turns: 3, summary_model: 'gpt-5.4-nano' };
    const { client, requests } = chattyModel();
    const store = createMemorySessionStore();
    const { runtime } = runtimeWith(bundle, client, { sessions: store });
    for (let i = 0; i < 200; i++) await runtime.turn({ agent: ROOT, message: `question ${i}`, context: ctx('long') });

    const rootCalls = requests.filter((r) => r.agent === ROOT);
    const summaryCalls = requests.filter((r) => r.agent === `${ROOT}:summary`);
    expect(rootCalls).toHaveLength(200);
    expect(summaryCalls.length).toBeGreaterThan(5);
    expect(summaryCalls.every((r) => r.model.id === 'gpt-5.4-nano')).toBe(true);
    const budget = bundle.agents[ROOT].policy.token_budget!.input!;
    const prefix = tokens(rootCalls[0].system.prefix) + tokens(rootCalls[0].system.suffix);
    for (const r of rootCalls) {
      expect(requestTokens(r)).toBeLessThanOrEqual(budget);
      // History (all but the current message) stays near max_tokens: it is compacted once it passes it.
      expect(requestTokens({ ...r, messages: r.messages.slice(0, -1) }) - prefix).toBeLessThanOrEqual(1200 + 400);
    }
    const last = rootCalls.at(-1)!.messages;
    expect(last[0].role).toBe('user');
    expect(last[0].content.startsWith(SUMMARY_HEADER)).toBe(true);
    const verbatim = last
      .slice(1)
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(verbatim.slice(-4)).toEqual(['question 196', 'question 197', 'question 198', 'question 199']);
    expect(last.at(-2)!.content.startsWith('Here is a detailed answer to question 198')).toBe(true);
    // The summary lives with the session, and every turn is still stored in full for audit.
    expect(await store.getMeta('long', `agentc.summary.${ROOT}`)).toMatchObject({ text: expect.stringContaining('question') });
    expect(await store.turns('long', ROOT)).toHaveLength(200);
  });

  it('without a history policy the oldest turns are trimmed so every request fits token_budget.input', async () => {
    const bundle = loadBundle();
    delete bundle.agents[ROOT].history;
    const { client, requests } = chattyModel();
    const probe = runtimeWith(bundle, client);
    await probe.runtime.turn({ agent: ROOT, message: 'question 0', context: ctx('probe') });
    const fixed = requestTokens(requests[0]);
    const budget = fixed + 800;
    bundle.agents[ROOT].policy.token_budget = { input: budget, output: 2000 };
    requests.length = 0;
    const store = createMemorySessionStore();
    const { runtime } = runtimeWith(bundle, client, { sessions: store });
    for (let i = 0; i < 60; i++) await runtime.turn({ agent: ROOT, message: `question ${i}`, context: ctx('trim') });
    // The window's start is stored, so later turns read only from there.
    const window = (await store.getMeta('trim', `agentc.window.${ROOT}`)) as number;
    expect(window).toBeGreaterThan(30);
    const firstShown = Number(/^question (\d+)$/.exec(requests.at(-1)!.messages[0].content)![1]);
    expect(firstShown).toBeGreaterThanOrEqual(window); // the request-level trim may drop one more for the current message
    for (const r of requests) expect(requestTokens(r)).toBeLessThanOrEqual(budget);
    const last = requests.at(-1)!.messages;
    expect(last.at(-1)!.content).toBe('question 59');
    expect(last[0].role).toBe('user'); // whole turns dropped: the history still starts with a user message
    expect(last.length).toBeGreaterThan(4);
  });

  it('a scripted run takes the summarizer’s replies from llm["<agent>:summary"]', async () => {
    const bundle = loadBundle();
    bundle.agents[ROOT].history = { max_tokens: 60, keep_last_turns: 1 };
    const store = createMemorySessionStore();
    const script: Script['llm'] = {
      [ROOT]: [
        { text: 'First answer, which is long enough to pass sixty tokens once the second turn is stored. '.repeat(2) },
        { text: 'Second answer, also long enough to count for something here. '.repeat(2) },
        { text: 'Third.' },
      ],
      [`${ROOT}:summary`]: [{ text: 'SUMMARY: the user asked twice.' }],
    };
    const rec = createRecordingClient(createScriptedClient(script));
    const { runtime } = runtimeWith(bundle, rec.client, { sessions: store });
    for (const m of ['one', 'two', 'three']) await runtime.turn({ agent: ROOT, message: m, context: ctx('scripted') });
    const third = rec.calls.filter((c) => c.agent === ROOT)[2];
    expect(third.messages[0].content).toBe(`${SUMMARY_HEADER}\nSUMMARY: the user asked twice.`);
    expect(third.messages.slice(1).map((m) => m.content)).toEqual(['two', expect.stringContaining('Second answer'), 'three']);
  });
});

describe('memory on the streaming turn flow', () => {
  it('the summarizer is a model call of its agent: model_start/model_end with the summary model, its usage in the turn and the agent', async () => {
    const bundle = loadBundle();
    bundle.agents[ROOT].history = { max_tokens: 60, keep_last_turns: 1, summary_model: 'gpt-5.4-nano' };
    const script: Script['llm'] = {
      [ROOT]: [
        { text: 'First answer, which is long enough to pass sixty tokens once the second turn is stored. '.repeat(2) },
        { text: 'Second answer, also long enough to count for something here. '.repeat(2) },
        { text: 'Third.' },
      ],
      [`${ROOT}:summary`]: [{ text: 'SUMMARY: the user asked twice.', usage: { inputTokens: 70, outputTokens: 7 } }],
    };
    const { runtime, events } = runtimeWith(bundle, createScriptedClient(script), { sessions: createMemorySessionStore() });
    for (const m of ['one', 'two']) await runtime.turn({ agent: ROOT, message: m, context: ctx('summary-events') });
    events.length = 0;
    const third = await runtime.turn({ agent: ROOT, message: 'three', context: ctx('summary-events') });
    const models = third.events.filter((e) => e.type === 'model_start' || e.type === 'model_end');
    expect(models.map((e) => [e.type, e.type === 'model_start' || e.type === 'model_end' ? e.model : ''])).toEqual([
      ['model_start', 'gpt-5.4-nano'],
      ['model_end', 'gpt-5.4-nano'],
      ['model_start', bundle.agents[ROOT].model],
      ['model_end', bundle.agents[ROOT].model],
    ]);
    expect(models[1]).toMatchObject({ outcome: 'ok', usage: { inputTokens: 70, outputTokens: 7 } });
    expect(third.usage.inputTokens).toBeGreaterThanOrEqual(70);
    expect(third.record?.usage.inputTokens).toBe(third.usage.inputTokens);
  });

  it("the root's record keeps its preamble and answer as parts; later turns read them as separate messages", async () => {
    const bundle = loadBundle();
    const script: Script['llm'] = {
      [ROOT]: [
        { text: 'Let me check your points.', tool_calls: [{ name: 'ask_rewards', arguments: { query: 'How many points do I have?', intent_count: 1 } }] },
        { text: 'You have 12,500 points.' },
        { text: 'Anything else?' },
      ],
      rewards: [{ text: '12,500 points.' }],
    };
    const rec = createRecordingClient(createScriptedClient(script));
    const { runtime } = runtimeWith(bundle, rec.client, { sessions: createMemorySessionStore() });
    const first = await runtime.turn({ agent: ROOT, message: 'How many points do I have?', context: ctx('parts') });
    expect(first.text).toBe('Let me check your points.\n\nYou have 12,500 points.');
    expect(first.record?.narration).toEqual({
      user: 'How many points do I have?',
      assistant: first.text,
      parts: ['Let me check your points.', 'You have 12,500 points.'],
    });
    expect(first.record?.handled_by).toEqual(['rewards']);
    expect(first.record?.tool_results.map((r) => r.name)).toEqual(['ask_rewards']);
    await runtime.turn({ agent: ROOT, message: 'thanks', context: ctx('parts') });
    const second = rec.calls.filter((c) => c.agent === ROOT)[2];
    expect(second.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'How many points do I have?'],
      ['assistant', 'Let me check your points.'],
      ['assistant', 'You have 12,500 points.\n[handled by: rewards]'],
      ['user', 'thanks'],
    ]);
  });
});

describe('layered history (FR-10) and prior_context on a topic switch (FR-8)', () => {
  it('records tool calls, results and sub-agent outcomes apart from the narration; a switch rewards → shop gives shop a prior_context', async () => {
    const bundle = loadBundle();
    const seen: LlmRequest[] = [];
    // The orchestrator model: it writes prior_context from the handled-by note, as its prompt instructs.
    const client: LlmClient = {
      async complete(req) {
        seen.push(req);
        const lastUser = [...req.messages].reverse().find((m) => m.role === 'user')!.content;
        const hasResults = req.messages.at(-1)!.role === 'tool';
        if (req.agent === ROOT && !hasResults) {
          if (lastUser.includes('points'))
            return {
              text: '',
              toolCalls: [{ id: 'c1', name: 'ask_rewards', arguments: JSON.stringify({ query: lastUser, intent_count: 1 }) }],
              usage: { inputTokens: 5, outputTokens: 5 },
            };
          const previous = req.messages.filter((m) => m.role === 'assistant' && m.content.includes('[handled by: rewards]'));
          const prior = previous.length > 0 ? `Earlier the rewards specialist said: ${previous.at(-1)!.content.split('\n')[0]}` : undefined;
          return {
            text: '',
            toolCalls: [
              { id: 'c2', name: 'ask_shop', arguments: JSON.stringify({ query: lastUser, intent_count: 1, ...(prior ? { prior_context: prior } : {}) }) },
            ],
            usage: { inputTokens: 5, outputTokens: 5 },
          };
        }
        if (req.agent === ROOT)
          return {
            text: req.messages.at(-1)!.role === 'tool' ? `Answer: ${JSON.parse(req.messages.at(-1)!.content).answer}` : 'ok',
            toolCalls: [],
            usage: { inputTokens: 5, outputTokens: 5 },
          };
        if (req.agent === 'rewards') return { text: 'You have 12,500 points.', toolCalls: [], usage: { inputTokens: 3, outputTokens: 3 } };
        return { text: 'Two coffee deals are live.', toolCalls: [], usage: { inputTokens: 3, outputTokens: 3 } };
      },
    };
    const store = createMemorySessionStore();
    const { runtime } = runtimeWith(bundle, client, { sessions: store });
    const t1 = await runtime.turn({ agent: ROOT, message: 'How many points do I have?', context: ctx('switch') });
    await runtime.turn({ agent: ROOT, message: 'Show me coffee deals', context: ctx('switch') });

    // The record keeps the layers apart; the model's later view holds narration + the note only.
    expect(t1.record).toMatchObject({
      narration: { user: 'How many points do I have?', assistant: 'Answer: You have 12,500 points.' },
      handled_by: ['rewards'],
      tool_calls: [{ name: 'ask_rewards' }],
      sub_agents: [{ agent: 'rewards', tool: 'ask_rewards', outcome: 'ok' }],
    });
    expect(t1.record!.tool_results[0].content).toContain('12,500');
    expect((await store.turns('switch', ROOT))[0]).toEqual(t1.record);
    const secondRoot = seen.filter((r) => r.agent === ROOT)[2];
    expect(secondRoot.messages).toEqual([
      { role: 'user', content: 'How many points do I have?' },
      { role: 'assistant', content: 'Answer: You have 12,500 points.\n[handled by: rewards]' },
      { role: 'user', content: 'Show me coffee deals' },
    ]);
    const shop = seen.find((r) => r.agent === 'shop')!;
    expect(JSON.parse(shop.messages.at(-1)!.content)).toEqual({
      query: 'Show me coffee deals',
      prior_context: 'Earlier the rewards specialist said: Answer: You have 12,500 points.',
    });
  });
});

describe('query guards, each on its own scripted turn', () => {
  function guarded(llm: Script['llm'], extra: Partial<RuntimeOptions> = {}, sessions: TurnStore = createMemorySessionStore()) {
    const bundle = loadBundle();
    bundle.agents[ROOT].dispatch.guards = { verbatim: true, overlap: true, echo: true };
    const rec = createRecordingClient(createScriptedClient(llm));
    const events: RuntimeEvent[] = [];
    const runtime = createRuntime({
      bundle,
      llm: rec.client,
      tools: createScriptedTools({}),
      ids: createSequentialIds('g'),
      onEvent: (e) => events.push(e),
      sessions,
      ...extra,
    });
    const turn = (message: string) => runtime.turn({ agent: ROOT, message, context: ctx('guards') });
    const routing = () => events.filter((e) => e.type === 'routing').at(-1) as Extract<RuntimeEvent, { type: 'routing' }>;
    const handoff = (agent: string, i = 0) => JSON.parse(rec.calls.filter((c) => c.agent === agent)[i].messages.at(-1)!.content);
    return { turn, routing, handoff, calls: rec.calls };
  }

  it('verbatim: a single call gets the user’s exact words', async () => {
    const g = guarded({
      [ROOT]: [{ tool_calls: [{ name: 'ask_shop', arguments: { query: 'cheap running shoes', intent_count: 1 } }] }, { text: 'done' }],
      shop: [{ text: 'Here are some shoes.' }],
    });
    await g.turn('do you have running shoes under $80?');
    expect(g.handoff('shop')).toEqual({ query: 'do you have running shoes under $80?' });
    expect(g.routing().guards).toEqual([{ guard: 'verbatim', tool: 'ask_shop', action: 'query_replaced' }]);
  });

  it('overlap: in a mixed turn, a call sharing no content word with the message is dropped, never run', async () => {
    const g = guarded({
      [ROOT]: [
        {
          tool_calls: [
            { name: 'ask_rewards', arguments: { query: 'points balance', intent_count: 2 } },
            { name: 'ask_play', arguments: { query: 'games to play', intent_count: 2 } },
          ],
        },
        { text: 'done' },
      ],
      rewards: [{ text: '12,500 points.' }],
    });
    const out = await g.turn('what is my points balance and when do my receipts count');
    expect(g.routing().invoked).toEqual(['rewards']);
    expect(g.routing().guards).toEqual([{ guard: 'overlap', tool: 'ask_play', action: 'dropped' }]);
    expect(g.handoff('rewards')).toEqual({ query: 'points balance' }); // a split that shares words is kept
    const composed = g.calls.filter((c) => c.agent === ROOT)[1].messages.filter((m) => m.role === 'tool');
    expect(composed.map((m) => (m.role === 'tool' ? m.name : ''))).toEqual(['ask_rewards', 'ask_play']);
    expect(JSON.parse(composed[1].content)).toMatchObject({ ok: false, skipped: 'query_guard' });
    expect(out.outcomes).toEqual({ rewards: 'ok' });
  });

  it('echo: a short reply to the specialist’s question goes back to that specialist', async () => {
    const g = guarded({
      [ROOT]: [
        { tool_calls: [{ name: 'ask_support', arguments: { query: 'my points are missing', intent_count: 1 } }] },
        { text: 'Sorry about that. Is it from a Fetch Shop purchase?' },
        { tool_calls: [{ name: 'ask_shop', arguments: { query: 'Fetch shop', intent_count: 1 } }] },
        { text: 'Thanks, support is on it.' },
      ],
      support: [{ text: 'Is it from a Fetch Shop purchase?' }, { text: 'Fetch Shop purchases post within 48 hours.' }],
    });
    await g.turn('my points are missing');
    await g.turn('Fetch shop');
    expect(g.routing().invoked).toEqual(['support']);
    expect(g.routing().guards).toEqual([{ guard: 'echo', tool: 'ask_shop', action: 'rerouted', to: 'ask_support' }]);
    expect(g.handoff('support', 1)).toEqual({ query: 'Fetch shop' });
    expect(g.calls.some((c) => c.agent === 'shop')).toBe(false);
  });

  it('a service guard (calls, ctx) => calls runs after the declared ones and is recorded', async () => {
    const g = guarded(
      {
        [ROOT]: [{ tool_calls: [{ name: 'ask_shop', arguments: { query: 'x', intent_count: 1 } }] }, { text: 'done' }],
        shop: [{ text: 'ok' }],
      },
      { guards: { no_shop_at_night: (calls) => calls.filter((c) => c.name !== 'ask_shop') } },
    );
    await g.turn('shoes please');
    expect(g.routing().guards).toEqual([
      { guard: 'verbatim', tool: 'ask_shop', action: 'query_replaced' },
      { guard: 'no_shop_at_night', tool: 'ask_shop', action: 'dropped' },
    ]);
    expect(g.routing().invoked).toEqual([]);
  });
});

describe('a store with only the message API (get/append)', () => {
  it('still works: the model reads its narration, tools get episode metadata in memory', async () => {
    const lists = new Map<string, { role: 'user' | 'assistant'; content: string }[]>();
    const legacy = {
      get: (ep: string, agent: string) => lists.get(`${ep}/${agent}`) ?? [],
      append: (ep: string, agent: string, ms: { role: string; content: string }[]) => {
        lists.set(`${ep}/${agent}`, [...(lists.get(`${ep}/${agent}`) ?? []), ...(ms as { role: 'user' | 'assistant'; content: string }[])]);
      },
    };
    const rec = createRecordingClient(createScriptedClient({ [ROOT]: [{ text: 'one' }, { text: 'two' }] }));
    const runtime = createRuntime({ bundle: loadBundle(), llm: rec.client, tools: {}, sessions: legacy });
    await runtime.turn({ agent: ROOT, message: 'first', context: ctx('legacy') });
    await runtime.turn({ agent: ROOT, message: 'second', context: ctx('legacy') });
    expect(rec.calls[1].messages.map((m) => m.content)).toEqual(['first', 'one', 'second']);
    expect(lists.get(`legacy/${ROOT}`)).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'one' },
      { role: 'user', content: 'second' },
      { role: 'assistant', content: 'two' },
    ]);
  });
});
