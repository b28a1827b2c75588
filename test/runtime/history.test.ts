import { describe, expect, it } from 'vitest';
import { narrationView, planCompaction, SUMMARY_HEADER, trimToBudget } from '../../src/runtime/history.js';
import type { TurnRecord } from '../../src/runtime/sessions/types.js';
import { createTokenCounters } from '../../src/runtime/tokens.js';
import type { BundleModel } from '../../src/runtime/types.js';

const rec = (i: number, handled: string[] = []): TurnRecord => ({
  id: `t${i}`,
  narration: { user: `question ${i}`, assistant: `answer ${i}` },
  handled_by: handled,
  tool_calls: [{ id: 'c', name: 'ask_x', arguments: '{}' }],
  tool_results: [{ tool_call_id: 'c', name: 'ask_x', content: 'SECRET-TOOL-RESULT' }],
  sub_agents: [],
  usage: { inputTokens: 0, outputTokens: 0 },
});

describe('narration view', () => {
  it('holds narration only, notes handlers for the orchestrator, and puts the summary in front', () => {
    const view = narrationView([rec(0, ['rewards']), rec(1), rec(2, ['shop'])], { text: 'S', covers: 1 }, true);
    expect(view).toEqual([
      { role: 'user', content: `${SUMMARY_HEADER}\nS` },
      { role: 'user', content: 'question 1' },
      { role: 'assistant', content: 'answer 1' },
      { role: 'user', content: 'question 2' },
      { role: 'assistant', content: 'answer 2\n[handled by: shop]' },
    ]);
    expect(JSON.stringify(view)).not.toContain('SECRET');
  });
});

describe('compaction plan', () => {
  const records = Array.from({ length: 10 }, (_, i) => rec(i));
  it('folds everything but the kept turns once over max_tokens', () => {
    expect(planCompaction(records, undefined, { max_tokens: 100, keep_last_turns: 3 }, 50)).toBeUndefined();
    const plan = planCompaction(records, { text: 's', covers: 2 }, { max_tokens: 100, keep_last_turns: 3 }, 101)!;
    expect(plan.covers).toBe(7);
    expect(plan.fold.map((r) => r.id)).toEqual(['t2', 't3', 't4', 't5', 't6']);
  });
  it('does nothing when only kept turns are left', () => {
    expect(planCompaction(records, { text: 's', covers: 7 }, { max_tokens: 1, keep_last_turns: 3 }, 500)).toBeUndefined();
  });
});

describe('trim to budget', () => {
  it('drops whole oldest turns of the history, never the current turn', () => {
    const count = (t: string) => t.length;
    const ms = [
      { role: 'user' as const, content: 'aaaa' },
      { role: 'assistant' as const, content: 'bbbb' },
      { role: 'user' as const, content: 'cccc' },
      { role: 'assistant' as const, content: 'dddd' },
      { role: 'user' as const, content: 'now!' },
    ];
    const out = trimToBudget(ms, 4, 0, 26, count); // each message costs 4 + 4
    expect(out.messages.map((m) => m.content)).toEqual(['cccc', 'dddd', 'now!']);
    expect(trimToBudget(ms, 4, 0, 1, count).messages.map((m) => m.content)).toEqual(['now!']);
  });
});

describe('token counters', () => {
  it('count with the model’s encoding (lazily loaded) or an injected counter', async () => {
    const model = { id: 'm', encoding: 'o200k_base' } as BundleModel & { id: string };
    const real = await createTokenCounters().forModel(model);
    expect(real('hello world')).toBe(2);
    const injected = await createTokenCounters(() => 7).forModel(model);
    expect(injected('anything')).toBe(7);
  });
});
