import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bundleHash, createBundle } from '../../src/emit/bundle.js';
import { canonicalJson, sortKeysDeep } from '../../src/bundle/canonical-json.js';
import { emitFiles } from '../../src/emit/files.js';
import { storeBundle, storedJson } from '../../src/emit/stored.js';
import { loadBundleJson } from '../../src/runtime/load-bundle.js';
import { makeProgram, sampleProgram } from './helpers/program.js';

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('createBundle', () => {
  const bundle = createBundle(sampleProgram(), '9.9.9');

  it('has the top-level fields, with only the models the agents use', () => {
    expect(bundle.formatVersion).toBe('3');
    expect(bundle.agentcVersion).toBe('9.9.9');
    expect(Object.keys(bundle.agents)).toEqual(['billing', 'concierge', 'travel']);
    expect(Object.keys(bundle.models)).toEqual(['claude-model', 'main-model']);
    expect(bundle.models['main-model']).toMatchObject({ encoding: 'o200k_base', approximateTokens: false });
    // No encoding and not OpenAI: counted with o200k_base, marked approximate.
    expect(bundle.models['claude-model']).toMatchObject({ provider: 'anthropic', encoding: 'o200k_base', approximateTokens: true });
    expect(bundle.flags).toEqual(['beta', 'gamma']);
    expect(bundle.dispatchDefaults).toEqual({ toolPrefix: 'ask_', fanOutCap: 3 });
    expect(bundle.dynamicContext.template).toBe('<context>\nDate: {{date}}\n</context>');
    expect(Object.keys(bundle.tools)).toEqual(['get_invoices', 'search_trips']);
    expect(bundle.tools.get_invoices).toMatchObject({ envelope: true, status_events: ['fetching_invoices'] });
  });

  it("hashes each prefix's text, whether its blocks sit where resolve puts them or not", () => {
    for (const agent of Object.values(bundle.agents)) for (const p of agent.prefixes) expect(p.sha256, `${agent.id}@${p.key}`).toBe(sha(p.text));
    // A cohort whose blocks do not sit where resolve puts them (text first, each followed by a blank line) is hashed whole, as it stands.
    const program = sampleProgram();
    const cohort = program.agents.get('travel')!.cohorts[0]!;
    cohort.text = `Preamble.\n${cohort.text}`;
    for (const b of cohort.blocks) b.start += 'Preamble.\n'.length;
    const odd = createBundle(program, '9.9.9').agents.travel!.prefixes[0]!;
    expect(odd.text.startsWith('Preamble.\n')).toBe(true);
    expect(odd.sha256).toBe(sha(odd.text));
  });

  it('marks an OpenAI model without a declared encoding as approximate too', () => {
    const b = createBundle(
      makeProgram({
        config: { models: { m: { provider: 'openai', model: 'x', contextWindow: 1000 } } },
        blocks: [{ id: 'persona-base', text: 'Hi.' }],
        cards: [{ id: 'solo', model: 'm' }],
      }),
      '0',
    );
    expect(b.models.m).toMatchObject({ encoding: 'o200k_base', approximateTokens: true });
  });

  it('describes each agent: model, fallback, input schema, events, sub-agents, flags', () => {
    const billing = bundle.agents.billing!;
    expect(billing.model).toBe('main-model');
    expect(billing.fallback_model).toBe('claude-model');
    expect(billing.input).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        prior_context: { type: 'string', description: 'Summary of earlier turns.' },
        query: { type: 'string', description: "The user's exact words." },
      },
      required: ['query'],
    });
    // Own events plus its tools' events, sorted and unique.
    expect(billing.status_events).toEqual(['fetching_invoices', 'paying_invoice']);
    expect(billing.policy).toEqual({ max_tool_calls: 4 });
    expect(bundle.agents.concierge!.sub_agents).toEqual(['travel', 'billing']);
    expect(bundle.agents.travel!.flags).toEqual(['beta']);
    expect(bundle.agents.travel!.suffix_template).toBe(bundle.dynamicContext.template);
    expect(bundle.agents.travel).not.toHaveProperty('fallback_model');
  });

  it('holds one prefix per cohort, default first, with exact block slices and hashes', () => {
    const travel = bundle.agents.travel!;
    expect(travel.prefixes.map((p) => [p.key, p.cohort])).toEqual([
      ['', []],
      ['beta', ['beta']],
    ]);
    const [def, beta] = travel.prefixes;
    expect(def!.blocks.map((b) => b.id)).toEqual(['persona-base', 'travel-instructions']);
    expect(beta!.blocks.map((b) => b.id)).toEqual(['persona-base', 'travel-instructions', 'travel-beta']);
    expect(beta!.text).toBe('You are the assistant of Example Pay.\n\nSearch trips with search_trips.\n\nBeta: suggest flexible dates.\n\n');
    for (const p of travel.prefixes) {
      expect(p.sha256).toBe(sha(p.text));
      for (const b of p.blocks) expect(p.text.slice(b.start, b.start + b.length)).not.toMatch(/^\s|\s$/);
    }
    expect(beta!.blocks[2]).toMatchObject({
      id: 'travel-beta',
      owner: 'travel',
      category: 'capabilities',
      file: 'blocks/travel/travel-beta.md',
      required: false,
    });
    expect(beta!.blocks[0]).toMatchObject({ id: 'persona-base', required: true, start: 0, length: 'You are the assistant of Example Pay.'.length });
  });

  it('emits own tools first, then one ask_* tool per sub-agent, in three shapes', () => {
    const tools = bundle.agents.concierge!.tools;
    expect(tools.neutral.map((t) => t.name)).toEqual(['ask_travel', 'ask_billing']);
    const billingTools = bundle.agents.billing!.tools;
    expect(billingTools.neutral).toEqual([
      {
        name: 'get_invoices',
        description: "The user's invoices.",
        parameters: { type: 'object', properties: { status: { type: 'string', enum: ['open', 'paid'] } }, additionalProperties: false },
      },
    ]);
    expect(billingTools.openai).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_invoices',
          description: "The user's invoices.",
          strict: true,
          parameters: {
            type: 'object',
            properties: { status: { type: ['string', 'null'], enum: ['open', 'paid', null] } },
            required: ['status'],
            additionalProperties: false,
          },
        },
      },
    ]);
    expect(billingTools.anthropic).toEqual([{ name: 'get_invoices', description: "The user's invoices.", input_schema: billingTools.neutral[0]!.parameters }]);
  });

  it('gives sub-agent tools the handoff schema plus a required intent_count under the failsafe', () => {
    const askTravel = bundle.agents.concierge!.tools.neutral[0]!;
    expect(askTravel.description).toBe(sampleProgram().cards.get('travel')!.data.description);
    expect(askTravel.parameters.required).toEqual(['query', 'intent_count']);
    expect((askTravel.parameters.properties as Record<string, unknown>).intent_count).toMatchObject({ type: 'integer' });
    const openai = bundle.agents.concierge!.tools.openai[0]!.function.parameters;
    expect(openai.required).toEqual(['intent_count', 'prior_context', 'query']);
    expect((openai.properties as Record<string, unknown>).prior_context).toEqual({ type: ['string', 'null'], description: 'Summary of earlier turns.' });
  });

  it('builds the dispatch table, caps, failsafe and status rendering for every agent', () => {
    expect(bundle.agents.concierge!.dispatch).toEqual({
      fan_out_cap: 2,
      intent_count_failsafe: true,
      stream: 'compose',
      status_rendering: { fetching_invoices: null, searching_trips: 'Searching trips…' },
      table: {
        ask_billing: { kind: 'sub_agent', agent: 'billing', policy: { max_tool_calls: 4 } },
        ask_travel: { kind: 'sub_agent', agent: 'travel', policy: { token_budget: { input: 5000 }, time_budget_ms: 3000 } },
      },
    });
    expect(Object.keys(bundle.agents.concierge!.dispatch.status_rendering)).toEqual(['fetching_invoices', 'searching_trips']);
    // Defaults from the config for an agent without a dispatch section.
    expect(bundle.agents.billing!.dispatch).toEqual({
      fan_out_cap: 3,
      intent_count_failsafe: false,
      stream: 'compose',
      status_rendering: {},
      table: { get_invoices: { kind: 'tool', tool: 'get_invoices', envelope: true } },
    });
  });

  it("hashes bundle.json's text (the stored bundle) with an empty hash: the digest of its parts' digests", () => {
    expect(bundle.hash).toMatch(/^[0-9a-f]{64}$/);
    // docs/formats/bundle.md: the text cut before each line that starts with four spaces and a quote.
    const parts = storedJson(storeBundle({ ...bundle, hash: '' })).split(/(?<=\n)(?= {4}")/);
    expect(parts.length).toBeGreaterThan(3);
    expect(bundle.hash).toBe(
      createHash('sha256')
        .update(Buffer.concat(parts.map((p) => createHash('sha256').update(p, 'utf8').digest())))
        .digest('hex'),
    );
    expect(bundleHash(bundle)).toBe(bundle.hash);
    expect(createBundle(sampleProgram(), '9.9.10').hash).not.toBe(bundle.hash);
  });

  it('is deterministic and already in canonical key order', () => {
    const again = createBundle(sampleProgram(), '9.9.9');
    expect(canonicalJson(again)).toBe(canonicalJson(bundle));
    expect(JSON.stringify(bundle)).toBe(JSON.stringify(sortKeysDeep(bundle)));
    // A bundle loaded back from bundle.json is the same value.
    expect(loadBundleJson(storedJson(storeBundle(bundle)))).toEqual(bundle);
  });

  it('does not depend on the insertion order of the program maps', () => {
    const p = sampleProgram();
    const reversed = { ...p, agents: new Map([...p.agents].reverse()), tools: new Map([...p.tools].reverse()) };
    expect(canonicalJson(createBundle(reversed, '9.9.9'))).toBe(canonicalJson(bundle));
  });

  it('tolerates an incomplete program (unknown model, no cohorts)', () => {
    const p = makeProgram({ blocks: [], cards: [{ id: 'broken', model: 'nope' }] });
    p.agents.get('broken')!.cohorts = [];
    const b = createBundle(p, '0');
    expect(b.agents.broken).toMatchObject({ model: 'nope', prefixes: [] });
    expect(b.models).toEqual({});
    expect(() => emitFiles(b)).not.toThrow();
  });
});

