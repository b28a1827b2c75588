/**
 * Cases written from each project's documented format (not from the samples):
 * ADK three-level config_path nesting and workflow agents, a cagent handoff
 * cycle and script tools, Claude Code agents with and without tools, fast-agent
 * routers and YAML cards, OpenAI Agents SDK code with every supported zod
 * construct and the things that cannot be read statically.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { agentc, read, tempDir, writeTree } from './helpers.js';

interface Json {
  counts: Record<string, number>;
  files: { file: string; agents: string[]; dropped: { field: string; reason: string }[]; notes: { field: string }[]; problems: string[] }[];
  ids: { kind: string; source: string; id: string }[];
  check: { errorCount: number; diagnostics: { rule: string; severity: string; message: string }[] };
}

async function run(format: string, files: Record<string, string>, paths: string[] = ['.']) {
  const src = tempDir();
  await writeTree(src, files);
  const out = tempDir();
  const r = await agentc(['import', format, ...paths, '--out', out, '--format', 'json'], src);
  if (r.stdout === '') throw new Error(r.stderr);
  return { ...r, out, json: JSON.parse(r.stdout) as Json };
}
const droppedOf = (json: Json, file: string) => json.files.find((f) => f.file === file)?.dropped.map((d) => d.field) ?? [];
const card = (out: string, id: string) => parse(read(out, `cards/${id}.yaml`)) as Record<string, unknown>;

const DESC = (what: string) => `Handles ${what} questions for the team, with sources, and nothing else at all.`;

describe('adk', () => {
  it('follows config_path three levels deep (paths relative to each file)', async () => {
    const { json, out, code } = await run(
      'adk',
      {
        'app/root_agent.yaml': `name: root\nmodel: gemini-2.0-flash\ndescription: ${DESC('every')}\ninstruction: Route the user.\nsub_agents:\n  - config_path: team/lead.yaml\n  - code: my_pkg.agents.other_agent\nbefore_agent_callbacks:\n  - name: my_pkg.callbacks.log\n`,
        'app/team/lead.yaml': `agent_class: SequentialAgent\nname: lead\ndescription: ${DESC('research')}\nsub_agents:\n  - config_path: workers/worker.yaml\n`,
        'app/team/workers/worker.yaml': `agent_class: LlmAgent\nname: worker-one\nmodel: gemini-2.5-pro\ndescription: ${DESC('search')}\ninstruction: |\n  Search, then answer.\ntools:\n  - name: google_search\n  - name: my_pkg.tools.lookup\n    args: { limit: 3 }\noutput_key: answer\n`,
      },
      ['app'],
    );
    expect(json.counts).toMatchObject({ agents: 3, placeholders: 2, problems: 0 });
    expect(card(out, 'root').sub_agents).toEqual(['lead']);
    expect(card(out, 'lead').sub_agents).toEqual(['worker_one']);
    expect(card(out, 'lead').role).toBe('orchestrator');
    expect(card(out, 'worker_one').tools).toEqual(['google_search', 'lookup']);
    expect(json.ids).toEqual([{ kind: 'agent', source: 'worker-one', id: 'worker_one', file: 'app/team/workers/worker.yaml' }]);
    expect(droppedOf(json, 'app/root_agent.yaml')).toEqual(['sub_agents[1]', 'sub_agents', 'before_agent_callbacks']);
    expect(droppedOf(json, 'app/team/lead.yaml')).toEqual(['agent_class']);
    expect(droppedOf(json, 'app/team/workers/worker.yaml')).toEqual(['tools[1].args', 'output_key']);
    expect(json.check.errorCount).toBe(0);
    expect(code).toBe(0);
  });

  it('AgentTool with a config_path is a sub-agent', async () => {
    const { json, out } = await run(
      'adk',
      {
        'root_agent.yaml': `name: root\ndescription: ${DESC('root')}\ninstruction: Use the searcher.\ntools:\n  - name: AgentTool\n    args:\n      agent:\n        config_path: ./search_agent.yaml\n      skip_summarization: false\n`,
        'search_agent.yaml': `name: search_agent\ndescription: ${DESC('search')}\ninstruction: Search.\ntools:\n  - name: google_search\n`,
      },
      ['root_agent.yaml'],
    );
    expect(card(out, 'root').sub_agents).toEqual(['search_agent']);
    expect(card(out, 'root').tools).toBeUndefined();
    expect(droppedOf(json, 'root_agent.yaml')).toEqual(['tools[0].args.skip_summarization']);
  });

  it('session-state placeholders in an instruction are kept literally and reported', async () => {
    const { json, out } = await run('adk', {
      'root_agent.yaml': `name: greeter\ndescription: ${DESC('greeting')}\ninstruction: |\n  Greet {user_name} in {app:language?}; JSON like {"a": 1} stays.\n`,
    });
    expect(json.files[0]!.dropped.map((d) => d.reason.split(' from')[0])).toEqual(['ADK fills {user_name}', 'ADK fills {app:language?}']);
    expect(read(out, 'blocks/greeter/greeter-instructions.md')).toContain('Greet {user_name} in {app:language?}; JSON like {"a": 1} stays.');
  });

  it('reports a config_path cycle and a missing file instead of looping', async () => {
    const { json, code } = await run('adk', {
      'root_agent.yaml': `name: a\ndescription: ${DESC('a')}\ninstruction: A.\nsub_agents:\n  - config_path: b.yaml\n  - config_path: missing.yaml\n`,
      'b.yaml': `name: b\ndescription: ${DESC('b')}\ninstruction: B.\nsub_agents:\n  - config_path: root_agent.yaml\n`,
    });
    const problems = json.files.flatMap((f) => f.problems);
    expect(problems.some((p) => p.includes('cycle'))).toBe(true);
    expect(problems.some((p) => p.includes('no such file') || p.includes('ENOENT'))).toBe(true);
    expect(code).toBe(1);
  });
});

describe('cagent', () => {
  it('a handoff cycle is imported as is and reported by check as sub-agent-cycle', async () => {
    const { json, code, out } = await run('cagent', {
      'team.yaml': `version: "2"\nmodels:\n  fast:\n    provider: openai\n    model: gpt-4.1-mini\n    max_tokens: 2000\nagents:\n  root:\n    model: fast\n    description: ${DESC('triage')}\n    instruction: Hand off.\n    handoffs: [helper]\n  helper:\n    model: fast\n    description: ${DESC('helper')}\n    instruction: Help, then hand back.\n    handoffs: [root]\n    add_date: true\n    toolsets:\n      - type: script\n        shell:\n          list_files:\n            cmd: ls "$dir"\n            description: Lists a directory.\n            args:\n              dir: { type: string, description: The directory. }\n            required: [dir]\n`,
    });
    const errors = json.check.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => d.rule)).toContain('sub-agent-cycle');
    expect(errors.every((d) => d.rule === 'sub-agent-cycle')).toBe(true);
    expect(code).toBe(1);
    expect(json.counts).toMatchObject({ agents: 2, contracts: 1, placeholders: 0, models: 1 });
    // models.fast.max_tokens is the output limit of the cards that use it.
    expect(card(out, 'helper').tuning).toEqual({ max_output_tokens: 2000 });
    expect(droppedOf(json, 'team.yaml')).toEqual([
      'version',
      'agents.root.handoffs',
      'agents.helper.toolsets[0].shell.list_files.cmd',
      'agents.helper.handoffs',
      'agents.helper.add_date',
    ]);
  });

  it('script tools become contracts with their args; models: references resolve', async () => {
    const { out } = await run('cagent', {
      'a.yaml': `models:\n  fast: { provider: anthropic, model: claude-haiku-4-5 }\nagents:\n  root:\n    model: fast\n    description: ${DESC('files')}\n    instruction: List files.\n    toolsets:\n      - type: script\n        shell:\n          list_files:\n            cmd: ls\n            description: Lists a directory.\n            args:\n              dir: { type: string, description: The directory. }\n            required: [dir]\n`,
    });
    const tool = parse(read(out, 'schemas/tools/list_files.yaml')) as Record<string, unknown>;
    expect(tool).toEqual({
      name: 'list_files',
      description: 'Lists a directory.',
      parameters: { type: 'object', properties: { dir: { type: 'string', description: 'The directory.' } }, additionalProperties: false, required: ['dir'] },
    });
    expect(card(out, 'root').model).toBe('anthropic-claude-haiku-4-5');
    expect(read(out, 'agentc.config.ts')).toContain('"anthropic-claude-haiku-4-5": { provider: "anthropic", model: "claude-haiku-4-5"');
  });
});

describe('claude-code', () => {
  it('with tools (comma string and YAML list) and without tools', async () => {
    const { json, out, code } = await run(
      'claude-code',
      {
        '.claude/agents/reviewer.md': `---\nname: code-reviewer\ndescription: ${DESC('code review')}\ntools: Read, Grep, mcp__github__get_pull_request\nmodel: opus\ncolor: red\npermissionMode: plan\n---\nReview the diff.\n`,
        '.claude/agents/writer.md': `---\nname: writer\ndescription: ${DESC('writing')}\ntools:\n  - Read\n  - Write\n---\nWrite docs.\n`,
        '.claude/agents/free.md': `---\nname: free\ndescription: ${DESC('anything')}\nmodel: inherit\n---\nDo anything.\n`,
      },
      ['.claude/agents'],
    );
    expect(card(out, 'code_reviewer').tools).toEqual(['Read', 'Grep', 'mcp__github__get_pull_request']);
    expect(card(out, 'writer').tools).toEqual(['Read', 'Write']);
    expect(card(out, 'free').tools).toBeUndefined();
    expect(droppedOf(json, '.claude/agents/reviewer.md')).toEqual(['color', 'permissionMode']);
    expect(droppedOf(json, '.claude/agents/free.md')).toEqual(['tools', 'model']);
    expect(read(out, 'agentc.config.ts')).toContain('"opus": { provider: "anthropic", model: "claude-opus-4-1"');
    expect(json.check.errorCount).toBe(0);
    expect(code).toBe(0);
  });

  it('a --- inside a front-matter value does not end the front matter', async () => {
    const { out } = await run('claude-code', {
      'a.md': `---\nname: dashes\ndescription: Splits work --- then merges it, for the release team only.\n---\nBody.\n`,
    });
    expect(card(out, 'dashes').description).toBe('Splits work --- then merges it, for the release team only.');
  });

  it('a file without front matter named on the command line is a problem', async () => {
    const { json, code } = await run('claude-code', { 'x.md': 'just text\n', 'ok.md': `---\nname: ok\ndescription: ${DESC('ok')}\n---\nOK.\n` }, [
      'x.md',
      'ok.md',
    ]);
    expect(json.files.find((f) => f.file === 'x.md')!.problems).toHaveLength(1);
    expect(code).toBe(1);
  });
});

describe('fast-agent', () => {
  it('router and YAML cards; fast-agent template variables reported', async () => {
    const { json, out } = await run('fast-agent', {
      'cards/router.yaml': `type: router\nname: router\ndescription: ${DESC('routing')}\nagents: [search, writer]\nmodel: sonnet\ninstruction: Route well.\n`,
      'cards/search.md': `---\nname: search\ndescription: ${DESC('search')}\nservers: [brave]\ntools:\n  brave: [web_search]\nuse_history: false\n---\nSearch on {{currentDate}}.\n`,
      'cards/writer.md': `---\nname: writer\ndescription: ${DESC('writing')}\nrequest_params:\n  maxTokens: 500\n---\nWrite.\n`,
    });
    expect(card(out, 'router').sub_agents).toEqual(['search', 'writer']);
    expect(card(out, 'search').tools).toEqual(['web_search']);
    expect(droppedOf(json, 'cards/router.yaml')).toEqual(['type']);
    expect(card(out, 'writer').tuning).toEqual({ max_output_tokens: 500 });
    expect(droppedOf(json, 'cards/search.md')).toEqual(['use_history', 'instruction']);
    expect(json.files.find((f) => f.file === 'cards/search.md')!.dropped[1]!.reason).toContain('{{currentDate}}');
    expect(read(out, 'blocks/search/search-instructions.md')).toContain('Search on \\{{currentDate}}.');
  });
});

describe('openai-agents-ts', () => {
  const ZOD = `import { Agent, tool, handoff, webSearchTool } from '@openai/agents';
import { z } from 'zod';
import { helperAgent } from './helper';
import { remoteInstructions } from 'some-package';

const Address = z.object({ street: z.string(), zip: z.string().length(5) });
const PREFIX = 'You book trips';

export const bookTrip = tool({
  name: 'book_trip',
  description: 'Books a trip.',
  parameters: z.object({
    city: z.string().describe('Destination city'),
    nights: z.number().int().min(1).max(30),
    budget: z.number().optional(),
    refundable: z.boolean(),
    cabin: z.enum(['economy', 'business']),
    tags: z.array(z.string()),
    stops: z.string().array().max(3),
    notes: z.string().nullable(),
    promo: z.string().nullish(),
    seat: z.literal('window'),
    pax: z.number().default(1),
    address: Address.optional(),
  }),
  execute: async () => 'ok',
  strict: true,
});

const broken = tool({
  name: 'broken',
  description: 'Uses a union.',
  parameters: z.object({ v: z.union([z.string(), z.number()]) }),
  execute: async () => 'x',
});

const agent = new Agent({
  name: 'Trip Agent',
  instructions: \`\${PREFIX}. Be brief.\`,
  handoffDescription: 'Books trips: flights, hotels and trains for the signed-in traveller.',
  model: 'gpt-4.1-mini',
  tools: [bookTrip, broken, webSearchTool()],
  modelSettings: { temperature: 0, maxTokens: 900 },
  outputType: z.object({ booking_id: z.string(), total: z.number().describe('In EUR') }),
});

const dynamic = new Agent({
  name: 'dynamic',
  instructions: (ctx) => 'computed ' + String(ctx),
});

const remote = new Agent({ name: 'remote', instructions: remoteInstructions });

export const triage = Agent.create({
  name: 'Triage',
  instructions: 'Route ' + 'the user.',
  handoffs: [agent, handoff(helperAgent, { onHandoff: () => {} }), dynamic, remote],
});
`;
  const HELPER = `import { Agent } from '@openai/agents';\nexport const helperAgent = new Agent({ name: 'helper', instructions: 'Help with anything the triage agent cannot place.', handoffDescription: 'General help for questions no other agent owns, in plain words.' });\n`;

  it('zod → JSON Schema for every supported construct', async () => {
    const { out } = await run('openai-agents-ts', { 'src/agents.ts': ZOD, 'src/helper.ts': HELPER }, ['src']);
    const tool = parse(read(out, 'schemas/tools/book_trip.yaml')) as { parameters: unknown };
    expect(tool.parameters).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'Destination city' },
        nights: { type: 'integer', minimum: 1, maximum: 30 },
        budget: { type: 'number' },
        refundable: { type: 'boolean' },
        cabin: { type: 'string', enum: ['economy', 'business'] },
        tags: { type: 'array', items: { type: 'string' } },
        stops: { type: 'array', items: { type: 'string' }, maxItems: 3 },
        notes: { type: ['string', 'null'] },
        promo: { type: ['string', 'null'] },
        seat: { const: 'window' },
        pax: { type: 'number', default: 1 },
        address: {
          type: 'object',
          properties: { street: { type: 'string' }, zip: { type: 'string', minLength: 5, maxLength: 5 } },
          required: ['street', 'zip'],
          additionalProperties: false,
        },
      },
      required: ['city', 'nights', 'refundable', 'cabin', 'tags', 'stops', 'notes', 'seat'],
      additionalProperties: false,
    });
  });

  it('agents, handoffs across files, and what cannot be resolved statically goes to the report', async () => {
    const { json, out } = await run('openai-agents-ts', { 'src/agents.ts': ZOD, 'src/helper.ts': HELPER }, ['src']);
    expect(card(out, 'triage').sub_agents).toEqual(['trip_agent', 'helper', 'dynamic', 'remote']);
    expect(card(out, 'trip_agent').tools).toEqual(['book_trip', 'broken', 'web_search']);
    expect(card(out, 'trip_agent').model).toBe('gpt-4.1-mini');
    expect(card(out, 'trip_agent').output).toEqual({
      type: 'object',
      properties: { booking_id: { type: 'string' }, total: { type: 'number', description: 'In EUR' } },
      required: ['booking_id', 'total'],
      additionalProperties: false,
    });
    expect(read(out, 'blocks/trip_agent/trip_agent-instructions.md')).toContain('\nYou book trips. Be brief.\n');
    expect(read(out, 'blocks/triage/triage-instructions.md')).toContain('\nRoute the user.\n');
    expect(read(out, 'schemas/tools/broken.yaml')).toContain('PLACEHOLDER');
    const d = json.files.find((f) => f.file === 'src/agents.ts')!.dropped;
    const by = (field: string) => d.find((x) => x.field === field)?.reason ?? '';
    expect(by('tool broken.parameters')).toContain('z.union');
    expect(by('dynamic.instructions')).toContain('function');
    expect(by('remote.instructions')).toContain('remoteInstructions');
    expect(by('Trip Agent.modelSettings.temperature')).toContain('sampling setting');
    expect(card(out, 'trip_agent').tuning).toEqual({ max_output_tokens: 900 });
    expect(by('Trip Agent.tools[2]')).toContain('webSearchTool');
    expect(by('Triage.handoffs[1]')).toContain('handoff() options');
    expect(by('tool book_trip.execute')).toContain('ToolHandlers');
    expect(by('tool book_trip.strict')).toContain('strict');
    expect(json.check.diagnostics.filter((x) => x.severity === 'error')).toEqual([]);
  });
});

describe('workspace merge', () => {
  const AGENT = `---\nname: reviewer\ndescription: ${DESC('review')}\ntools: Read\nmodel: sonnet\n---\nReview.\n`;

  it('merges into an existing workspace, adds models to its config, refuses overwrites without --force', async () => {
    const ws = tempDir();
    expect((await agentc(['init', ws], ws)).code).toBe(0);
    const src = tempDir();
    await writeTree(src, { 'agents/reviewer.md': AGENT });
    const first = await agentc(['import', 'claude-code', 'agents', '--out', ws], src);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const config = read(ws, 'agentc.config.ts');
    expect(config).toContain("'gpt-4.1-mini': {");
    expect(config).toContain('"sonnet": { provider: "anthropic"');
    expect(read(ws, 'cards/concierge.yaml')).toContain('id: concierge');
    // Same import again: nothing differs, nothing is refused.
    expect((await agentc(['import', 'claude-code', 'agents', '--out', ws], src)).code).toBe(0);
    expect(read(ws, 'agentc.config.ts')).toBe(config);
    // A changed source now differs from the written card: refused, nothing written.
    await writeTree(src, { 'agents/reviewer.md': AGENT.replace('Review.', 'Review carefully.') });
    const refused = await agentc(['import', 'claude-code', 'agents', '--out', ws], src);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('blocks/reviewer/reviewer-instructions.md');
    expect(refused.stderr).toContain('--force');
    expect(read(ws, 'blocks/reviewer/reviewer-instructions.md')).toContain('\nReview.\n');
    const forced = await agentc(['import', 'claude-code', 'agents', '--out', ws, '--force'], src);
    expect(forced.code).toBe(0);
    expect(read(ws, 'blocks/reviewer/reviewer-instructions.md')).toContain('\nReview carefully.\n');
  });

  it('ids are normalized deterministically and never collide', async () => {
    const files = {
      'a.md': `---\nname: My Agent\ndescription: ${DESC('a')}\n---\nA.\n`,
      'b.md': `---\nname: my-agent\ndescription: ${DESC('b')}\n---\nB.\n`,
      'c.md': `---\nname: my_agent\ndescription: ${DESC('c')}\n---\nC.\n`,
      'd.md': `---\nname: 1st agent!\ndescription: ${DESC('d')}\n---\nD.\n`,
    };
    const one = await run('claude-code', files);
    const two = await run('claude-code', files);
    expect(one.json.ids).toEqual(two.json.ids);
    expect(one.json.ids.map((i) => `${i.source}→${i.id}`)).toEqual(['My Agent→my_agent_2', 'my-agent→my_agent_3', '1st agent!→agent_1st_agent']);
    expect(one.json.files.find((f) => f.file === 'c.md')!.agents).toEqual(['my_agent']);
  });
});
