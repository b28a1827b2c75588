/**
 * `agentc import` on the real sample files of each format (copied with their
 * licences under samples/): the report's counts, the check result, and the
 * written workspace's shape.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { agentc, read, SAMPLES, tempDir } from './helpers.js';

interface Json {
  counts: Record<string, number>;
  files: { file: string; agents: string[]; dropped: { field: string; reason: string }[]; skipped: string[] }[];
  ids: { kind: string; source: string; id: string }[];
  models: { key: string; provider: string; guessed: boolean }[];
  check: { errorCount: number; warningCount: number; diagnostics: { rule: string }[] };
}

async function importJson(format: string, paths: string[]) {
  const out = tempDir();
  const r = await agentc(['import', format, ...paths, '--out', out, '--format', 'json'], SAMPLES);
  return { ...r, out, json: JSON.parse(r.stdout) as Json };
}

describe('import of the samples', () => {
  it('claude-code: three subagents, tools as placeholders, {{ kept, no errors', async () => {
    const { code, json, out } = await importJson('claude-code', ['claude-code']);
    expect(json.counts).toMatchObject({
      files: 4,
      agents: 3,
      blocks: 7,
      tools: 6,
      contracts: 0,
      placeholders: 6,
      models: 2,
      dropped: 1,
      renamedIds: 3,
      problems: 0,
      skipped: 1,
    });
    expect(json.check.errorCount).toBe(0);
    expect(code).toBe(0);
    expect(json.ids.map((i) => `${i.source}→${i.id}`)).toEqual([
      'unit-testing-debugger→unit_testing_debugger',
      'm365-admin→m365_admin',
      'prod-logs-health-check→prod_logs_health_check',
    ]);
    expect(json.files.find((f) => f.file === 'claude-code/debugger.md')!.dropped.map((d) => d.field)).toEqual(['tools']);
    expect(json.files.find((f) => f.file === 'claude-code/SOURCE.md')!.skipped).toHaveLength(1);
    expect(json.models.map((m) => [m.key, m.provider, m.guessed])).toEqual([
      ['haiku', 'anthropic', true],
      ['sonnet', 'anthropic', true],
    ]);
    expect(read(out, 'cards/m365_admin.yaml')).toContain('tools:\n  - Read\n  - Write\n  - Edit\n  - Bash\n  - Glob\n  - Grep\n');
    expect(read(out, 'cards/unit_testing_debugger.yaml')).not.toContain('tools:');
    expect(read(out, 'schemas/tools/Bash.yaml')).toContain('PLACEHOLDER');
    expect(read(out, 'blocks/prod_logs_health_check/prod_logs_health_check-instructions-1.md')).toContain('point `\\{{LOG_QUERY}}` at');
  });

  it('cagent: sub_agents and handoffs become sub_agents; the handoff cycle is reported by check', async () => {
    const { code, json, out } = await importJson('cagent', ['cagent']);
    expect(json.counts).toMatchObject({ files: 3, agents: 10, blocks: 10, tools: 5, placeholders: 5, models: 5, dropped: 6, renamedIds: 3, problems: 0 });
    expect(json.ids.map((i) => i.id)).toEqual(['background_agents_root', 'haiku_root', 'handoff_root']);
    expect(new Set(json.check.diagnostics.filter((d) => (d as { severity?: string }).severity === 'error').map((d) => d.rule))).toEqual(
      new Set(['sub-agent-cycle']),
    );
    expect(code).toBe(1);
    expect(read(out, 'cards/summarizer.yaml')).toContain('sub_agents:\n  - handoff_root\n');
    expect(read(out, 'cards/background_agents_root.yaml')).toContain('sub_agents:\n  - web_researcher\n  - code_analyst\n');
  });

  it('cagent without the handoff sample: no errors', async () => {
    const { code, json } = await importJson('cagent', ['cagent/haiku.yaml', 'cagent/background_agents.yaml']);
    expect(json.check.errorCount).toBe(0);
    expect(code).toBe(0);
  });

  it('adk: root_agent.yaml with sub_agents config paths', async () => {
    const { code, json, out } = await importJson('adk', ['adk']);
    expect(json.counts).toMatchObject({ files: 4, agents: 4, blocks: 4, tools: 0, models: 1, dropped: 1, renamedIds: 0, problems: 0 });
    expect(json.check.errorCount).toBe(0);
    expect(code).toBe(0);
    expect(read(out, 'cards/root_agent.yaml')).toContain('sub_agents:\n  - code_tutor_agent\n  - math_tutor_agent\n');
    expect(read(out, 'agentc.config.ts')).toContain('"gemini-2.5-flash": { provider: "google"');
  });

  it('fast-agent: a chain over two agents, an MCP server as a placeholder', async () => {
    const { code, json, out } = await importJson('fast-agent', ['fast-agent']);
    expect(json.counts).toMatchObject({ files: 5, agents: 4, blocks: 4, tools: 1, placeholders: 1, models: 1, dropped: 4, problems: 0, skipped: 1 });
    expect(json.check.errorCount).toBe(0);
    expect(code).toBe(0);
    expect(read(out, 'cards/post_writer.yaml')).toContain('sub_agents:\n  - url_fetcher\n  - social_media\n');
    expect(read(out, 'cards/url_fetcher.yaml')).toContain('tools:\n  - mcp_fetch\n');
  });

  it('openai-agents-ts: Agent.create, handoffs, asTool, tool() with zod', async () => {
    const { code, json, out } = await importJson('openai-agents-ts', ['openai-agents-ts']);
    expect(json.counts).toMatchObject({
      files: 3,
      agents: 9,
      blocks: 9,
      tools: 1,
      contracts: 1,
      placeholders: 0,
      models: 1,
      dropped: 9,
      renamedIds: 4,
      problems: 0,
    });
    expect(json.check.errorCount).toBe(0);
    expect(code).toBe(0);
    expect(read(out, 'cards/triage_agent.yaml')).toContain('sub_agents:\n  - history_tutor\n  - math_tutor\n');
    expect(read(out, 'cards/orchestrator_agent.yaml')).toContain('sub_agents:\n  - spanish_agent\n  - french_agent\n  - italian_agent\n');
    // asTool's toolDescription describes an agent that has no handoffDescription.
    expect(read(out, 'cards/spanish_agent.yaml')).toContain("description: Translate the user's message to Spanish\n");
    expect(read(out, 'schemas/tools/get_weather.yaml')).toContain(
      'parameters:\n  type: object\n  properties:\n    city:\n      type: string\n  required:\n    - city\n  additionalProperties: false\n',
    );
    const dropped = json.files.find((f) => f.file === join('openai-agents-ts', 'tools.ts'))!.dropped.map((d) => d.field);
    expect(dropped).toEqual(['tool get_weather.execute', 'tool get_weather.inputGuardrails', 'tool get_weather.outputGuardrails']);
  });

  it('prints the text report with every dropped field and the check summary', async () => {
    const out = tempDir();
    const r = await agentc(['import', 'fast-agent', 'fast-agent', '--out', out], SAMPLES);
    expect(r.stdout).toMatch(
      /^agentc import fast-agent: 5 files read → 4 agents, 4 blocks, 1 tool contract \(0 with parameters, 1 placeholder\), 1 model \(guessed\); 4 dropped fields, 0 renamed ids, 0 problems, 1 skipped\.\n/,
    );
    expect(r.stdout).toContain('fast-agent/chaining/post_writer.md → post_writer\n  dropped type: a chain workflow');
    expect(r.stdout).toContain('fast-agent/agent-cards/facts.md → facts\n  dropped default:');
    expect(r.stdout).toContain('  dropped skills: fast-agent skills have no agentc equivalent');
    expect(r.stdout).toContain('agentc check on the result:\n');
    expect(r.stdout).toMatch(/Found 2 warnings in 2 files\.\n$/);
  });
});
