/**
 * The generated TypeScript must pass `tsc --strict --noEmit` (docs/cli.md#agentc-build), be
 * usable with the provider SDKs' tool types, and reject a service that misses a
 * tool or implements one with the wrong argument types.
 *
 * One TypeScript program for everything (each costs seconds): the generated
 * modules of the emit fixture and of this repository's example platform, one
 * consumer file that must compile, and one file per mistake that must not.
 * `agentc/runtime` maps to src/runtime/index.ts (or a stub until it exists);
 * only diagnostics in the temp directory count (the runtime's sources have their
 * own tests and compiler settings).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { createBundle } from '../../src/emit/bundle.js';
import { emitFiles } from '../../src/emit/files.js';
import { makeProgram } from './helpers/program.js';
import { fixtureBundle, REPO_ROOT } from './helpers/workspace.js';

const HANDLERS = `{
  get_invoices: async (args, ctx) => ({ status: 'ok', principal: ctx.principal, payload: { status: args.status ?? 'open', limit: args.limit } }),
  pay_invoice: (args) => ({ status: 'partial', principal: 'u', payload: args.amount.value + (args.amount.currency === 'EUR' ? 0 : 1) }),
  search_trips: (args) => ({ trips: [args.destination], first: args.travellers?.[0]?.age, budget: args.budget }),
  record_feedback: (args) => args.rating ?? 0,
}`;

const GOOD = `
import type OpenAI from 'openai';
import type Anthropic from '@anthropic-ai/sdk';
import type { BundlePrefix, LlmClient, TemplateNode } from '@agentc/runtime';
import { createOrchestrator } from './orchestrator.js';
import {
  anthropicTools,
  bundle,
  neutralTools,
  openaiTools,
  type AgentId,
  type AgentStatusEvents,
  type AskBillingArgs,
  type DeepMutable,
  type PayInvoiceArgs,
  type SearchTripsArgs,
  type StatusEvent,
  type ToolArgsByName,
  type ToolHandlers,
  type ToolName,
} from './bundle.js';

const tools: ToolHandlers = ${HANDLERS};
declare const llm: LlmClient;
const orchestrator = createOrchestrator({ llm, tools, flags: ['beta'], onEvent: (e) => void e.type });
export const turns = [
  orchestrator.turn({ message: 'hi', context: { principal: 'u', episode: 'e' } }),
  orchestrator.turn({ agent: 'travel', message: 'hi', context: { principal: 'u', episode: 'e', locale: 'en' } }),
];

// A streamed turn: typed events, per-turn flags, a trace to continue.
export async function streamed(): Promise<string> {
  let shown = '';
  const s = orchestrator.stream({ message: 'hi', context: { principal: 'u', episode: 'e' }, flags: ['beta'], traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
  for await (const e of s) {
    if (e.type === 'text_delta') shown += e.delta;
    else if (e.type === 'agent_end') shown += e.usage.outputTokens > 0 ? '' : e.span_id;
    else if (e.type === 'turn_end') shown += e.outcome === 'cancelled' ? '' : e.at_ms;
  }
  return (await s.result).text === shown ? shown : '';
}

// Provider SDK types accept the emitted tool arrays as they are.
export const openai: OpenAI.Chat.Completions.ChatCompletionTool[] = [...openaiTools('concierge'), ...openaiTools('billing'), ...openaiTools('travel')];
export const anthropic: Anthropic.Messages.Tool[] = [...anthropicTools('concierge'), ...anthropicTools('billing'), ...anthropicTools('travel')];
export const neutral = neutralTools('billing')[0]!.parameters;
// Each copy is mutable at every depth (DeepMutable of the bundle's readonly lists): push, reorder, edit.
const copied = openaiTools('billing');
copied.push(copied[0]);
copied[1].function.description = 'Pay one invoice.';
copied[0].function.parameters['x-hint'] = 'short';
anthropicTools('billing')[0].input_schema['required'] = ['invoice_id'];
export const edited: OpenAI.Chat.Completions.ChatCompletionTool[] = copied;
export const toolName: 'pay_invoice' = copied[1].function.name;
// The readonly view of the agents and the copies' types are exactly the old declarations' (identity, readonly included).
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export const samePolicy: Same<
  typeof bundle.agents.billing.policy,
  { readonly max_recursion_depth: 0; readonly max_tool_calls: 4; readonly time_budget_ms: 4000; readonly token_budget: { readonly input: 4000; readonly output: 1000 }; readonly tool_whitelist: readonly ['get_invoices', 'pay_invoice'] }
> = true;
type ReadonlyOpenAITool<N> = { readonly type: 'function'; readonly function: { readonly name: N; readonly description: string; readonly parameters: { readonly [key: string]: unknown }; readonly strict: true } };
export const sameTools: Same<typeof bundle.agents.billing.tools.openai, readonly [ReadonlyOpenAITool<'get_invoices'>, ReadonlyOpenAITool<'pay_invoice'>]> = true;
export const sameCopy: Same<ReturnType<typeof openaiTools<'billing'>>, DeepMutable<typeof bundle.agents.billing.tools.openai>> = true;
export const samePrefixes: Same<typeof bundle.agents.billing.prefixes, readonly BundlePrefix[]> = true;
export const sameAst: Same<typeof bundle.agents.travel.suffix_ast, readonly TemplateNode[]> = true;
export const sameSuffix: Same<typeof bundle.agents.travel.suffix_template, typeof bundle.dynamicContext.template> = true;

// The argument interfaces follow the schemas.
export const pay: PayInvoiceArgs = { invoice_id: 'inv_1', amount: { value: 3, currency: 'EUR', 'x-note': 'n' }, method: 'card' };
export const search: SearchTripsArgs = { destination: 'Rome', dates: ['2026-01-01'], class: 'business', budget: 'cheap', filters: { a: 'b' }, travellers: [{ age: 3 }] };
export const ask: AskBillingArgs = { query: 'q', intent_count: 2, invoice_id: 'inv_1' };
export const askByName: ToolArgsByName['ask_travel'] = { query: 'q', intent_count: 1 };
export const names: [ToolName, AgentId, StatusEvent, AgentStatusEvents['billing']] = ['ask_travel', 'concierge', 'searching_trips', 'paying_invoice'];
export const hash: string = bundle.hash;
export const cap: 2 = bundle.agents.concierge.dispatch.fan_out_cap;
// Literal types declared once and shared (ToolDispatch, SubAgentDispatch, InputSchema_…, Tuning_…,
// the config's suffix template) keep their values wherever they are used.
export const calls: 4 = bundle.agents.billing.policy.max_tool_calls;
export const childCalls: 4 = bundle.agents.concierge.dispatch.table.ask_billing.policy.max_tool_calls;
export const child: 'billing' = bundle.agents.concierge.dispatch.table.ask_billing.agent;
export const whitelist: readonly ['get_invoices', 'pay_invoice'] = bundle.agents.billing.policy.tool_whitelist;
export const envelope: { envelope: true; kind: 'tool'; tool: 'get_invoices' } = bundle.agents.billing.dispatch.table.get_invoices;
export const required: readonly ['query'] = bundle.agents.billing.input.required;
export const invoiceType: 'string' = bundle.agents.billing.input.properties.invoice_id.type;
export const effort: 'low' = bundle.agents.concierge.tuning.reasoning_effort;
export const suffix: '<context>\\nDate: {{date}}\\nLocale: {{locale}}\\n</context>' = bundle.agents.billing.suffix_template;
`;

/** Each must fail to compile, with the error in that file. */
const BAD: Record<string, string> = {
  'missing-handler': `
import type { ToolHandlers } from './bundle.js';
export const tools: ToolHandlers = {
  get_invoices: () => ({ status: 'ok', principal: 'u' }),
  pay_invoice: () => ({ status: 'ok', principal: 'u' }),
  search_trips: () => null,
};`,
  'wrong-argument-type': `
import type { ToolHandlers } from './bundle.js';
export const tools: ToolHandlers = {
  get_invoices: () => ({ status: 'ok', principal: 'u' }),
  pay_invoice: () => ({ status: 'ok', principal: 'u' }),
  search_trips: (args: { destination: number }) => args.destination,
  record_feedback: () => null,
};`,
  'wrong-property-use': `
import type { ToolHandlers } from './bundle.js';
export const tools: ToolHandlers = {
  get_invoices: (args) => ({ status: 'ok', principal: 'u', payload: args.state }),
  pay_invoice: () => ({ status: 'ok', principal: 'u' }),
  search_trips: () => null,
  record_feedback: () => null,
};`,
  'envelope-not-returned': `
import type { ToolHandlers } from './bundle.js';
export const tools: ToolHandlers = {
  get_invoices: () => ({ invoices: [] }),
  pay_invoice: () => ({ status: 'ok', principal: 'u' }),
  search_trips: () => null,
  record_feedback: () => null,
};`,
  'unknown-agent': `
import type { LlmClient } from '@agentc/runtime';
import { createOrchestrator } from './orchestrator.js';
import type { ToolHandlers } from './bundle.js';
declare const llm: LlmClient;
declare const tools: ToolHandlers;
export const t = createOrchestrator({ llm, tools }).turn({ agent: 'nope', message: 'm', context: { principal: 'u', episode: 'e' } });`,
  'unknown-flag': `
import type { LlmClient } from '@agentc/runtime';
import { createOrchestrator } from './orchestrator.js';
import type { ToolHandlers } from './bundle.js';
declare const llm: LlmClient;
declare const tools: ToolHandlers;
export const o = createOrchestrator({ llm, tools, flags: ['recipts_v2'] });`,
  'unknown-turn-flag': `
import type { LlmClient } from '@agentc/runtime';
import { createOrchestrator } from './orchestrator.js';
import type { ToolHandlers } from './bundle.js';
declare const llm: LlmClient;
declare const tools: ToolHandlers;
export const s = createOrchestrator({ llm, tools }).stream({ message: 'm', context: { principal: 'u', episode: 'e' }, flags: ['bta'] });`,
  'wrong-handoff-field': `
import type { AskBillingArgs } from './bundle.js';
export const a: AskBillingArgs = { query: 'q', intent_count: 1, invoice: 'inv_1' };`,
  'wrong-shared-literal': `
import { bundle } from './bundle.js';
export const n: 5 = bundle.agents.concierge.dispatch.table.ask_billing.policy.max_tool_calls;`,
  'wrong-shared-input': `
import { bundle } from './bundle.js';
export const r: readonly ['invoice_id'] = bundle.agents.billing.input.required;`,
  'wrong-tool-envelope': `
import { bundle } from './bundle.js';
export const e: false = bundle.agents.billing.dispatch.table.get_invoices.envelope;`,
  'readonly-bundle-list': `
import { bundle } from './bundle.js';
bundle.agents.billing.policy.tool_whitelist.push('get_invoices');`,
  'readonly-bundle-tool': `
import { bundle } from './bundle.js';
bundle.agents.billing.tools.openai[0].function.description = 'x';`,
  'wrong-copied-tool-name': `
import { openaiTools } from './bundle.js';
export const n: 'get_invoices' = openaiTools('billing')[1].function.name;`,
  'bad-enum-value': `
import type { PayInvoiceArgs } from './bundle.js';
export const a: PayInvoiceArgs = { invoice_id: 'x', amount: { value: 1, currency: 'USD' } };`,
};

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2022.d.ts'],
  types: ['node'],
  skipLibCheck: true,
  // Stricter than --strict: generated code must survive demanding service configs.
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noImplicitReturns: true,
  noPropertyAccessFromIndexSignature: true,
  noImplicitOverride: true,
};

