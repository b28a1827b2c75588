/**
 * Round trip: the assembled prefix (compile API, default cohort) of every
 * imported agent contains its source instructions byte for byte (trimmed, as
 * agentc trims each block), including a literal `{{` and text split at headings.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { compile } from '../../src/compile.js';
import { agentc, SAMPLES, tempDir, writeTree } from './helpers.js';

async function prefixes(root: string): Promise<Map<string, string>> {
  const r = await compile({ root, bundle: true });
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return new Map(Object.values(r.bundle!.agents).map((a) => [a.id, a.prefixes[0]!.text]));
}

function body(file: string): string {
  return readFileSync(join(SAMPLES, file), 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '');
}

describe('imported instructions reach the prefix unchanged', () => {
  it('claude-code (headings split into blocks; literal {{ escaped)', async () => {
    const out = tempDir();
    await agentc(['import', 'claude-code', 'claude-code', '--out', out], SAMPLES);
    const p = await prefixes(out);
    expect(p.get('prod_logs_health_check')).toContain(body('claude-code/prod-logs-health-check.md').trim());
    expect(p.get('prod_logs_health_check')).toContain('{{LOG_QUERY}}');
    expect(p.get('m365_admin')).toContain(body('claude-code/m365-admin.md').trim());
    expect(p.get('unit_testing_debugger')).toContain(body('claude-code/debugger.md').trim());
  });

  it('adk and cagent (YAML instruction fields)', async () => {
    const adk = tempDir();
    await agentc(['import', 'adk', 'adk', '--out', adk], SAMPLES);
    const pa = await prefixes(adk);
    for (const [file, id] of [
      ['adk/multi_agent_basic_config/root_agent.yaml', 'root_agent'],
      ['adk/multi_agent_basic_config/math_tutor_agent.yaml', 'math_tutor_agent'],
      ['adk/core_basic_config/root_agent.yaml', 'assistant_agent'],
    ] as const) {
      const src = (parse(readFileSync(join(SAMPLES, file), 'utf8')) as { instruction: string }).instruction;
      expect(pa.get(id)).toContain(src.trim());
    }
    const cag = tempDir();
    await agentc(['import', 'cagent', 'cagent/background_agents.yaml', '--out', cag], SAMPLES);
    const pc = await prefixes(cag);
    const doc = parse(readFileSync(join(SAMPLES, 'cagent/background_agents.yaml'), 'utf8')) as { agents: Record<string, { instruction: string }> };
    expect(pc.get('root')).toContain(doc.agents.root!.instruction.trim());
    expect(pc.get('code_analyst')).toContain(doc.agents.code_analyst!.instruction.trim());
  });

  it('fast-agent (indented body) and openai-agents-ts ([...].join(" "))', async () => {
    const fa = tempDir();
    await agentc(['import', 'fast-agent', 'fast-agent', '--out', fa], SAMPLES);
    expect((await prefixes(fa)).get('social_media')).toContain(body('fast-agent/chaining/social_media.md').trim());
    const oa = tempDir();
    await agentc(['import', 'openai-agents-ts', 'openai-agents-ts', '--out', oa], SAMPLES);
    const po = await prefixes(oa);
    expect(po.get('orchestrator_agent')).toContain(
      'You are a translation agent. You use the tools given to you to translate. If asked for multiple translations, you call the relevant tools in order. You never translate on your own, you always use the provided tools.',
    );
    expect(po.get('triage_agent')).toContain("You determine which agent to use based on the user's homework question");
  });

  it('text full of Handlebars syntax, fences and headings survives exactly', async () => {
    const instructions = [
      'Intro with {{double}}, {{{triple}}}, {{#if x}}block{{/if}}, {{> partial}}, {{! comment }} and a lone }} and {.',
      '',
      '# First',
      '',
      '```',
      '# not a heading inside a fence {{x}}',
      '```',
      '',
      '# Second',
      'Trailing text with {{{{raw}}}} and \\n escapes and `{{code}}`.',
    ].join('\n');
    const src = tempDir();
    await writeTree(src, {
      'agents/tricky.md': `---\nname: tricky\ndescription: An agent whose prompt is full of template-looking text, to test escaping.\ntools: Read\n---\n${instructions}\n`,
    });
    const out = tempDir();
    const r = await agentc(['import', 'claude-code', 'agents', '--out', out], src);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect((await prefixes(out)).get('tricky')).toContain(instructions);
    expect(r.stdout).toContain('tricky-instructions-3');
  });
});
