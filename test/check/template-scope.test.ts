import { describe, expect, it } from 'vitest';
import { analyzeTemplate, standalonePlacer } from '../../src/parse/template.js';
import { buildContextShape } from '../../src/resolve/context.js';
import { classifyRef, type RefVerdict } from '../../src/check/template-scope.js';
import { formatRuleHint, formatRuleMessage } from '../../src/diagnostics/catalog.js';

/** A verdict with its catalog message and hint filled in, as a diagnostic would show them. */
type ShownVerdict = { kind: 'ok' } | { kind: 'dynamic'; name: string } | { kind: 'unknown'; detail: string; hint?: string };

function shown(v: RefVerdict): ShownVerdict {
  if (v.kind !== 'unknown') return v;
  const detail = formatRuleMessage('template-unknown-variable', v.message, v.data);
  return v.hint ? { kind: 'unknown', detail, hint: formatRuleHint('template-unknown-variable', v.hint.id, v.hint.data) } : { kind: 'unknown', detail };
}

const root = buildContextShape({ flags: ['receipts_v2'] });
const dynamic = new Set(['date', 'user_id']);

function verdicts(body: string): { ref: string; verdict: ShownVerdict }[] {
  const r = analyzeTemplate(standalonePlacer(body), body);
  if (!r.ok) throw new Error(r.problem.message);
  return r.analysis.refs.map((ref) => ({ ref: ref.original, verdict: shown(classifyRef(ref, root, dynamic, 'b')) }));
}

function bad(body: string) {
  return verdicts(body).filter((v) => v.verdict.kind !== 'ok');
}

describe('template scope resolution', () => {
  it('accepts every documented read', () => {
    const body = [
      '{{agent.id}} {{agent.tuning.max_output_tokens}} {{agent.policy.token_budget.input}} {{agent.input.query.type}}',
      '{{#each sub_agents}}{{tool_name}} {{description}} {{@index}} {{@first}} {{../agent.id}} {{@root.model.id}} {{this.id}}{{/each}}',
      '{{#each sub_agents as |s i|}}{{s.id}} {{i}}{{/each}}',
      '{{#with dispatch}}{{fan_out_cap}} {{status_rendering.anything}}{{/with}}',
      '{{#if flags.receipts_v2}}x{{/if}} {{tools.length}} {{sub_agents.0.id}}',
      '{{#each agent.tools}}{{this}} {{.}}{{/each}} {{#each agent.input}}{{@key}} {{type}}{{/each}}',
      '{{#each tools}}{{#each ../sub_agents}}{{../../model.encoding}}{{/each}}{{/each}}',
    ].join('\n');
    expect(bad(body)).toEqual([]);
  });

  it('reports an unknown field with did-you-mean', () => {
    const [v] = bad('{{agent.descrption}}');
    expect(v!.verdict).toMatchObject({ kind: 'unknown', hint: 'Did you mean "agent.description"?' });
  });

  it('reports an unknown root name listing what blocks can read', () => {
    const [v] = bad('{{agnet.id}}');
    expect(v!.verdict.kind).toBe('unknown');
    if (v!.verdict.kind !== 'unknown') return;
    expect(v!.verdict.detail).toContain('not in the compile-time context');
    expect(v!.verdict.hint).toBe('Did you mean "agent.id"?');
  });

  it('does not fall back to outer scopes inside #each, and says how to reach them', () => {
    const [v] = bad('{{#each sub_agents}}{{agent.id}}{{/each}}');
    expect(v!.verdict).toMatchObject({
      kind: 'unknown',
      hint: 'Inside {{#each sub_agents}}, use ../agent.id or @root.agent.id',
    });
  });

  it('reports reads of unknown flags', () => {
    const [v] = bad('{{#if flags.receipts_v3}}x{{/if}}');
    expect(v!.verdict).toMatchObject({ kind: 'unknown', hint: 'Did you mean "flags.receipts_v2"?' });
  });

  it('classifies per-request fields as dynamic, at root, via @root and inside #each', () => {
    expect(bad('{{user_id}} {{@root.date}} {{#each tools}}{{user_id}}{{/each}}').map((v) => v.verdict)).toEqual([
      { kind: 'dynamic', name: 'user_id' },
      { kind: 'dynamic', name: 'date' },
      { kind: 'dynamic', name: 'user_id' },
    ]);
  });

  it('reports data variables outside #each and unknown ones', () => {
    expect(bad('{{@index}} {{@foo}}').map((v) => v.verdict.kind)).toEqual(['unknown', 'unknown']);
  });

  it('reports ../ above the root', () => {
    expect(bad('{{../agent.id}}').map((v) => v.verdict.kind)).toEqual(['unknown']);
  });

  it('reports fields of scalars and lists', () => {
    const out = bad('{{agent.id.x}} {{sub_agents.id}}');
    expect(out.map((v) => v.ref)).toEqual(['agent.id.x', 'sub_agents.id']);
    expect(out[1]!.verdict).toMatchObject({ hint: 'Loop over it: {{#each sub_agents}}{{id}}{{/each}}' });
  });

  it('explicitly scoped paths skip block params (this.x reads the item, not the param)', () => {
    expect(bad('{{#each agent.tools as |id|}}{{id}}{{/each}}')).toEqual([]);
    expect(bad('{{#each sub_agents as |s|}}{{this.id}} {{s.tool_name}}{{/each}}')).toEqual([]);
    expect(bad('{{#each agent.tools as |name|}}{{this.name}}{{/each}}').map((v) => v.ref)).toEqual(['this.name']);
  });

  it('reports a bad scope source once, not every read inside it', () => {
    expect(bad('{{#each sub_agentz}}{{id}} {{nope}}{{/each}}').map((v) => v.ref)).toEqual(['sub_agentz']);
  });
});
