/** `agentc explain <rule|code>` prints the rule's page; an unknown name is exit 2 with a did-you-mean. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/io.js';
import { renderMarkdownForTerminal } from '../../src/cli/terminal-markdown.js';
import { REPO } from '../robustness/workspace.js';

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const io: CliIO = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), cwd: REPO, env: {}, isTTY: false };
  const code = await main(args, io);
  return { code, ...out };
}

describe('agentc explain', () => {
  it('prints the page of a rule id, rendered for a terminal', async () => {
    const r = await run(['explain', 'unknown-tool']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.startsWith('UNKNOWN-TOOL\n')).toBe(true);
    expect(r.stdout).toContain('Code: AGC2001 · Default severity: error');
    expect(r.stdout).toContain('Failing example');
    expect(r.stdout).not.toContain('```');
  });

  it('finds a rule by its code, in any case', async () => {
    const byId = await run(['explain', 'unknown-tool']);
    expect((await run(['explain', 'AGC2001'])).stdout).toBe(byId.stdout);
    expect((await run(['explain', 'agc2001'])).stdout).toBe(byId.stdout);
  });

  it('--raw prints the markdown page unchanged', async () => {
    const r = await run(['explain', 'token-budget', '--raw']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(REPO, 'docs', 'rules', 'token-budget.md'), 'utf8'));
  });

  it('an unknown name is a usage error with a did-you-mean', async () => {
    const r = await run(['explain', 'unknwon-tool']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/no rule or code "unknwon-tool"\. Did you mean "unknown-tool"[ ,?]/);
    const code = await run(['explain', 'AGC2010']);
    expect(code.code).toBe(2);
    expect(code.stderr).toMatch(/Did you mean "AGC2001"[ ,?]/);
  });

  it('renders headings, code fences, inline code and links as plain text', () => {
    const md = '# title\n\n> **Sum**mary\n\nUse `x` and [the docs](../cli.md).\n\n```yaml\na: 1\n```\n## Sub\n';
    expect(renderMarkdownForTerminal(md, false)).toBe('TITLE\n\n  Summary\n\nUse x and the docs (../cli.md).\n\n    a: 1\nSub\n');
  });
});
