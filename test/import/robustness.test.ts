/**
 * Malformed input never crashes an importer: every case ends with a report or a
 * one-line refusal (exit 1 or 2), never an internal error.
 */
import { describe, expect, it } from 'vitest';
import { agentc, read, tempDir, writeTree } from './helpers.js';

const CASES: Record<string, Record<string, string>> = {
  'claude-code': {
    'a.md': '---\n: : bad yaml [\n---\nx\n',
    'b.md': '---\n- a list\n---\nx\n',
    'c.md': '---\nname: 42\ndescription: [1, 2]\ntools: 7\nmodel: {x: 1}\n---\n',
    'd.md': '\u0000\u0001binary',
  },
  cagent: {
    'a.yaml': 'agents: [1, 2]\n',
    'b.yaml': 'agents:\n  root: 5\n  x:\n    toolsets: [1, {type: 3}, {type: mcp}]\n    sub_agents: nope\n    handoffs: [missing]\n    model: "a,b"\n',
    'c.yaml': '{{{',
    'd.yaml': '',
  },
  adk: {
    'root_agent.yaml':
      'name: [x]\nsub_agents: [1, {config_path: 5}, {config_path: "../../../../etc/none.yaml"}]\ntools: [{}, 3, "x"]\nmodel: {}\ninstruction: 12\n',
    'other.yaml': '- not a mapping\n',
  },
  'fast-agent': {
    'a.md': '---\ntype: chain\nsequence: 5\nservers: {a: 1}\ntools: [1]\n---\n',
    'b.yaml': 'name: b\ninstruction: [1]\nagents: [b, b, c]\n',
    'c.md': '---\nname: c\n---\n{{file:x}}',
  },
  'openai-agents-ts': {
    'a.ts':
      'const x = new Agent(opts);\nconst y = new Agent({ ...spread, name: 5, tools: 7, handoffs: [1, foo()], instructions: `${a}` });\nAgent.create();\nconst t = tool(5);\n',
    'b.ts': 'this is not typescript {{{ (((',
    'c.js': 'new Agent({ name: "js", instructions: "from js", tools: [tool({ name: "t", parameters: z.object({ a: z.string().regex(/x/) }) })] })',
  },
};

describe('robustness', () => {
  for (const [format, files] of Object.entries(CASES)) {
    it(`${format}: malformed files are reported, not crashed on`, async () => {
      const src = tempDir();
      await writeTree(src, files);
      const out = tempDir();
      const r = await agentc(['import', format, '.', '--out', out], src);
      expect(r.stderr).not.toContain('internal error');
      expect([0, 1, 2]).toContain(r.code);
      const j = await agentc(['import', format, '.', '--out', tempDir(), '--format', 'json'], src);
      expect(j.stderr).not.toContain('internal error');
    });
  }

  it('a path that does not exist and an unknown format are refused', async () => {
    const src = tempDir();
    const missing = await agentc(['import', 'adk', 'nope'], src);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope: no such file or directory');
    expect((await agentc(['import', 'crewai', '.'], src)).code).toBe(2);
  });
});

describe('source text never becomes code or structure', () => {
  it('a model name or agent name with line breaks stays inside its comment or string', async () => {
    const src = tempDir();
    await writeTree(src, {
      'team.yaml':
        'agents:\n  root:\n    model: "gpt-4o\\nthrow new Error(\'injected\')\\u2028globalThis.x = 1"\n    description: "Answers every question about the team and its schedule, and nothing else."\n    instruction: Hi.\n',
    });
    const out = tempDir();
    const r = await agentc(['import', 'cagent', '.', '--out', out], src);
    expect(r.stderr).not.toContain('injected');
    expect(r.code).toBe(0);
    const config = read(out, 'agentc.config.ts');
    for (const line of config.split(/\r?\n|\u2028|\u2029/)) expect(line.trimStart().startsWith('throw')).toBe(false);
  });
});
