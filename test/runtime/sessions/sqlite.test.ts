import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteSessionStore } from '../../../src/runtime/sessions/sqlite.js';
import { storeContract, uniqueEpisode } from './contract.js';

const dir = mkdtempSync(join(tmpdir(), 'agentc-sqlite-'));
const file = join(dir, 'sessions.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let now = 1_000_000;
storeContract('sqlite', {
  make: (opts = {}) => createSqliteSessionStore(file, { ttlMs: opts.ttlMs, now: () => now }),
  async advance(ms) {
    now += ms;
  },
  ttlMs: 1000,
});

// A separate OS process appending through the built store (dist/): real cross-process concurrency.
const WORKER = `
const { createSqliteSessionStore } = await import(process.argv[1]);
const [file, ep, tag, n] = process.argv.slice(2);
const s = await createSqliteSessionStore(file);
for (let i = 0; i < Number(n); i++) {
  await s.appendTurn(ep, 'orch', { id: tag + i, narration: { user: 'u', assistant: 'a' }, handled_by: [], tool_calls: [], tool_results: [], sub_agents: [], usage: { inputTokens: 0, outputTokens: 0 } });
}
await s.close();
`;
const run = promisify(execFile);

describe('sqlite session store across processes', () => {
  it('two processes appending to one file lose nothing and see each other’s turns', async () => {
    const ep = uniqueEpisode('procs');
    const mod = new URL('../../../dist/runtime/sessions/sqlite.js', import.meta.url).href;
    await Promise.all(['a', 'b'].map((tag) => run(process.execPath, ['--input-type=module', '-e', WORKER, mod, file, ep, tag, '150'])));
    const s = await createSqliteSessionStore(file);
    const ids = (await s.turns(ep, 'orch')).map((r) => r.id);
    await s.close();
    expect(ids).toHaveLength(300);
    expect(new Set(ids).size).toBe(300);
    for (const tag of ['a', 'b']) {
      const own = ids.filter((id) => id.startsWith(tag));
      expect(own).toEqual(Array.from({ length: 150 }, (_, i) => `${tag}${i}`)); // each writer's order kept
    }
  });
});
