/**
 * Prototype-named tools and parameters work everywhere (issue 9, item 4):
 * tools named `__proto__`, `constructor`, `toString`, `hasOwnProperty` and
 * parameters named `toString`, `constructor`, `hasOwnProperty` pass check,
 * build into the bundle, and run through the runtime with the script client —
 * each call reaching its own handler with its own arguments.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { createScriptedTools } from '../../src/runtime/scripted-client.js';
import { removeTempDirs, REPO, runCli, summarize, tempDir, write } from './workspace.js';

afterAll(removeTempDirs);

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
const BASE = join(REPO, 'test', 'check', 'fixtures', '_base');

const contract = (name: string): string => `name: ${name}
description: A tool whose name is also an Object.prototype member.
parameters:
  type: object
  properties:
    toString: { type: string, description: A parameter named toString. }
    constructor: { type: integer, description: A parameter named constructor. }
    hasOwnProperty: { type: boolean, description: A parameter named hasOwnProperty. }
  required: [toString]
  additionalProperties: false
envelope: false
`;

async function protoWorkspace(): Promise<string> {
  const dir = await tempDir('proto');
  await cp(BASE, dir, { recursive: true });
  for (const n of NAMES) await write(dir, `schemas/tools/${n}.yaml`, contract(n));
  const card = join(dir, 'cards', 'billing.yaml');
  const list = ['get_invoices', ...NAMES].join(', ');
  await writeFile(
    card,
    (await readFile(card, 'utf8')).replace('tools: [get_invoices]', `tools: [${list}]`).replace('tool_whitelist: [get_invoices]', `tool_whitelist: [${list}]`),
  );
  return dir;
}

const SCRIPT = `llm:
  concierge:
    - tool_calls: [ { name: ask_billing, arguments: { query: "invoices?", intent_count: 1 } } ]
    - text: done
  billing:
    - tool_calls:
${NAMES.map((n, i) => `        - { name: ${n}, arguments: { toString: "s${i}", constructor: ${i}, hasOwnProperty: true } }`).join('\n')}
    - text: ok
tools:
${NAMES.map((n, i) => `  ${n}: { result: { from: "${n}", n: ${i} } }`).join('\n')}
context: { principal: u, episode: e, locale: en-US, location: X, date: "2026-11-21", flags: [] }
`;

describe('tools and parameters named like Object.prototype members', () => {
  it('check is clean and build writes them into the bundle', async () => {
    const dir = await protoWorkspace();
    const { diagnostics, fatal } = await compile({ root: dir });
    expect(fatal).toBeUndefined();
    expect(summarize(diagnostics.filter((d) => d.severity === 'error'))).toBe('');
    const r = await runCli(['build', '--cwd', dir]);
    expect(r.code, r.stderr).toBe(0);
    const bundle = JSON.parse(await readFile(join(dir, 'generated', 'bundle.json'), 'utf8')) as {
      tools: Record<string, { parameters: { properties: Record<string, unknown> } }>;
    };
    for (const n of NAMES) {
      expect(Object.hasOwn(bundle.tools, n), n).toBe(true);
      expect(Object.keys(bundle.tools[n]!.parameters.properties).sort()).toEqual(['constructor', 'hasOwnProperty', 'toString']);
    }
  });

  it('agentc run --script: every call reaches its own scripted tool and passes schema validation', async () => {
    const dir = await protoWorkspace();
    const script = join(dir, 'script.yaml');
    await writeFile(script, SCRIPT);
    const r = await runCli(['run', 'concierge', 'hi', '--cwd', dir, '--script', script, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { calls: { agent: string; messages: { role: string; name?: string; content: string }[] }[] };
    const last = out.calls.filter((c) => c.agent === 'billing').at(-1)!;
    const results = last.messages.filter((m) => m.role === 'tool').map((m) => [m.name, JSON.parse(m.content)]);
    expect(JSON.stringify(results)).toEqual(JSON.stringify(NAMES.map((n, i) => [n, { ok: true, result: { from: n, n: i } }])));
  });

  it('an agent, a model and a feature flag named "constructor": check, build, and a routing outcome of its own', async () => {
    const dir = await tempDir('proto');
    await cp(BASE, dir, { recursive: true });
    const billing = await readFile(join(dir, 'cards', 'billing.yaml'), 'utf8');
    await write(
      dir,
      'cards/constructor.yaml',
      billing
        .replace('id: billing', 'id: constructor')
        .replace('model: main-model', 'model: constructor')
        .replace('prompt_blocks: [instructions-billing]', 'prompt_blocks: [instructions-billing, constructor]'),
    );
    await write(
      dir,
      'blocks/billing/constructor.md',
      '---\ncategory: capabilities\nowner: billing\nfeature_flag: constructor\n---\n{{#if flags.constructor}}Flag on.{{/if}}\n',
    );
    const concierge = join(dir, 'cards', 'concierge.yaml');
    await writeFile(concierge, (await readFile(concierge, 'utf8')).replace('sub_agents: [billing, travel]', 'sub_agents: [billing, travel, constructor]'));
    const config = join(dir, 'agentc.config.ts');
    await writeFile(
      config,
      (await readFile(config, 'utf8'))
        .replace(
          'models: {',
          "models: {\n    constructor: { provider: 'openai', model: 'gpt-4.1-mini', contextWindow: 128_000, encoding: 'o200k_base', tools: true, parallelToolCalls: true },",
        )
        .replace("flags: ['beta'],", "flags: ['beta', 'constructor'],"),
    );
    const { diagnostics } = await compile({ root: dir });
    expect(summarize(diagnostics)).toBe('');
    expect((await runCli(['build', '--cwd', dir])).code).toBe(0);
    expect(await readFile(join(dir, 'generated', 'prompts', 'constructor@constructor.md'), 'utf8')).toContain('Flag on.');
    const script = join(dir, 's.yaml');
    await writeFile(
      script,
      'llm:\n  concierge:\n    - tool_calls: [ { name: ask_constructor, arguments: { query: q, intent_count: 1 } } ]\n    - text: done\n  constructor:\n    - text: from constructor\ncontext: { principal: u, episode: e, flags: [constructor] }\n',
    );
    const r = await runCli(['run', 'concierge', 'hi', '--cwd', dir, '--script', script, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const routing = (JSON.parse(r.stdout) as { events: { type: string; outcomes?: Record<string, string> }[] }).events.find((e) => e.type === 'routing');
    expect(routing?.outcomes).toEqual({ constructor: 'ok' });
  });

  it('createScriptedTools keeps one own handler per name', () => {
    const handlers = createScriptedTools(Object.fromEntries(NAMES.map((n) => [n, { result: { status: 'ok', principal: 'u', payload: {} } }])) as never);
    expect(Object.keys(handlers).sort()).toEqual([...NAMES].sort());
    for (const n of NAMES) expect(typeof handlers[n], n).toBe('function');
  });
});
