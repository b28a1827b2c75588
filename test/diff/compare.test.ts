import { describe, expect, it } from 'vitest';
import { diffBundles } from '../../src/diff/compare.js';
import type { Change } from '../../src/diff/types.js';
import { bundle, clone, tool, type TestAgent } from './bundle-builder.js';

const points = tool('get_points', {
  properties: {
    include_pending: { type: 'boolean', description: 'Include pending points.' },
    unit: { type: 'string', enum: ['points', 'dollars'], default: 'points' },
    account: { type: 'string' },
    filters: {
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } },
    },
  },
  required: ['account'],
});

const base = (): Record<string, TestAgent> => ({
  orchestrator: {
    model: 'big',
    sub_agents: ['rewards', 'shop'],
    blocks: [
      { id: 'persona', text: 'You are the assistant.' },
      { id: 'routing', text: 'Route each turn.\nCall at most 3 agents.' },
    ],
    status_rendering: { looking_up_points: 'Checking your points…' },
  },
  rewards: {
    budget: 1000,
    tools: [points],
    status_events: ['looking_up_points'],
    blocks: [
      { id: 'persona-rewards', text: 'You answer points questions.\nBe brief.\nUse tools.\nNever guess.' },
      { id: 'instructions-rewards', text: 'Look up the balance first.\nQuote exact numbers.' },
      { id: 'receipts', text: 'Receipts v2 are on.', flag: 'v2' },
    ],
  },
  shop: { tools: [tool('search', { properties: { q: { type: 'string' } }, required: ['q'] })] },
});

function only(changes: Change[], type: string): Change[] {
  return changes.filter((c) => c.type === type);
}

function diffWith(edit: (s: Record<string, TestAgent>) => void) {
  const before = base();
  const after = clone(before);
  edit(after);
  return diffBundles(bundle(before), bundle(after));
}

function editTool(s: Record<string, TestAgent>, edit: (params: any) => void): void {
  const t = s.rewards!.tools![0]!;
  edit(t.parameters);
}

