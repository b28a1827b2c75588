import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diffCommand, type DiffOptions } from '../../src/cli/commands/diff.js';
import type { Change } from '../../src/diff/types.js';
import { createFixture, git, memoryIO, type Fixture } from './workspace-fixture.js';

let fixtures: Fixture[] = [];
afterEach(() => {
  for (const f of fixtures) f.cleanup();
  fixtures = [];
});
function fixture(sub = ''): Fixture {
  const f = createFixture(sub);
  fixtures.push(f);
  return f;
}

async function run(f: Fixture, opts: Partial<DiffOptions> = {}, env: Record<string, string> = {}) {
  const io = memoryIO(f.ws, env);
  const code = await diffCommand({ cwd: '.', format: 'json', failOn: 'breaking', ...opts }, io);
  return {
    code,
    out: io.out,
    err: io.err,
    json: () => JSON.parse(io.out) as { summary: Record<string, unknown>; changes: Change[]; agents: Record<string, any> },
  };
}

const find = (changes: Change[], type: string, agent?: string) => changes.filter((c) => c.type === type && (agent === undefined || c.agent === agent));

describe('agentc diff (git fixtures)', () => {
  it('reports "No changes." and exits 0 on a clean tree', async () => {
    const f = fixture();
    const r = await run(f, { format: 'text' });
    expect(r.err).toBe('');
    expect(r.out).toBe('HEAD (main) → working tree: No changes.\n');
    expect(r.code).toBe(0);
  });

  it('classifies every kind of change between HEAD and the working tree', async () => {
    const f = fixture();
    // rewards' tool: parameter removed, type changed, new required parameter,
    // optional → required, enum value removed and added, description changed.
    f.write(
      'schemas/tools/get_points.yaml',
      `name: get_points
description: The signed-in user's points balance and lifetime points.
parameters:
  type: object
  properties:
    unit: { type: string, enum: [points, cents], default: points }
    account: { type: integer, description: The account id. }
    month: { type: string, description: Month to report, YYYY-MM. }
  required: [account, unit, month]
  additionalProperties: false
envelope: true
status_events: [looking_up_points]
`,
    );
    // rewards' feature-flagged block: only the receipts_v2 cohort changes.
    f.edit('blocks/rewards/receipts-v2.md', 'line by line', 'line by line, with the matched offer');
    // shop: model changed, tool removed and another added, block text changed.
    f.edit('cards/shop.yaml', 'model: mini', 'model: nano');
    f.edit('cards/shop.yaml', 'tools: [search_products]', 'tools: [compare_prices]');
    f.edit('cards/shop.yaml', 'tool_whitelist: [search_products]', 'tool_whitelist: [compare_prices]');
    f.write(
      'schemas/tools/compare_prices.yaml',
      `name: compare_prices
description: Compare one product's price across stores.
parameters:
  type: object
  properties:
    product_id: { type: string, description: The product. }
  required: [product_id]
  additionalProperties: false
status_events: [searching_products]
`,
    );
    f.edit(
      'blocks/shop/persona-shop.md',
      'You help the user find products.',
      'You help the user find products and compare their prices across every store we know.',
    );
    // assistant: blocks reordered.
    f.edit('cards/assistant.yaml', 'prompt_blocks: [routing, composition]', 'prompt_blocks: [composition, routing]');

    const r = await run(f);
    expect(r.err).toBe('');
    expect(r.code).toBe(1); // breaking changes with --fail-on breaking
    const { changes, agents, summary } = r.json();

    const at = (type: string, agent: string) => find(changes, type, agent).map((c) => [c.level, c.path]);
    expect(at('parameter-removed', 'rewards')).toEqual([['breaking', 'get_points.parameters.include_pending']]);
    expect(at('type-changed', 'rewards')).toEqual([['breaking', 'get_points.parameters.account.type']]);
    expect(at('parameter-added-required', 'rewards')).toEqual([['breaking', 'get_points.parameters.month']]);
    expect(at('parameter-made-required', 'rewards')).toEqual([['breaking', 'get_points.parameters.unit']]);
    expect(at('enum-value-removed', 'rewards')).toEqual([['breaking', 'get_points.parameters.unit.enum']]);
    expect(at('enum-value-added', 'rewards')).toEqual([['dangerous', 'get_points.parameters.unit.enum']]);
    expect(at('tool-description-changed', 'rewards')).toEqual([['dangerous', 'get_points.description']]);
    expect(at('tool-removed', 'shop')).toEqual([['breaking', 'search_products']]);
    expect(at('tool-added', 'shop')).toEqual([['dangerous', 'compare_prices']]);
    expect(at('model-changed', 'shop')).toEqual([['dangerous', 'model']]);
    expect(find(changes, 'model-changed')[0]!.message).toBe('Model of "shop" changed from mini (openai/gpt-5.4-mini) to nano (openai/gpt-5.4-nano).');
    expect(at('blocks-reordered', 'assistant')).toEqual([['dangerous', 'prompt.blocks']]);

    // Block text changed: a token delta on shop's only cohort.
    const shop = agents.shop;
    expect(shop.tokenDelta).toBeGreaterThan(0);
    expect(shop.cohorts.map((c: any) => [c.key, c.status, c.cacheInvalidated])).toEqual([['', 'changed', true]]);
    expect(shop.cohorts[0].unifiedDiff).toContain('+You help the user find products and compare their prices across every store we know.');
    expect(find(changes, 'prompt-changed', 'shop')[0]!.message).toMatch(
      /^Prompt of "shop" changed in cohort default: \+\d+ tokens \(\+0\.\d+% of the 6,000-token input budget\); prompt cache lost for 1 cohort\.$/,
    );

    // Feature-flagged block changed: only that cohort's hash changes.
    const rewards = agents.rewards;
    expect(rewards.cohorts.map((c: any) => [c.key, c.status, c.cacheInvalidated])).toEqual([
      ['', 'unchanged', false],
      ['receipts_v2', 'changed', true],
    ]);
    expect(rewards.cohorts[0].sha256Before).toBe(rewards.cohorts[0].sha256After);
    expect(rewards.cohorts[1].sha256Before).not.toBe(rewards.cohorts[1].sha256After);
    expect(rewards.tokenDelta).toBe(0);

    expect(summary).toMatchObject({ beforeLabel: 'HEAD (main)', afterLabel: 'working tree' });
    expect(summary.breaking).toBe(6);
  });

  it('markdown report: summary first, written with -o', async () => {
    const f = fixture();
    f.edit('blocks/shop/persona-shop.md', 'find products.', 'find products and deals.');
    const out = join(f.repo, 'agentc-diff.md');
    const r = await run(f, { format: 'markdown', output: out });
    expect(r.out).toBe('');
    expect(r.code).toBe(0); // only a dangerous change; --fail-on breaking
    const md = readFileSync(out, 'utf8');
    expect(md.split('\n')[0]).toMatch(/^\*\*agentc diff\*\*: 0 breaking, 1 dangerous, 0 safe changes across 1 agent · \+\d+ tokens$/);
    expect(md).toContain('<details><summary><code>shop</code> · default cohort · changed');
    expect(md).toContain('+You help the user find products and deals.');
    expect((await run(f, { format: 'markdown', failOn: 'dangerous' })).code).toBe(1);
    expect((await run(f, { format: 'markdown', failOn: 'none' })).code).toBe(0);
  });

  it('compares with the merge base of the default branch from a feature branch', async () => {
    const f = fixture();
    git(f.repo, 'checkout', '-q', '-b', 'feature');
    f.edit('cards/shop.yaml', 'model: mini', 'model: nano');
    f.commit('shop on nano');
    // main moves on after the branch point: its changes must not show up.
    git(f.repo, 'checkout', '-q', 'main');
    f.edit('cards/rewards.yaml', 'model: mini', 'model: nano');
    f.commit('rewards on nano');
    git(f.repo, 'checkout', '-q', 'feature');
    const r = await run(f);
    const base = git(f.repo, 'merge-base', 'main', 'feature');
    expect(r.json().summary.beforeLabel).toBe(`merge base ${base.slice(0, 7)} of main`);
    expect(r.json().changes.map((c) => [c.type, c.agent])).toEqual([['model-changed', 'shop']]);
  });

  it("in a clone: the merge base with origin/HEAD's branch; in PR CI: with origin/$GITHUB_BASE_REF", async () => {
    const f = fixture();
    const clone = mkdtempSync(join(tmpdir(), 'agentc-diff-clone-'));
    try {
      git(tmpdir(), 'clone', '-q', f.repo, clone);
      git(clone, 'checkout', '-q', '-b', 'feature');
      const edit = (p: string) => writeFileSync(join(clone, p), readFileSync(join(clone, p), 'utf8').replace('model: mini', 'model: nano'));
      edit('cards/shop.yaml');
      git(clone, 'commit', '-qam', 'shop on nano');
      const base = git(clone, 'merge-base', 'HEAD', 'origin/main').slice(0, 7);
      const io = memoryIO(clone);
      expect(await diffCommand({ cwd: '.', format: 'json', failOn: 'none' }, io)).toBe(0);
      expect(JSON.parse(io.out).summary.beforeLabel).toBe(`merge base ${base} of origin/main`);

      // GitHub's pull_request checkout: a detached HEAD, no origin/HEAD, GITHUB_BASE_REF set.
      git(clone, 'remote', 'set-head', 'origin', '--delete');
      git(clone, 'branch', '-q', '-D', 'main');
      git(clone, 'checkout', '-q', '--detach');
      const ci = memoryIO(clone, { GITHUB_BASE_REF: 'main' });
      expect(await diffCommand({ cwd: '.', format: 'json', failOn: 'none' }, ci)).toBe(0);
      const doc = JSON.parse(ci.out);
      expect(doc.summary.beforeLabel).toBe(`merge base ${base} of origin/main`);
      expect(doc.changes.map((c: Change) => c.type)).toEqual(['model-changed']);
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });

  it('--against REF, and a workspace in a subdirectory of the repository', async () => {
    const f = fixture('packages/agents');
    const first = git(f.repo, 'rev-parse', 'HEAD');
    f.edit('cards/shop.yaml', 'model: mini', 'model: nano');
    f.commit('shop on nano');
    const r = await run(f, { against: first });
    expect(r.err).toBe('');
    expect(r.json().summary.beforeLabel).toBe(first.slice(0, 7));
    expect(r.json().changes.map((c) => c.type)).toEqual(['model-changed']);
    expect((await run(f, { against: 'HEAD' })).json().changes).toEqual([]);
  });

  it('--against DIR compares two workspace directories', async () => {
    const f = fixture();
    const other = mkdtempSync(join(tmpdir(), 'agentc-diff-dir-'));
    try {
      cpSync(f.ws, other, { recursive: true, filter: (src) => !src.includes('.git') });
      f.edit('cards/shop.yaml', 'model: mini', 'model: nano');
      const r = await run(f, { against: other, format: 'text' });
      expect(r.out.split('\n')[0]).toBe('agentc diff: 0 breaking, 1 dangerous, 0 safe changes across 1 agent · ±0 tokens');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('unknown ref → a clear message and exit 2', async () => {
    const f = fixture();
    const r = await run(f, { against: 'mian' });
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/--against "mian" is neither a directory nor a git ref .* Did you mean "main"\?/);
  });

  it('in PR CI without the base branch: exit 2 rather than comparing HEAD with itself', async () => {
    const f = fixture();
    const r = await run(f, {}, { GITHUB_BASE_REF: 'release' });
    expect(r.code).toBe(2);
    expect(r.err).toBe("agentc diff: the pull request's base branch origin/release is not in this clone; pass --against REF.\n");
  });

  it('outside a git repository, without --against DIR: exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentc-diff-nogit-'));
    try {
      const io = memoryIO(dir);
      expect(await diffCommand({ cwd: '.', format: 'text', failOn: 'breaking' }, io)).toBe(2);
      expect(io.err).toMatch(/is not inside a git repository; a git repository is needed to compare with the default branch\. Pass --against DIR/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a side that does not compile: its errors, prefixed with the side, exit 1', async () => {
    const f = fixture();
    f.edit('cards/shop.yaml', 'tools: [search_products]', 'tools: [serch_products]');
    const r = await run(f);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toContain('agentc diff: the after side (working tree) does not compile:');
    expect(r.err).toMatch(/^after: cards\/shop\.yaml:\d+:\d+ - error AGC2001 unknown-tool: /m);
  });

  it('a workspace that does not exist at the base is all new', async () => {
    const f = fixture();
    git(f.repo, 'checkout', '-q', '--orphan', 'empty');
    git(f.repo, 'rm', '-rq', '--cached', '.');
    git(f.repo, 'commit', '-q', '--allow-empty', '-m', 'empty');
    const empty = git(f.repo, 'rev-parse', 'HEAD');
    const r = await run(f, { against: empty, failOn: 'none' });
    expect(r.code).toBe(0);
    const doc = r.json();
    expect(doc.summary.beforeLabel).toBe(`${empty.slice(0, 7)}, no agentc workspace`);
    expect(find(doc.changes, 'agent-added').map((c) => c.agent)).toEqual(['assistant', 'rewards', 'shop']);
  });

  it('leaves no temporary tree behind and never touches the work tree or the index', async () => {
    const f = fixture();
    f.edit('cards/shop.yaml', 'model: mini', 'model: nano');
    const status = git(f.repo, 'status', '--porcelain');
    await run(f);
    expect(git(f.repo, 'status', '--porcelain')).toBe(status);
    expect(existsSync(join(f.ws, 'generated'))).toBe(false);
    const leftovers = readdirSync(tmpdir()).filter((n) => n.startsWith('before-'));
    expect(leftovers).toEqual([]);
  });
});
