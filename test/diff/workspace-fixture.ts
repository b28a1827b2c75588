/**
 * A small but complete workspace (shaped like the repo's example platform) in a
 * temporary git repository, for end-to-end tests of `agentc diff`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CliIO } from '../../src/cli/io.js';
import { sharedCompileCache } from '../helpers/shared-config.js';

export const FILES: Record<string, string> = {
  'agentc.config.ts': `import { defineConfig } from 'agentc';

export default defineConfig({
  models: {
    mini: { provider: 'openai', model: 'gpt-5.4-mini', contextWindow: 272_000, encoding: 'o200k_base', tools: true, parallelToolCalls: true },
    nano: { provider: 'openai', model: 'gpt-5.4-nano', contextWindow: 400_000, encoding: 'o200k_base', tools: true, parallelToolCalls: true },
  },
  platform: { owner: 'platform', requiredBlocks: ['persona-base', 'safety-base'] },
  dispatch: { toolPrefix: 'ask_', fanOutCap: 2 },
  flags: ['receipts_v2'],
  dynamicContext: { fields: ['date', 'user_id'], template: '<context>\\nDate: {{date}}\\n</context>' },
});
`,
  'cards/assistant.yaml': `id: assistant
description: The front door. Reads every user turn and routes it to the specialists.
role: orchestrator
owner: platform
model: mini
prompt_blocks: [routing, composition]
sub_agents: [rewards, shop]
input:
  query: { type: string, description: The user's message for this turn. }
input_required: [query]
policy:
  token_budget: { input: 8000, output: 1000 }
  max_recursion_depth: 1
dispatch:
  fan_out_cap: 2
  intent_count_failsafe: true
  status_rendering:
    looking_up_points: "Checking your points…"
    searching_products: "Searching products…"
`,
  'cards/rewards.yaml': `id: rewards
description: The user's points balance, pending points, and what a reward would cost to redeem.
role: native
owner: rewards
model: mini
tools: [get_points]
prompt_blocks: [persona-rewards, instructions-rewards, receipts-v2]
status_events: [looking_up_points]
policy:
  token_budget: { input: 6000, output: 1000 }
  tool_whitelist: [get_points]
  max_recursion_depth: 0
`,
  'cards/shop.yaml': `id: shop
description: Product search across stores, product details, and where an item is cheapest today.
role: native
owner: shop
model: mini
tools: [search_products]
prompt_blocks: [persona-shop]
status_events: [searching_products]
policy:
  token_budget: { input: 6000, output: 1000 }
  tool_whitelist: [search_products]
  max_recursion_depth: 0
`,
  'blocks/platform/persona-base.md': `---
category: persona
owner: platform
---
You are the Fetch assistant. You are friendly, brief and exact.
`,
  'blocks/platform/safety-base.md': `---
category: safety
owner: platform
---
Never ask for passwords or card numbers.
Only discuss the signed-in user's own account.
`,
  'blocks/assistant/routing.md': `---
category: instructions
owner: platform
---
Route each request to one specialist:
{{#each sub_agents}}
- {{tool_name}}: {{description}}
{{/each}}
Call at most {{dispatch.fan_out_cap}} of them in one turn.
`,
  'blocks/assistant/composition.md': `---
category: format
owner: platform
---
Write one reply from the specialists' results.
`,
  'blocks/rewards/persona-rewards.md': `---
category: persona
owner: rewards
---
You answer questions about points.
`,
  'blocks/rewards/instructions-rewards.md': `---
category: instructions
owner: rewards
---
Look up the balance before you answer.
Quote exact numbers.
`,
  'blocks/rewards/receipts-v2.md': `---
category: instructions
owner: rewards
feature_flag: receipts_v2
---
Receipts are reviewed line by line in this cohort.
`,
  'blocks/shop/persona-shop.md': `---
category: persona
owner: shop
---
You help the user find products.
`,
  'schemas/tools/get_points.yaml': `name: get_points
description: The signed-in user's points balance.
parameters:
  type: object
  properties:
    include_pending: { type: boolean, description: Also count pending points. }
    unit: { type: string, enum: [points, dollars], default: points }
    account: { type: string, description: The account id. }
  required: [account]
  additionalProperties: false
envelope: true
status_events: [looking_up_points]
`,
  'schemas/tools/search_products.yaml': `name: search_products
description: Search the product catalog.
parameters:
  type: object
  properties:
    q: { type: string, description: Search words. }
  required: [q]
  additionalProperties: false
status_events: [searching_products]
`,
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-C', cwd, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: tmpdir(),
    },
  }).trim();
}

export interface Fixture {
  /** Repository top. */
  repo: string;
  /** Workspace root (repo top, or a subdirectory of it). */
  ws: string;
  write(path: string, text: string): void;
  read(path: string): string;
  edit(path: string, from: string, to: string): void;
  remove(path: string): void;
  commit(message: string): void;
  cleanup(): void;
}

/** A repo on branch main with FILES committed under `sub` (default: the repo root). */
export function createFixture(sub = ''): Fixture {
  const repo = mkdtempSync(join(tmpdir(), 'agentc-diff-'));
  const ws = sub === '' ? repo : join(repo, sub);
  git(repo, 'init', '-q', '-b', 'main');
  const f: Fixture = {
    repo,
    ws,
    write(path, text) {
      mkdirSync(dirname(join(ws, path)), { recursive: true });
      writeFileSync(join(ws, path), text);
    },
    read: (path) => readFileSync(join(ws, path), 'utf8'),
    edit(path, from, to) {
      const text = f.read(path);
      if (!text.includes(from)) throw new Error(`fixture: ${path} has no ${JSON.stringify(from)}`);
      f.write(path, text.replace(from, to));
    },
    remove: (path) => rmSync(join(ws, path)),
    commit(message) {
      git(repo, 'add', '-A');
      git(repo, 'commit', '-q', '-m', message);
    },
    cleanup: () => rmSync(repo, { recursive: true, force: true }),
  };
  for (const [path, text] of Object.entries(FILES)) f.write(path, text);
  f.commit('initial workspace');
  return f;
}

/** An in-memory CliIO that records output. */
/** The sides' compiles reuse a config evaluated by an earlier one with the same text (test/helpers/shared-config.ts). */
const compileCache = sharedCompileCache();

export function memoryIO(cwd: string, env: Record<string, string | undefined> = {}): CliIO & { out: string; err: string } {
  const io = {
    compileCache,
    out: '',
    err: '',
    cwd,
    env,
    isTTY: false,
    stdout: (t: string) => void (io.out += t),
    stderr: (t: string) => void (io.err += t),
  };
  return io;
}
