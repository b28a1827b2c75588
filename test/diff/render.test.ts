import { describe, expect, it } from 'vitest';
import { diffBundles } from '../../src/diff/compare.js';
import { renderJson } from '../../src/diff/render-json.js';
import { escapeMd, renderMarkdown } from '../../src/diff/render-markdown.js';
import { renderText } from '../../src/diff/render-text.js';
import { bundle, clone, tool, type TestAgent } from './bundle-builder.js';

const base = (): Record<string, TestAgent> => ({
  orch: { sub_agents: ['rewards'], blocks: [{ id: 'routing', text: 'Route every turn.' }] },
  rewards: {
    budget: 1000,
    tools: [tool('get_points', { properties: { a: { type: 'string' }, b: { type: 'string', enum: ['x', 'y'] } }, required: ['a'] })],
    blocks: [
      { id: 'persona', text: 'one\ntwo\nthree\nfour\nfive' },
      { id: 'flagged', text: 'Flagged text with ```fences```.', flag: 'v2' },
    ],
  },
});

function changed() {
  const before = base();
  const after = clone(before);
  (after.rewards!.tools![0]!.parameters as any).properties.b.enum = ['x'];
  (after.rewards!.tools![0]!.parameters as any).properties.c = { type: 'string' };
  after.rewards!.blocks![0]!.text = 'one\ntwo\nTHREE and more words\nfour\nfive';
  after.rewards!.model = 'big';
  return diffBundles(bundle(before), bundle(after));
}

const sides = { beforeLabel: 'merge base abc1234 of main', afterLabel: 'working tree' };

describe('renderMarkdown', () => {
  it('starts with the summary line, then severities, token table and prompt diffs', () => {
    const md = renderMarkdown(changed(), sides);
    const lines = md.split('\n');
    expect(lines[0]).toBe('**agentc diff**: 1 breaking, 2 dangerous, 1 safe changes across 1 agent · +3 tokens');
    expect(md).toContain('merge base abc1234 of main → working tree · prompt cache lost for 2 cohorts');
    const order = ['### 🔴 Breaking (1)', '### 🟡 Dangerous (2)', '### 🟢 Safe (1)', '### Prompt tokens and cache', '### Prompt diffs'].map((h) =>
      md.indexOf(h),
    );
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(md).toContain('| `rewards` | changed | 5 → 8 | +3 | +0.3% of 1,000 | default, v2 |');
    expect(md).toContain(
      '```diff\n--- a/prompts/rewards.md\n+++ b/prompts/rewards.md\n@@ -1,5 +1,5 @@\n one\n two\n-three\n+THREE and more words\n four\n five\n```',
    );
    // The v2 cohort carries the same edit: not repeated.
    expect(md).toContain(
      '<details><summary><code>rewards</code> · default cohort · changed · +3 tokens · same edit in 1 more</summary>\n\nSame edit in 1 more prompt: rewards · v2 cohort (+3).',
    );
    expect(md.match(/<details>/g)).toHaveLength(1);
    expect(md.endsWith('\n')).toBe(true);
  });

  it('shows an edit shared by several agents once', () => {
    const before = base();
    before.orch!.blocks!.unshift({ id: 'safety', text: 'Be safe.' });
    before.rewards!.blocks!.unshift({ id: 'safety', text: 'Be safe.' });
    const after = clone(before);
    after.orch!.blocks![0]!.text = 'Be safe and kind.';
    after.rewards!.blocks![0]!.text = 'Be safe and kind.';
    const md = renderMarkdown(diffBundles(bundle(before), bundle(after)));
    expect(md.match(/<details>/g)).toHaveLength(1);
    expect(md).toContain('<code>orch</code> · default cohort · changed · +2 tokens · same edit in 2 more</summary>');
    expect(md).toContain('Same edit in 2 more prompts: rewards · default cohort (+2), rewards · v2 cohort (+2).');
  });

  it('says "No changes." when there are none', () => {
    expect(renderMarkdown(diffBundles(bundle(base()), bundle(base())))).toBe('**agentc diff**: No changes.\n');
  });

  it('fences a prompt containing backticks with a longer fence', () => {
    const before = base();
    const after = clone(before);
    after.rewards!.blocks![1]!.text = 'Flagged text with ```fences``` changed.';
    const md = renderMarkdown(diffBundles(bundle(before), bundle(after)));
    expect(md).toContain('````diff\n');
    expect(md).toContain('\n````\n');
  });

  it('escapes markup in messages', () => {
    expect(escapeMd('a <b> | *c* _d_')).toBe('a &lt;b&gt; \\| \\*c\\* \\_d\\_');
    const before = base();
    before.orch!.status_rendering = { ev: 'old' };
    const after = clone(before);
    after.orch!.status_rendering = { ev: '<img src=x> | *new*' };
    const md = renderMarkdown(diffBundles(bundle(before), bundle(after)));
    expect(md).toContain('&lt;img src=x&gt; \\| \\*new\\*');
    expect(md).not.toContain('<img');
  });

  it('stays under the size limit, listing omitted prompt diffs', () => {
    const before = base();
    const after = clone(before);
    after.rewards!.blocks![0]!.text = Array.from({ length: 400 }, (_, i) => `line ${i} with some words`).join('\n');
    const md = renderMarkdown(diffBundles(bundle(before), bundle(after)), { maxChars: 4000 });
    expect(md.length).toBeLessThan(4000);
    expect(md).toContain('Omitted to fit a PR comment: rewards · default cohort');
    expect(md).not.toContain('<details>');
  });
});

describe('renderJson', () => {
  it('is versioned, key-sorted data', () => {
    const json = renderJson(changed(), sides);
    const doc = JSON.parse(json);
    expect(doc.formatVersion).toBe('1');
    expect(Object.keys(doc)).toEqual(['agents', 'changes', 'formatVersion', 'summary']);
    expect(doc.summary).toMatchObject({ breaking: 1, dangerous: 2, safe: 1, agents: 1, tokenDelta: 3, beforeLabel: sides.beforeLabel });
    expect(doc.changes.find((c: { type: string }) => c.type === 'model-changed')).toEqual({
      after: 'big',
      agent: 'rewards',
      before: 'small',
      level: 'dangerous',
      message: 'Model of "rewards" changed from small (openai/gpt-small) to big (openai/gpt-big).',
      path: 'model',
      type: 'model-changed',
    });
    expect(doc.agents.rewards.cohorts[0].unifiedDiff).toContain('+THREE and more words');
    expect(json.endsWith('}\n')).toBe(true);
  });
});

describe('renderText', () => {
  it('prints plain lines, most severe first', () => {
    const text = renderText(changed());
    const lines = text.split('\n');
    expect(lines[0]).toBe('agentc diff: 1 breaking, 2 dangerous, 1 safe changes across 1 agent · +3 tokens');
    expect(lines[2]).toBe('breaking  rewards: get_points.parameters.b.enum: Value "y" removed from the enum of "b" in tool "get_points" of "rewards".');
    expect(text).toContain('  rewards (changed): 5 → 8 (+3, +0.3% of 1,000); cache lost: default, v2');
    expect(text).toContain('rewards · default cohort (changed) +3 tokens\nsame edit in: rewards · v2 cohort (+3)\n--- a/prompts/rewards.md');
    expect(text).not.toContain('\u001b[');
  });

  it('colours only when asked', () => {
    expect(renderText(changed(), { color: true })).toContain('\u001b[31mbreaking ');
  });

  it('says "No changes."', () => {
    expect(renderText(diffBundles(bundle(base()), bundle(base())))).toBe('No changes.\n');
  });
});
