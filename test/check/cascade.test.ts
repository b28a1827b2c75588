/**
 * One root cause, one diagnostic (issue 9, item 6): each reproduction breaks one
 * thing in a copy of the example workspace and asserts the WHOLE diagnostic list
 * (rule, place, message, hint), so a cascade that comes back fails the test.
 */
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileInMemory } from '../helpers/memory-workspace.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { copyExample, edit, removeTempDirs } from '../robustness/workspace.js';

afterAll(removeTempDirs);

/** A diagnostic as one line: place, severity, rule, message, hint. */
function line(d: Diagnostic): string {
  const at = d.range ? `:${d.range.start.line}:${d.range.start.column}-${d.range.end.line}:${d.range.end.column}` : '';
  return `${d.file ?? '-'}${at} ${d.severity} ${d.rule}: ${d.message}${d.hint ? ` | ${d.hint}` : ''}`;
}

async function check(mutate: (dir: string) => Promise<void>): Promise<string[]> {
  const dir = await copyExample('cascade');
  await mutate(dir);
  const result = await compileInMemory(dir);
  expect(result.fatal).toBeUndefined();
  return result.diagnostics.map(line);
}

describe('one root cause, one diagnostic', () => {
  it('a typo in a tool name: one unknown-tool error, no advice to delete the real tool', async () => {
    const out = await check((dir) => edit(dir, 'cards/rewards.yaml', (t) => t.replace('tools: [get_user_points,', 'tools: [get_user_pints,')));
    expect(out).toEqual([
      'cards/rewards.yaml:11:9-11:23 error unknown-tool: Card "rewards" uses tool "get_user_pints", which is not declared in schemas/tools/. | Did you mean "get_user_points"?',
    ]);
  });

  it('a typo in a sub-agent: no unreachable-agent advice to delete the card it meant', async () => {
    const out = await check((dir) => edit(dir, 'cards/fetch_assistant.yaml', (t) => t.replace('  - rewards\n', '  - reward\n')));
    expect(out).toEqual([
      'cards/fetch_assistant.yaml:21:5-21:11 error unknown-sub-agent: Card "fetch_assistant" lists sub-agent "reward", which has no card in cards/. | Did you mean "rewards"?',
    ]);
  });

  it('a card id that differs from its file: one id-mismatch, no wrong did-you-mean on the cards that name the file', async () => {
    const out = await check((dir) => edit(dir, 'cards/rewards.yaml', (t) => t.replace('id: rewards', 'id: reward')));
    expect(out).toEqual([
      'cards/rewards.yaml:2:5-2:11 error id-mismatch: Card "reward" is declared in cards/rewards.yaml; its id must equal the file name "rewards". | Rename the file to cards/reward.yaml, or set id: rewards.',
    ]);
  });

  it("a card id that takes another card's id: one id-mismatch, no duplicate-id and no unused blocks or tools of the other card", async () => {
    const out = await check((dir) => edit(dir, 'cards/rewards.yaml', (t) => t.replace('id: rewards', 'id: shop')));
    expect(out).toEqual([
      'cards/rewards.yaml:2:5-2:9 error id-mismatch: Card "shop" is declared in cards/rewards.yaml; its id must equal the file name "rewards". | Rename the file to cards/shop.yaml, or set id: rewards.',
    ]);
  });

  it('a 2-card cycle: one sub-agent-cycle error naming the path, no recursion-depth, role-shape or fan-out-cap advice', async () => {
    const out = await check((dir) => edit(dir, 'cards/ereceipts.yaml', (t) => t.replace('sub_agents: []', 'sub_agents: [fetch_assistant]')));
    expect(out).toEqual([
      'cards/fetch_assistant.yaml:23:5-23:14 error sub-agent-cycle: Sub-agents form a cycle: ereceipts → fetch_assistant → ereceipts. | Remove one of these sub_agents entries: an agent cannot (indirectly) call its own caller.',
    ]);
  });

  it('one typo in a config model entry: one schema error, not an unknown-model error per card', async () => {
    const out = await check((dir) => edit(dir, 'agentc.config.ts', (t) => t.replace('contextWindow: 272_000', 'contextWindw: 272_000')));
    expect(out).toEqual([
      'agentc.config.ts:12:7-12:19 error schema: Unknown field "models.gpt-5.4-mini-low.contextWindw" in the config. | Did you mean "contextWindow"?',
    ]);
  });

  it('a tab used as indentation: one YAML error', async () => {
    const out = await check((dir) => edit(dir, 'cards/rewards.yaml', (t) => t.replace('policy:\n  token_budget', 'policy:\n\ttoken_budget')));
    expect(out).toEqual(['cards/rewards.yaml:33:1-33:2 error yaml-syntax: YAML syntax error: Tabs are not allowed as indentation.']);
  });

  it('a config agentc does not read (agentc.config.cjs): one config-load error naming it', async () => {
    const out = await check((dir) => rename(join(dir, 'agentc.config.ts'), join(dir, 'agentc.config.cjs')));
    expect(out).toEqual([
      'agentc.config.cjs error config-load: No config found: agentc.config.cjs is not a name agentc reads; the config must be agentc.config.ts (or .mts, .js, .mjs). | Rename agentc.config.cjs to agentc.config.ts (ESM: export default defineConfig({ … })).',
    ]);
  });

  it('no config at all: one config-load error', async () => {
    const out = await check((dir) => rm(join(dir, 'agentc.config.ts')));
    expect(out).toEqual([
      '- error config-load: No config found: the workspace has no agentc.config.ts (or .mts, .js, .mjs), so config.models, the platform blocks and the budgets are unknown. | Run `agentc init` in an empty directory to see a complete agentc.config.ts, and add one here.',
    ]);
  });

  it('an over-indented mapping: positions exact to the column, ending inside the line', async () => {
    const out = await check((dir) =>
      edit(dir, 'cards/rewards.yaml', (t) =>
        t
          .replace('role: native', 'role:    natve   ')
          .replace(
            /\npolicy:\n((?: {2}.*\n)+)/,
            (_, body: string) => `\npolicy:\n${body.replace(/^ {2}/gm, '      ').replace('max_tool_calls', 'max_tool_calz')}`,
          ),
      ),
    );
    expect(out).toEqual([
      'cards/rewards.yaml:7:10-7:15 error schema: Field "role" of card "rewards" must be one of orchestrator, native, external-wrapper, internal-helper. | Did you mean "native"?',
      'cards/rewards.yaml:36:7-36:20 error schema: Unknown field "policy.max_tool_calz" in card "rewards". | Did you mean "max_tool_calls"?',
    ]);
  });

  it('one bad entry of a settings mapping: one schema error; its valid siblings (status_rendering) still apply', async () => {
    const out = await check((dir) => edit(dir, 'cards/fetch_assistant.yaml', (t) => t.replace('  fan_out_cap: 3\n', '  fan_out_cap: 3\n  stream: relays\n')));
    expect(out).toEqual([
      'cards/fetch_assistant.yaml:50:11-50:17 error schema: Field "dispatch.stream" of card "fetch_assistant" must be one of compose, relay. | Did you mean "relay"?',
    ]);
  });

  it('one bad entry two levels down: only that status_rendering entry goes, without an unrendered warning', async () => {
    const out = await check((dir) =>
      edit(dir, 'cards/fetch_assistant.yaml', (t) => t.replace('    checking_order_status: "Checking on your order…"', '    checking_order_status: 7')),
    );
    // The entry is dropped; its event is not also reported as unrendered, and no other entry is lost.
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(
      /^cards\/fetch_assistant\.yaml:60:28-60:29 error schema: Field "dispatch\.status_rendering\.checking_order_status" of card "fetch_assistant" must be/,
    );
  });

  it("one bad entry of the config's dispatch section keeps the section's valid entries", async () => {
    const out = await check((dir) =>
      edit(dir, 'agentc.config.ts', (t) => t.replace("dispatch: { toolPrefix: 'ask_', fanOutCap: 3 }", "dispatch: { toolPrefix: 'ask_', fanOutCap: 0 }")),
    );
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^agentc\.config\.ts:\d+:\d+-\d+:\d+ error schema: Field "dispatch\.fanOutCap" of the config must be >= 1\./);
  });
});
