/**
 * Model pricing and API in the config: schema validation, the bundle carries
 * them, `agentc prompt`'s cost line (≈ for approximate counts), and costUsd.
 */
import { beforeAll, expect, test } from 'vitest';
import { DiagnosticBag } from '../../src/diagnostics/diagnostic.js';
import { bundleModel } from '../../src/emit/bundle.js';
import { formatUsd } from '../../src/emit/format.js';
import { prefixCostLine } from '../../src/emit/prompts.js';
import { SourceFile } from '../../src/load/source.js';
import { parseConfig } from '../../src/parse/config.js';
import { loadValidators } from '../../src/parse/validate.js';
import { costUsd } from '../../src/runtime/index.js';

const TEXT = `export default defineConfig({
  models: {
    m: { provider: 'openai', model: 'x', contextWindow: 1000, api: 'openai-chat', pricing: { input: 0.4, cachedInput: 0.1, output: 1.6 } },
  },
});
`;

beforeAll(async () => {
  await loadValidators();
});

function parse(models: Record<string, unknown>) {
  const bag = new DiagnosticBag();
  const cfg = parseConfig(new SourceFile('agentc.config.ts', TEXT), { models }, bag);
  return { cfg, messages: bag.items.map((d) => `${d.code} ${d.message}`) };
}

test('api and pricing are accepted and reach the bundle model', () => {
  const entry = { provider: 'openai', model: 'x', contextWindow: 1000, api: 'openai-chat', pricing: { input: 0.4, cachedInput: 0.1, output: 1.6 } };
  const { cfg, messages } = parse({ m: entry });
  expect(messages).toEqual([]);
  expect(bundleModel(cfg.data.models.m!)).toMatchObject({ api: 'openai-chat', pricing: { input: 0.4, cachedInput: 0.1, output: 1.6 } });
});

test('bad api and pricing are schema diagnostics', () => {
  const { messages } = parse({
    m: { provider: 'openai', model: 'x', contextWindow: 1000, api: 'openai-completions', pricing: { input: -1, output: 1, cached: 2 } },
  });
  expect(messages.length).toBeGreaterThanOrEqual(3);
  expect(messages.join('\n')).toMatch(/api/);
  expect(messages.join('\n')).toMatch(/cached/);
  expect(messages.join('\n')).toMatch(/input/);
});

test('prefix cost per 1,000 turns, with and without a cache hit; ≈ for approximate counts', () => {
  const model = bundleModel({
    provider: 'openai',
    model: 'x',
    contextWindow: 1000,
    encoding: 'o200k_base',
    pricing: { input: 0.4, cachedInput: 0.1, output: 1.6 },
  });
  expect(prefixCostLine({ tokens: 3127 }, model)).toBe('prefix per 1,000 turns $1.25 without a cache hit · $0.31 with one');
  const claude = bundleModel({ provider: 'anthropic', model: 'c', contextWindow: 1000, pricing: { input: 1, cachedInput: 0.1, output: 5 } });
  expect(prefixCostLine({ tokens: 1560 }, claude)).toBe('prefix per 1,000 turns ≈$1.56 without a cache hit · ≈$0.16 with one');
  const noCached = bundleModel({ provider: 'openai', model: 'x', contextWindow: 1000, encoding: 'o200k_base', pricing: { input: 10, output: 30 } });
  expect(prefixCostLine({ tokens: 150_000 }, noCached)).toBe(
    'prefix per 1,000 turns $1,500.00 without a cache hit · $1,500.00 with one (the model declares no cached-input price)',
  );
  expect(prefixCostLine({ tokens: 100 }, bundleModel({ provider: 'openai', model: 'x', contextWindow: 1000 }))).toBeUndefined();
  expect([formatUsd(0), formatUsd(0.0008), formatUsd(0.42), formatUsd(1234.5)]).toEqual(['$0.00', '$0.0008', '$0.42', '$1,234.50']);
});

test('costUsd prices cached input as cachedInput', () => {
  const pricing = { input: 0.4, cachedInput: 0.1, output: 1.6 };
  expect(costUsd({ pricing }, { inputTokens: 1200, cachedInputTokens: 1024, outputTokens: 40 })).toBeCloseTo((176 * 0.4 + 1024 * 0.1 + 40 * 1.6) / 1e6, 12);
  expect(costUsd({}, { inputTokens: 1, outputTokens: 1 })).toBeUndefined();
});

test('agentc prompt on the example workspace ends with the cost line (≈ for the Anthropic-served agent)', async () => {
  const { promptCommand } = await import('../../src/cli/commands/prompt.js');
  const { resolve } = await import('node:path');
  const repo = resolve(import.meta.dirname, '../..');
  const out = async (agent: string) => {
    let stdout = '';
    const code = await promptCommand({ cwd: repo, agent }, { stdout: (t) => void (stdout += t), stderr: () => undefined, cwd: repo, env: {}, isTTY: false });
    expect(code).toBe(0);
    return stdout.trimEnd().split('\n').at(-1);
  };
  expect(await out('fetch_assistant')).toMatch(/^Cost: {3}prefix per 1,000 turns \$\d+\.\d\d without a cache hit · \$\d+\.\d\d with one$/);
  expect(await out('play')).toMatch(/^Cost: {3}prefix per 1,000 turns ≈\$\d+\.\d\d without a cache hit · ≈\$\d+\.\d\d with one$/);
}, 60_000);
