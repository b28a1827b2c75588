/**
 * bundle.ts declares repeated shapes once (dispatch-table entries, handoff input
 * schemas, tunings, the config's suffix template) under names that depend only
 * on what they stand for, so each agent's member of the `Bundle` interface is a
 * function of its own entry: watch's per-agent chunks stay valid, and the text
 * is deterministic. The literal types themselves are checked by real tsc in
 * tsc.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/bundle/types.js';
import { renderBundleTs } from '../../src/emit/bundle-ts.js';
import { createBundle } from '../../src/emit/bundle.js';
import { sampleProgram } from './helpers/program.js';

/** The member `  "<id>": { … };` of the BundleAgents interface. */
function member(text: string, id: string): string {
  const start = text.indexOf(`\n  ${JSON.stringify(id)}: {\n`, text.indexOf('export interface BundleAgents {'));
  expect(start).toBeGreaterThan(-1);
  return text.slice(start + 1, text.indexOf('\n  };\n', start) + 6);
}

const declared = (text: string) => [...text.matchAll(/^export interface ((?:InputSchema|Tuning)_[0-9a-f]{12}) \{/gm)].map((m) => m[1]!);

describe('bundle.ts shared declarations', () => {
  const bundle = createBundle(sampleProgram(), '9.9.9');
  const text = renderBundleTs(bundle);

  it('refers to dispatch entries, input schemas, tunings and the suffix template by shared names', () => {
    const concierge = member(text, 'concierge');
    expect(concierge).toContain('"ask_billing": SubAgentDispatch<"billing">');
    expect(concierge).toMatch(/ {4}"input": InputSchema_[0-9a-f]{12};/);
    // The fields every agent has with the same type come from AgentCommon, through the view Bundle["agents"].
    expect(concierge).not.toMatch(/"(prefixes|suffix_ast|suffix_template)":/);
    expect(text).toContain('  readonly "suffix_template": Bundle["dynamicContext"]["template"];\n}');
    const billing = member(text, 'billing');
    expect(billing).toContain('"get_invoices": ToolDispatch<"get_invoices", true>');
    expect(billing).toMatch(/ {4}"tuning": Tuning_[0-9a-f]{12};| {4}"tuning": \{\};/);
  });

  it('declares each shared shape once, sorted by name, and only the ones some agent uses', () => {
    const names = declared(text);
    expect(names).toEqual([...new Set(names)].sort());
    for (const name of names) expect(text.split(name).length - 1, name).toBeGreaterThan(1);
  });

  it("keeps an agent's member byte-identical when agents it does not hand off to come and go", () => {
    const { travel: _travel, concierge: _concierge, ...agents } = bundle.agents;
    const without = renderBundleTs({ ...bundle, agents } as Bundle);
    expect(member(without, 'billing')).toBe(member(text, 'billing'));
    expect(declared(without).length).toBeLessThan(declared(text).length);
  });

  it("types a sub-agent entry literally when its policy is not that agent's own", () => {
    const concierge = bundle.agents.concierge!;
    const table = { ...concierge.dispatch.table, ask_billing: { kind: 'sub_agent' as const, agent: 'billing', policy: { max_tool_calls: 99 } } };
    const changed = { ...concierge, dispatch: { ...concierge.dispatch, table } };
    const out = member(renderBundleTs({ ...bundle, agents: { ...bundle.agents, concierge: changed } } as Bundle), 'concierge');
    expect(out).toContain('"ask_billing": { "agent": "billing"; "kind": "sub_agent"; "policy": { "max_tool_calls": 99 } }');
  });

  it("types an agent's own suffix template literally (it wins over AgentCommon's)", () => {
    const billing = { ...bundle.agents.billing!, suffix_template: 'Date: {{date}}' };
    const out = member(renderBundleTs({ ...bundle, agents: { ...bundle.agents, billing } } as Bundle), 'billing');
    expect(out).toContain('    "suffix_template": "Date: {{date}}";\n');
  });

  it('is the same text on every render (deterministic)', () => {
    expect(renderBundleTs(createBundle(sampleProgram(), '9.9.9'))).toBe(text);
  });
});
