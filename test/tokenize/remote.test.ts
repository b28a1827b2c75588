// Counting on a worker thread (src/tokenize/remote.ts) gives exactly the counts
// of counting in-process, starts only when enough text is missing, and never on a
// warm run. Needs dist/tokenize/count-worker.js (`npm test` builds first).
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { synthesize } from '../../bench/synth.mjs';
import { compile } from '../../src/compile.js';
import { TokenCounter, REMOTE_MIN_CHARS } from '../../src/tokenize/counter.js';
import { countTokens, ENCODINGS, type Encoding } from '../../src/tokenize/index.js';
import { RemoteCounter } from '../../src/tokenize/remote.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
afterEach(() => vi.restoreAllMocks());

const TEXTS = [
  'Hello, world.\n\n',
  'Refunds over $50 need approval.\n\nAsk first.\n\n',
  '<|endoftext|> is counted as text, as a prompt would be.',
  'naïve café — 東京 🚀 \u0000 \r\n\t  trailing   ',
  '//x\n/\n\n/ path/like\n\n\n  indented\n',
  'x'.repeat(20_000),
];

function startRemote(): RemoteCounter {
  const remote = RemoteCounter.start();
  if (!remote) throw new Error('dist/tokenize/count-worker.js is missing: run the build');
  return remote;
}

describe('RemoteCounter', () => {
  it('answers exactly what countTokens answers, asked ahead or not, in both encodings', () => {
    const remote = startRemote();
    try {
      remote.request(TEXTS.slice(0, 3), 'o200k_base');
      for (const e of ENCODINGS) for (const t of TEXTS) expect(remote.take(t, e), `${e}: ${JSON.stringify(t.slice(0, 30))}`).toBe(countTokens(t, e));
    } finally {
      remote.close();
    }
  });

  it('after close, counts on this thread (the same counts)', () => {
    const remote = startRemote();
    remote.request(TEXTS, 'cl100k_base');
    remote.close();
    expect(TEXTS.map((t) => remote.take(t, 'cl100k_base'))).toEqual(TEXTS.map((t) => countTokens(t, 'cl100k_base')));
  });
});

describe('TokenCounter.want', () => {
  it('starts a worker only when at least REMOTE_MIN_CHARS of text is missing, and counts the same', () => {
    const start = vi.fn(() => RemoteCounter.start());
    const counter = new TokenCounter(undefined, start);
    counter.want(['short text'], 'o200k_base');
    expect(start).not.toHaveBeenCalled();
    const big = Array.from({ length: 40 }, (_, i) => `Paragraph ${i}: ${'lorem ipsum dolor sit amet, '.repeat(240)}\n\n`);
    expect(big.join('').length).toBeGreaterThanOrEqual(REMOTE_MIN_CHARS);
    counter.want(big, 'o200k_base');
    expect(start).toHaveBeenCalledTimes(1);
    try {
      expect(big.map((t) => counter.count(t, 'o200k_base'))).toEqual(big.map((t) => countTokens(t, 'o200k_base')));
      expect(counter.count('short text', 'o200k_base')).toBe(countTokens('short text', 'o200k_base'));
    } finally {
      counter.close();
    }
  });
});

describe('a disk compile counting on the worker', () => {
  it('holds exactly the counts of the joined texts; a warm run starts no worker', async () => {
    const root = await mkdtemp(join(tmpdir(), 'agentc-remote-'));
    dirs.push(root);
    synthesize({ out: root, cards: 40, blocks: 160, tools: 12, orchestrators: 2 });
    const cache = join(root, '.cache');
    vi.stubEnv('AGENTC_CACHE_DIR', cache);
    // An idle machine: the worker is started (on a saturated one it is not: see below).
    vi.spyOn(os, 'loadavg').mockReturnValue([0, 0, 0]);
    const start = vi.spyOn(RemoteCounter, 'start');

    const cold = await compile({ root });
    expect(start).toHaveBeenCalledTimes(1);
    expect(cold.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    let cohorts = 0;
    for (const agent of cold.program!.agents.values()) {
      for (const c of agent.cohorts) {
        cohorts++;
        expect(c.tokens, `${agent.card.data.id} [${c.key}]`).toBe(countTokens(c.text, agent.encoding));
        for (const b of c.blocks) expect(b.tokens).toBe(countTokens(b.text + '\n\n', agent.encoding as Encoding));
      }
    }
    expect(cohorts).toBeGreaterThan(40);

    start.mockClear();
    const warm = await compile({ root });
    expect(start).not.toHaveBeenCalled();
    expect(warm.diagnostics).toEqual(cold.diagnostics);
    const all = (r: typeof cold) =>
      [...r.program!.agents.values()].map((a) => [a.descriptionTokens, a.cohorts.map((c) => [c.tokens, c.blocks.map((b) => b.tokens)])]);
    expect(all(warm)).toEqual(all(cold));
    vi.unstubAllEnvs();
  }, 120_000);
});

describe('on a saturated machine', () => {
  it('counts on this thread (no worker), with the same counts', async () => {
    const root = await mkdtemp(join(tmpdir(), 'agentc-remote-'));
    dirs.push(root);
    synthesize({ out: root, cards: 20, blocks: 120, tools: 6, orchestrators: 1 });
    vi.stubEnv('AGENTC_CACHE_DIR', '');
    vi.spyOn(os, 'loadavg').mockReturnValue([os.availableParallelism() + 1, 0, 0]);
    const start = vi.spyOn(RemoteCounter, 'start');
    const r = await compile({ root });
    expect(start).not.toHaveBeenCalled();
    for (const agent of r.program!.agents.values()) for (const c of agent.cohorts) expect(c.tokens).toBe(countTokens(c.text, agent.encoding));
    vi.unstubAllEnvs();
  }, 120_000);
});