describe('canonicalJson', () => {
  it('sorts keys recursively by code unit, indents by two spaces, ends with one LF', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null }, B: 'x', é: 1 })).toBe(
      '{\n  "B": "x",\n  "a": {\n    "c": null,\n    "d": [\n      3,\n      {\n        "y": 2,\n        "z": 1\n      }\n    ]\n  },\n  "b": 1,\n  "é": 1\n}\n',
    );
  });

  it('drops undefined members and refuses what JSON cannot hold', () => {
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{\n  "b": [\n    null\n  ]\n}\n');
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/NaN/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cyclic/);
  });

  it('allows shared (non-cyclic) references', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{\n  "a": {\n    "x": 1\n  },\n  "b": {\n    "x": 1\n  }\n}\n');
  });
});

describe('keys named __proto__', () => {
  it('stay data in canonical JSON and in bundle.ts', async () => {
    const parsed = JSON.parse('{"b":1,"__proto__":{"type":"string"}}') as Record<string, unknown>;
    expect(canonicalJson(parsed)).toBe('{\n  "__proto__": {\n    "type": "string"\n  },\n  "b": 1\n}\n');
    const p = makeProgram({
      blocks: [{ id: 'persona-base', text: 'Hi.' }],
      tools: [{ name: 't', parameters: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as Record<string, unknown> }],
      cards: [{ id: 'solo', tools: ['t'] }],
    });
    const b = createBundle(p, '0');
    expect(Object.keys(b.tools.t!.parameters.properties as object)).toEqual(['__proto__']);
    const { renderBundleTs } = await import('../../src/emit/bundle-ts.js');
    const ts = renderBundleTs(b);
    expect(ts).toContain('readonly "__proto__": {');
    const loaded = loadBundleJson(storedJson(storeBundle(b)));
    expect(Object.keys(loaded.agents.solo!.tools.neutral[0]!.parameters.properties as object)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(loaded.agents.solo!.tools.neutral[0]!.parameters.properties)).toBe(Object.prototype);
    expect(ts).toContain('  __proto__?: string;');
  });
});
