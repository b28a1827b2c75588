/**
 * A routing mock for the eval tests: answers OpenAI Chat Completions requests
 * with the tool calls the test chooses for each user message.
 */
import { copyExample, edit } from '../robustness/workspace.js';
import type { Mock } from '../runtime/providers/mock-server.js';

/** message → sub-agents the mock asks for (by their dispatch tool names); [] answers directly. */
export type Routes = Record<string, string[]>;

/** Answers each chat completion with the tool calls `routes` names for its last user message. */
export function routeWith(mock: Mock, routes: (body: any) => Routes): void {
  mock.handle((seen, res) => {
    const messages = (seen.body?.messages ?? []) as { role: string; content: unknown }[];
    const last = [...messages].reverse().find((m) => m.role === 'user');
    const asked = routes(seen.body)[String(last?.content ?? '')] ?? [];
    const toolCalls = asked.map((agent, i) => ({
      id: `call_${i}`,
      type: 'function',
      function: { name: `ask_${agent}`, arguments: JSON.stringify({ query: String(last?.content ?? ''), intent_count: asked.length }) },
    }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        model: seen.body?.model ?? 'mock',
        choices: [
          {
            index: 0,
            finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
            message: { role: 'assistant', content: toolCalls.length > 0 ? null : 'Hi there!', ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
          },
        ],
        usage: { prompt_tokens: 1000, completion_tokens: 20, total_tokens: 1020 },
      }),
    );
  });
}

/** Ten cases: eight single-intent, one mixed, one greeting. */
export const TEN: { message: string; agents: string[] }[] = [
  { message: 'How many points do I have?', agents: ['rewards'] },
  { message: 'What is my points balance after the last receipt?', agents: ['rewards'] },
  { message: 'Any offers on coffee?', agents: ['offer_details'] },
  { message: 'Did my emailed receipt from Target arrive?', agents: ['ereceipts'] },
  { message: 'Find a sushi restaurant near me', agents: ['restaurants'] },
  { message: 'Show me running shoes', agents: ['shop'] },
  { message: 'My reward never arrived, open a ticket', agents: ['support'] },
  { message: 'What games can I play today?', agents: ['play'] },
  { message: 'How many points do I have, and any coffee offers?', agents: ['offer_details', 'rewards'] },
  { message: 'hello!', agents: [] },
];

export function suiteYaml(cases = TEN): string {
  return `agent: fetch_assistant\ncases:\n${cases.map((c) => `  - message: ${JSON.stringify(c.message)}\n    expect: { agents: [${c.agents.join(', ')}] }\n`).join('')}`;
}

/** The mock routes every case as expected except the second, which it sends to offer_details. */
export function nineOfTen(): Routes {
  const routes: Routes = Object.fromEntries(TEN.map((c) => [c.message, c.agents]));
  routes[TEN[1]!.message] = ['offer_details'];
  return routes;
}

/** A copy of the example workspace whose orchestrator model speaks Chat Completions. */
export async function chatWorkspace(label: string): Promise<string> {
  const ws = await copyExample(label);
  await edit(ws, 'agentc.config.ts', (t) => t.replace("model: 'gpt-4.1-mini',", "model: 'gpt-4.1-mini',\n      api: 'openai-chat',"));
  return ws;
}