describe('diffBundles', () => {
  it('reports nothing for identical bundles', () => {
    const d = diffBundles(bundle(base()), bundle(base()));
    expect(d.changes).toEqual([]);
    expect(d.agents).toEqual({});
    expect(d.summary).toMatchObject({ breaking: 0, dangerous: 0, safe: 0, agents: 0, tokenDelta: 0 });
  });

  it('is deterministic and does not mutate its inputs', () => {
    const b = bundle(base());
    const after = base();
    after.rewards!.model = 'big';
    const a = bundle(after);
    const snapshot = JSON.stringify([b, a]);
    expect(diffBundles(b, a)).toEqual(diffBundles(b, a));
    expect(JSON.stringify([b, a])).toBe(snapshot);
  });

  it('parameter removed → breaking', () => {
    const d = diffWith((s) => editTool(s, (p) => delete p.properties.include_pending));
    const [c] = only(d.changes, 'parameter-removed');
    expect(c).toMatchObject({ level: 'breaking', agent: 'rewards', path: 'get_points.parameters.include_pending' });
    expect(c!.message).toBe('Parameter "include_pending" removed from tool "get_points" of "rewards".');
  });

  it('type changed → breaking, with a JSON-pointer-like path', () => {
    const d = diffWith((s) => editTool(s, (p) => (p.properties.account.type = 'integer')));
    expect(only(d.changes, 'type-changed')).toEqual([
      expect.objectContaining({ level: 'breaking', path: 'get_points.parameters.account.type', before: 'string', after: 'integer' }),
    ]);
  });

  it('a type list is a set: reordering it is no change', () => {
    const before = base();
    editTool(before, (p) => (p.properties.account.type = ['string', 'null']));
    const after = clone(before);
    editTool(after, (p) => (p.properties.account.type = ['null', 'string']));
    expect(diffBundles(bundle(before), bundle(after)).changes).toEqual([]);
  });

  it('new required parameter → breaking; new optional parameter → safe', () => {
    const d = diffWith((s) =>
      editTool(s, (p) => {
        p.properties.month = { type: 'string' };
        p.properties.year = { type: 'integer' };
        p.required.push('year');
      }),
    );
    expect(only(d.changes, 'parameter-added-required')).toEqual([expect.objectContaining({ level: 'breaking', path: 'get_points.parameters.year' })]);
    expect(only(d.changes, 'parameter-added-optional')).toEqual([expect.objectContaining({ level: 'safe', path: 'get_points.parameters.month' })]);
  });

  it('optional → required is breaking; required → optional is dangerous', () => {
    const d = diffWith((s) => editTool(s, (p) => (p.required = ['unit'])));
    expect(only(d.changes, 'parameter-made-required')).toEqual([expect.objectContaining({ level: 'breaking', path: 'get_points.parameters.unit' })]);
    expect(only(d.changes, 'parameter-made-optional')).toEqual([expect.objectContaining({ level: 'dangerous', path: 'get_points.parameters.account' })]);
  });

  it('enum value removed → breaking, added → dangerous, also in nested array items', () => {
    const d = diffWith((s) =>
      editTool(s, (p) => {
        p.properties.unit.enum = ['points', 'cents'];
        p.properties.filters.properties.tags.items.enum = ['a', 'b', 'c'];
      }),
    );
    expect(only(d.changes, 'enum-value-removed')).toEqual([
      expect.objectContaining({ level: 'breaking', path: 'get_points.parameters.unit.enum', before: 'dollars' }),
    ]);
    expect(only(d.changes, 'enum-value-added').map((c) => [c.path, c.after, c.level])).toEqual([
      ['get_points.parameters.filters.tags[].enum', 'c', 'dangerous'],
      ['get_points.parameters.unit.enum', 'cents', 'dangerous'],
    ]);
    expect(only(d.changes, 'enum-value-removed')[0]!.message).toBe('Value "dollars" removed from the enum of "unit" in tool "get_points" of "rewards".');
  });

  it('default changed and descriptions changed → dangerous', () => {
    const d = diffWith((s) =>
      editTool(s, (p) => {
        p.properties.unit.default = 'dollars';
        p.properties.include_pending.description = 'Also count pending points.';
      }),
    );
    expect(only(d.changes, 'default-changed')).toEqual([expect.objectContaining({ level: 'dangerous', before: 'points', after: 'dollars' })]);
    expect(only(d.changes, 'parameter-description-changed')).toEqual([
      expect.objectContaining({ level: 'dangerous', path: 'get_points.parameters.include_pending.description' }),
    ]);
    const t = diffWith((s) => (s.rewards!.tools![0]!.description = 'Points, now with more words.'));
    expect(only(t.changes, 'tool-description-changed')).toEqual([expect.objectContaining({ level: 'dangerous', path: 'get_points.description' })]);
  });

  it('constraints: tightening is breaking, loosening is safe', () => {
    const before = base();
    editTool(before, (p) => (p.properties.account.maxLength = 20));
    const after = clone(before);
    editTool(after, (p) => {
      p.properties.account.maxLength = 10;
      p.properties.account.minLength = 2;
      p.additionalProperties = true;
    });
    const d = diffBundles(bundle(before), bundle(after));
    expect(d.changes.filter((c) => c.type.startsWith('constraint')).map((c) => [c.type, c.path])).toEqual([
      ['constraint-tightened', 'get_points.parameters.account.maxLength'],
      ['constraint-tightened', 'get_points.parameters.account.minLength'],
      ['constraint-loosened', 'get_points.parameters.additionalProperties'],
    ]);
  });

  it('unknown keywords are compared whole', () => {
    const d = diffWith((s) => editTool(s, (p) => (p.properties.account.anyOf = [{ minLength: 1 }])));
    expect(only(d.changes, 'schema-changed')).toEqual([expect.objectContaining({ level: 'dangerous', path: 'get_points.parameters.account.anyOf' })]);
  });

  it('tool added → dangerous; tool removed → breaking', () => {
    const d = diffWith((s) => {
      s.shop!.tools = [tool('browse', { properties: {} })];
    });
    expect(only(d.changes, 'tool-added')).toEqual([expect.objectContaining({ level: 'dangerous', agent: 'shop', path: 'browse' })]);
    expect(only(d.changes, 'tool-removed')).toEqual([expect.objectContaining({ level: 'breaking', agent: 'shop', path: 'search' })]);
  });

  it('model and fallback model changes → dangerous', () => {
    const d = diffWith((s) => {
      s.rewards!.model = 'big';
      s.rewards!.fallback_model = 'small';
    });
    expect(only(d.changes, 'model-changed')).toEqual([
      expect.objectContaining({
        level: 'dangerous',
        before: 'small',
        after: 'big',
        message: 'Model of "rewards" changed from small (openai/gpt-small) to big (openai/gpt-big).',
      }),
    ]);
    expect(only(d.changes, 'fallback-model-changed')).toEqual([expect.objectContaining({ level: 'dangerous', after: 'small' })]);
  });

  it('a registry entry pointing at another provider model is a model change', () => {
    const b = bundle(base());
    const a = clone(b);
    a.models.small!.model = 'gpt-small-2';
    a.models.small!.contextWindow = 1;
    const d = diffBundles(b, a);
    expect(only(d.changes, 'model-changed').map((c) => c.agent)).toEqual(['rewards', 'shop']);
    const c = clone(b);
    c.models.small!.contextWindow = 5;
    expect(only(diffBundles(b, c).changes, 'model-settings-changed').map((x) => x.path)).toEqual(['model.contextWindow', 'model.contextWindow']);
  });

  it('blocks reordered → dangerous (default cohort, same set)', () => {
    const d = diffWith((s) => s.rewards!.blocks!.reverse());
    expect(only(d.changes, 'blocks-reordered')).toEqual([
      expect.objectContaining({
        level: 'dangerous',
        agent: 'rewards',
        before: ['persona-rewards', 'instructions-rewards'],
        after: ['instructions-rewards', 'persona-rewards'],
      }),
    ]);
  });

  it('block text changed → prompt-changed with token delta, budget share and lost cache', () => {
    const d = diffWith((s) => (s.rewards!.blocks![1]!.text = 'Look up the balance first.\nQuote exact numbers, with the date.'));
    const [c] = only(d.changes, 'prompt-changed');
    expect(c).toMatchObject({ level: 'dangerous', agent: 'rewards', path: 'prompt' });
    expect(c!.message).toBe(
      'Prompt of "rewards" changed in cohorts default, v2: +3 tokens each (+0.3% of the 1,000-token input budget); prompt cache lost for 2 cohorts.',
    );
    const r = d.agents.rewards!;
    expect(r).toMatchObject({ status: 'changed', tokenDelta: 3, inputBudget: 1000, budgetShare: 0.003 });
    expect(r.cohorts.map((x) => [x.key, x.status, x.cacheInvalidated, x.changedBlocks])).toEqual([
      ['', 'changed', true, ['instructions-rewards']],
      ['v2', 'changed', true, ['instructions-rewards']],
    ]);
    expect(r.cohorts[0]!.unifiedDiff).toBe(
      [
        '--- a/prompts/rewards.md',
        '+++ b/prompts/rewards.md',
        '@@ -3,4 +3,4 @@',
        ' Use tools.',
        ' Never guess.',
        ' Look up the balance first.',
        '-Quote exact numbers.',
        '+Quote exact numbers, with the date.',
        '',
      ].join('\n'),
    );
    expect(d.summary).toMatchObject({ dangerous: 1, tokenDelta: 3, cacheInvalidated: 2 });
  });

  it('feature-flagged block changed → only that cohort loses its cache', () => {
    const d = diffWith((s) => (s.rewards!.blocks![2]!.text = 'Receipts v2 are on. Mention scanning.'));
    const r = d.agents.rewards!;
    expect(r.cohorts.map((x) => [x.key, x.status, x.cacheInvalidated])).toEqual([
      ['', 'unchanged', false],
      ['v2', 'changed', true],
    ]);
    expect(r.tokenDelta).toBe(0);
    expect(only(d.changes, 'prompt-changed')[0]!.message).toMatch(
      /in cohort v2: \+2 tokens \(\+0\.2% of the 1,000-token input budget\); prompt cache lost for 1 cohort\.$/,
    );
  });

  it('cohorts and blocks added or removed', () => {
    const d = diffWith((s) => {
      s.shop!.blocks = [
        { id: 'persona-shop', text: 'You are shop.' },
        { id: 'stacking', text: 'Offers stack.', flag: 'stack' },
      ];
      s.rewards!.blocks!.splice(2, 1);
    });
    expect(d.changes.filter((c) => /cohort|block-/.test(c.type)).map((c) => [c.type, c.agent, c.path, c.message])).toEqual([
      ['block-removed', 'rewards', 'prompt.blocks.receipts', 'Block "receipts" removed from the prompt of "rewards" (only with flags: v2).'],
      ['cohort-removed', 'rewards', 'prompt[v2]', 'Prompt cohort "v2" of "rewards" removed; users with those flags now get the default prompt (−4 tokens).'],
      ['block-added', 'shop', 'prompt.blocks.stacking', 'Block "stacking" added to the prompt of "shop" (only with flags: stack).'],
      [
        'cohort-added',
        'shop',
        'prompt[stack]',
        'Prompt cohort "stack" of "shop" added: 5 tokens, +2 tokens against the default prompt those users got before.',
      ],
    ]);
    // A one-sided cohort is diffed against the default cohort of the other side.
    const stack = d.agents.shop!.cohorts.find((c) => c.key === 'stack')!;
    expect(stack).toMatchObject({ status: 'added', comparedWith: '', tokenDelta: 2, changedBlocks: ['stacking'] });
    expect(stack.unifiedDiff).toBe('--- a/prompts/shop.md\n+++ b/prompts/shop@stack.md\n@@ -1 +1,2 @@\n You are shop.\n+Offers stack.\n');
    const v2 = d.agents.rewards!.cohorts.find((c) => c.key === 'v2')!;
    expect(v2.unifiedDiff.split('\n').slice(0, 2)).toEqual(['--- a/prompts/rewards@v2.md', '+++ b/prompts/rewards.md']);
  });

  it('dispatch: sub-agents, fan-out cap, failsafe, status rendering', () => {
    const d = diffWith((s) => {
      s.orchestrator!.sub_agents = ['rewards', 'play'];
      s.play = {};
      s.orchestrator!.fan_out_cap = 2;
      s.orchestrator!.status_rendering = { looking_up_points: null, searching: 'Searching…' };
    });
    const o = d.changes.filter((c) => c.agent === 'orchestrator');
    expect(o.map((c) => [c.type, c.level, c.path])).toEqual([
      ['fan-out-cap-changed', 'dangerous', 'dispatch.fan_out_cap'],
      ['status-rendering-changed', 'dangerous', 'dispatch.status_rendering.looking_up_points'],
      ['status-rendering-added', 'safe', 'dispatch.status_rendering.searching'],
      ['sub-agent-added', 'dangerous', 'sub_agents.play'],
      ['sub-agent-removed', 'breaking', 'sub_agents.shop'],
    ]);
    expect(o.find((c) => c.type === 'status-rendering-changed')!.message).toBe(
      'Rendering of status event "looking_up_points" of "orchestrator" changed from "Checking your points…" to suppress.',
    );
    expect(d.agents.play).toMatchObject({ status: 'added', safe: 1 });
    expect(only(d.changes, 'agent-added')).toEqual([expect.objectContaining({ agent: 'play', level: 'safe' })]);
  });

  it('failsafe flip is one change, not one per ask_* tool', () => {
    const d = diffWith((s) => (s.orchestrator!.intent_count_failsafe = false));
    expect(d.changes.map((c) => c.type)).toEqual(['intent-count-failsafe-changed']);
    expect(d.changes[0]!.message).toBe('intent_count failsafe of "orchestrator" turned off.');
  });

  it('relay ↔ compose is one dangerous change', () => {
    const d = diffWith((s) => (s.orchestrator!.stream = 'relay'));
    expect(d.changes.map((c) => [c.type, c.level])).toEqual([['dispatch-stream-changed', 'dangerous']]);
    expect(d.changes[0]!.message).toBe('Streaming of "orchestrator" changed from compose to relay: in relay mode its specialists answer the user directly.');
  });

  it('agent removed → breaking; status events', () => {
    const d = diffWith((s) => {
      delete s.shop;
      s.orchestrator!.sub_agents = ['rewards'];
      s.rewards!.status_events = ['computing'];
    });
    expect(d.changes.map((c) => [c.type, c.level, c.agent])).toEqual([
      ['sub-agent-removed', 'breaking', 'orchestrator'],
      ['status-event-added', 'safe', 'rewards'],
      ['status-event-removed', 'breaking', 'rewards'],
      ['agent-removed', 'breaking', 'shop'],
    ]);
    expect(d.agents.shop).toMatchObject({ status: 'removed', tokensAfter: 0 });
  });

  it('tuning and policy changes', () => {
    const d = diffWith((s) => {
      s.rewards!.max_output_tokens = 900;
      s.rewards!.budget = 2000;
    });
    expect(d.changes.map((c) => [c.type, c.path, c.message])).toEqual([
      ['policy-changed', 'policy.token_budget.input', 'Policy of "rewards": token_budget.input changed from 1,000 to 2,000.'],
      ['tuning-changed', 'tuning.max_output_tokens', 'Tuning of "rewards": max_output_tokens changed from (none) to 900.'],
    ]);
  });
});