let dir: string;
let errorsByFile: Map<string, ts.Diagnostic[]>;
let globalErrors: ts.Diagnostic[];
let exampleBuilt = false;

beforeAll(async () => {
  // Inside the repository, so that 'openai', '@anthropic-ai/sdk' and @types/node resolve.
  await mkdir(join(REPO_ROOT, 'node_modules', '.cache'), { recursive: true });
  dir = await mkdtemp(join(REPO_ROOT, 'node_modules', '.cache', 'agentc-emit-tsc-'));
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  const roots: string[] = [];
  const emit = async (sub: string, files: Map<string, string>) => {
    await mkdir(join(dir, sub), { recursive: true });
    for (const name of ['bundle.ts', 'orchestrator.ts']) {
      await writeFile(join(dir, sub, name), files.get(name)!);
      roots.push(join(dir, sub, name));
    }
  };
  await emit('fixture', emitFiles(await fixtureBundle()));
  await writeFile(join(dir, 'fixture', 'good.ts'), GOOD);
  roots.push(join(dir, 'fixture', 'good.ts'));
  for (const [name, text] of Object.entries(BAD)) {
    await writeFile(join(dir, 'fixture', `${name}.ts`), text);
    roots.push(join(dir, 'fixture', `${name}.ts`));
  }
  // Edge shapes, built by hand: no agents at all; one agent without tools or flags;
  // an ask_* tool whose parameters differ between two orchestrators, and tool names
  // that collide after PascalCasing or with the module's own exports.
  await emit('empty', emitFiles(createBundle(makeProgram({ config: { flags: [] }, blocks: [], cards: [] }), '0')));
  await emit(
    'minimal',
    emitFiles(createBundle(makeProgram({ config: { flags: [] }, blocks: [{ id: 'persona-base', text: 'Hi.' }], cards: [{ id: 'solo' }] }), '0')),
  );
  await emit(
    'variants',
    emitFiles(
      createBundle(
        makeProgram({
          blocks: [{ id: 'persona-base', text: 'Hi.' }],
          tools: [
            { name: 'tool_handlers', parameters: { type: 'object', properties: { a: { type: 'string' } } } },
            { name: 'get-x', parameters: { type: 'object' } },
            { name: 'get_x', parameters: { type: 'object', properties: {}, additionalProperties: false } },
            { name: '3d_view', envelope: true, parameters: { type: 'object', properties: { 'x y': { type: 'number' } } } },
          ],
          cards: [
            { id: 'one', sub_agents: ['leaf'], dispatch: { intent_count_failsafe: true } },
            { id: 'two', sub_agents: ['leaf'], tools: ['tool_handlers', 'get-x', 'get_x', '3d_view'] },
            { id: 'leaf' },
          ],
        }),
        '0',
      ),
    ),
  );
  await writeFile(
    join(dir, 'variants', 'use.ts'),
    `import type { AskLeafArgs, ToolHandlers } from './bundle.js';
export const a: AskLeafArgs[] = [{ query: 'q' }, { query: 'q', intent_count: 2 }];
export const h: ToolHandlers = {
  '3d_view': (args) => ({ status: 'ok', principal: 'p', payload: args['x y'] }),
  'get-x': () => null,
  get_x: () => null,
  tool_handlers: (args) => args.a,
};
`,
  );
  roots.push(join(dir, 'variants', 'use.ts'));

  // The repository's own example platform, when it currently compiles.
  const example = await compile({ root: REPO_ROOT, bundle: true });
  if (example.bundle) {
    exampleBuilt = true;
    await emit('example', emitFiles(example.bundle));
  }

  // The generated modules compile against the real runtime library, not a stand-in.
  const runtime = join(REPO_ROOT, 'src', 'runtime', 'index.ts');
  const program = ts.createProgram(roots, {
    ...OPTIONS,
    paths: { '@agentc/runtime': [runtime], '@agentc/runtime/bundle': [join(REPO_ROOT, 'src', 'runtime', 'load-bundle.ts')] },
  });
  errorsByFile = new Map();
  globalErrors = [];
  for (const d of ts.getPreEmitDiagnostics(program)) {
    if (d.file === undefined) {
      globalErrors.push(d);
      continue;
    }
    const rel = relative(dir, d.file.fileName);
    if (rel.startsWith('..')) continue;
    errorsByFile.set(rel, [...(errorsByFile.get(rel) ?? []), d]);
  }
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function messages(file: string): string[] {
  return (errorsByFile.get(file) ?? []).map(
    (d) => `${file}:${d.file!.getLineAndCharacterOfPosition(d.start!).line + 1} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
  );
}

describe('generated TypeScript', () => {
  it('has no global errors', () => {
    expect(globalErrors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  });

  it('bundle.ts and orchestrator.ts pass tsc --strict (and stricter flags)', () => {
    expect([...messages('fixture/bundle.ts'), ...messages('fixture/orchestrator.ts')]).toEqual([]);
  });

  it.each(['empty', 'minimal', 'variants'])('edge-case bundle %s passes too', (sub) => {
    expect([...messages(`${sub}/bundle.ts`), ...messages(`${sub}/orchestrator.ts`)]).toEqual([]);
  });

  it('names every arguments type uniquely and unions variants of one tool name', () => {
    expect(messages('variants/use.ts')).toEqual([]);
  });

  it("this repository's example platform passes too", () => {
    if (!exampleBuilt) return; // the example workspace is mid-edit; the fixture still covers the generator
    expect([...messages('example/bundle.ts'), ...messages('example/orchestrator.ts')]).toEqual([]);
  });

  it('a complete service compiles, and the tool arrays type-check as OpenAI and Anthropic SDK tools', () => {
    expect(messages('fixture/good.ts')).toEqual([]);
  });

  const EXPECTED: Record<string, RegExp> = {
    'missing-handler': /TS2741: Property '"record_feedback"' is missing/,
    'wrong-argument-type': /TS2322: Type '\(args: \{ destination: number; \}\) => number' is not assignable to type '\(args: SearchTripsArgs/,
    'wrong-property-use': /TS2339: Property 'state' does not exist on type 'GetInvoicesArgs'/,
    'envelope-not-returned': /TS2322: .* is not assignable to type 'Envelope<unknown> \| Promise<Envelope<unknown>>'/,
    'unknown-agent': /TS2322: Type '"nope"' is not assignable to type 'AgentId'/,
    'unknown-flag': /TS2322: Type '"recipts_v2"' is not assignable to type 'FlagName'/,
    'bad-enum-value': /TS2322: Type '"USD"' is not assignable to type '"EUR"'/,
    'wrong-handoff-field': /TS2353: Object literal may only specify known properties, and 'invoice' does not exist in type 'AskBillingArgs'/,
    'wrong-shared-literal': /TS2322: Type '4' is not assignable to type '5'/,
    'wrong-shared-input': /TS2322: Type 'readonly \["query"\]' is not assignable to type 'readonly \["invoice_id"\]'/,
    'wrong-tool-envelope': /TS2322: Type 'true' is not assignable to type 'false'/,
    'readonly-bundle-list': /TS2339: Property 'push' does not exist on type 'readonly \["get_invoices", "pay_invoice"\]'/,
    'readonly-bundle-tool': /TS2540: Cannot assign to 'description' because it is a read-only property/,
    'wrong-copied-tool-name': /TS2322: Type '"pay_invoice"' is not assignable to type '"get_invoices"'/,
  };

  it.each(Object.keys(BAD))('rejects %s', (name) => {
    const found = messages(`fixture/${name}.ts`);
    expect(found.length, `expected a type error in ${name}.ts`).toBe(1);
    expect(found[0]).toMatch(EXPECTED[name]!);
  });
});
