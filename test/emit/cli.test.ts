import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildCommand } from '../../src/cli/commands/build.js';
import { graphCommand } from '../../src/cli/commands/graph.js';
import { promptCommand } from '../../src/cli/commands/prompt.js';
import type { CliIO } from '../../src/cli/io.js';
import { copyFixture } from './helpers/workspace.js';
import { sharedCompileCache } from '../helpers/shared-config.js';

/** Runs reuse a config evaluated by an earlier one with the same text (test/helpers/shared-config.ts). */
const compileCache = sharedCompileCache();

interface Captured {
  io: CliIO;
  out: () => string;
  err: () => string;
}

function capture(cwd: string): Captured {
  let out = '';
  let err = '';
  return {
    io: { stdout: (t) => void (out += t), stderr: (t) => void (err += t), cwd, env: {}, isTTY: false, compileCache },
    out: () => out,
    err: () => err,
  };
}

async function snapshotDir(dir: string): Promise<Record<string, { text: string; mtime: number }>> {
  const result: Record<string, { text: string; mtime: number }> = {};
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const abs = join(e.parentPath, e.name);
    result[abs.slice(dir.length + 1)] = { text: await readFile(abs, 'utf8'), mtime: (await stat(abs)).mtimeMs };
  }
  return result;
}

let ws: string;
beforeEach(async () => {
  ws = await copyFixture();
});

async function build(extra: Partial<Parameters<typeof buildCommand>[0]> = {}) {
  const c = capture(ws);
  const code = await buildCommand({ cwd: '.', format: 'text', ...extra }, c.io);
  return { code, out: c.out(), err: c.err() };
}

async function edit(rel: string, fn: (text: string) => string): Promise<void> {
  const path = join(ws, rel);
  await writeFile(path, fn(await readFile(path, 'utf8')));
}

describe('agentc build', () => {
  it('writes generated/ and reports what it wrote; a second build rewrites nothing', async () => {
    const first = await build();
    expect(first).toMatchObject({ code: 0, err: '' });
    expect(first.out).toBe('Wrote 9 files (0 unchanged) to generated/\n');
    expect((await readdir(join(ws, 'generated'))).sort()).toEqual(['bundle.json', 'bundle.ts', 'orchestrator.ts', 'prompts']);
    const before = await snapshotDir(join(ws, 'generated'));

    const second = await build();
    expect(second).toMatchObject({ code: 0, out: 'Wrote 0 files (9 unchanged) to generated/\n' });
    expect(await snapshotDir(join(ws, 'generated'))).toEqual(before);
  });

  it('rewrites only what a change touches and removes prompts of cohorts that no longer exist', async () => {
    await build();
    await edit('cards/travel.yaml', (t) =>
      t.replace('prompt_blocks: [instructions-travel, travel-beta, travel-gamma]', 'prompt_blocks: [instructions-travel, travel-beta]'),
    );
    await edit('agentc.config.ts', (t) => t.replace("flags: ['beta', 'gamma']", "flags: ['beta']"));
    await rm(join(ws, 'blocks/travel/travel-gamma.md'));
    const r = await build();
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Wrote \d+ files \(\d+ unchanged, 2 removed\) to generated\/\n$/);
    expect((await readdir(join(ws, 'generated', 'prompts'))).sort()).toEqual(['billing.md', 'concierge.md', 'travel.md', 'travel@beta.md']);
  });

  it('--check passes on fresh output and fails naming the stale files, writing nothing', async () => {
    await build();
    const clean = await build({ check: true });
    expect(clean).toMatchObject({ code: 0, out: 'generated/ is up to date (9 files).\n' });

    await edit('blocks/billing/instructions-billing.md', (t) => t.replace('Answer questions', 'Answer every question'));
    const before = await snapshotDir(join(ws, 'generated'));
    const stale = await build({ check: true });
    expect(stale.code).toBe(1);
    expect(stale.err).toContain('generated/ is out of date: run `agentc build`');
    expect(stale.err).toContain('  stale    generated/prompts/billing.md');
    expect(stale.err).toContain('  stale    generated/bundle.json');
    expect(stale.err).not.toContain('prompts/travel.md');
    expect(await snapshotDir(join(ws, 'generated'))).toEqual(before);
  });

  it('--check reports missing output', async () => {
    const r = await build({ check: true });
    expect(r.code).toBe(1);
    expect(r.err).toContain('  missing  generated/bundle.json');
  });

  it('writes nothing when the workspace has an error, and prints the diagnostics', async () => {
    await build();
    const before = await snapshotDir(join(ws, 'generated'));
    await edit('cards/billing.yaml', (t) => t.replace('tools: [get_invoices, pay_invoice]', 'tools: [get_invoices, pay_invoise]'));
    const r = await build();
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/cards\/billing\.yaml:\d+:\d+ - error AGC2001 unknown-tool: .*pay_invoise/);
    expect(r.err).toContain('nothing written');
    expect(await snapshotDir(join(ws, 'generated'))).toEqual(before);
    expect((await readdir(ws)).filter((n) => n.includes('agentc-'))).toEqual([]);
  });

  it('writes nothing at all for a first build with an error', async () => {
    await edit('cards/travel.yaml', (t) => t.replace('model: claude-model', 'model: claude-modle'));
    const r = await build();
    expect(r.code).toBe(1);
    expect((await readdir(ws)).includes('generated')).toBe(false);
  });

  it('keeps stdout machine-readable with --format json', async () => {
    const r = await build({ format: 'json' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ formatVersion: '1', valid: true, errorCount: 0 });
    expect(r.err).toBe('Wrote 9 files (0 unchanged) to generated/\n');
  });

  it('resolves --out against the workspace root', async () => {
    const r = await build({ out: 'build/agents' });
    expect(r).toMatchObject({ code: 0, out: 'Wrote 9 files (0 unchanged) to build/agents/\n' });
    expect((await stat(join(ws, 'build/agents/bundle.json'))).isFile()).toBe(true);
  });

  it('refuses an output directory that holds the workspace or is not agentc output', async () => {
    const self = await build({ out: '.' });
    expect(self.code).toBe(2);
    expect(self.err).toContain('it contains the workspace itself');

    await mkdir(join(ws, 'docs'));
    await writeFile(join(ws, 'docs', 'README.md'), 'hand-written');
    const foreign = await build({ out: 'docs' });
    expect(foreign.code).toBe(2);
    expect(foreign.err).toContain('not agentc output');
    expect(await readFile(join(ws, 'docs', 'README.md'), 'utf8')).toBe('hand-written');
  });

  it('exits 2 when the workspace cannot be read', async () => {
    const c = capture(ws);
    const code = await buildCommand({ cwd: join(ws, 'does-not-exist'), format: 'text' }, c.io);
    expect(code).toBe(2);
    expect(c.err()).not.toBe('');
  });
});

describe('agentc prompt', () => {
  async function prompt(agent: string, flags?: string[] | string) {
    const c = capture(ws);
    const code = await promptCommand({ cwd: ws, agent, ...(flags === undefined ? {} : { flags }) }, c.io);
    return { code, out: c.out(), err: c.err() };
  }

  it('prints the prefix of the selected cohort with a per-block token table', async () => {
    const r = await prompt('travel', 'beta');
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toContain('──── travel · cohort beta · prefix');
    expect(r.out).toContain('Beta: you may also suggest flexible dates');
    expect(r.out).not.toContain('Gamma:');
    expect(r.out).toMatch(/4 {2}travel-beta +travel +capabilities +≈\d+/);
  });

  it('notes flags that do not affect the agent', async () => {
    const r = await prompt('billing', ['beta']);
    expect(r.code).toBe(0);
    expect(r.err).toContain('"beta" does not change the prompt of "billing"');
  });

  it('rejects an unknown agent or flag with a suggestion', async () => {
    const agent = await prompt('travl');
    expect(agent.code).toBe(2);
    expect(agent.err).toContain('there is no agent "travl". Did you mean "travel"?');
    const flag = await prompt('travel', 'bta');
    expect(flag.code).toBe(2);
    expect(flag.err).toContain('"bta" is not a feature flag of this workspace (config.flags). Did you mean "beta"?');
  });

  it('shows the prompt of a workspace with errors, with a note', async () => {
    await edit('cards/billing.yaml', (t) => t.replace('tools: [get_invoices, pay_invoice]', 'tools: [get_invoices, pay_invoise]'));
    const r = await prompt('billing');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Answer questions about invoices');
    expect(r.err).toMatch(/the workspace has \d+ errors? \(run `agentc check`\); showing the prompt as assembled so far/);
  });
});

describe('agentc graph', () => {
  it('prints the graph in mermaid and dot', async () => {
    const m = capture(ws);
    expect(await graphCommand({ cwd: ws, format: 'mermaid' }, m.io)).toBe(0);
    expect(m.out()).toMatch(/^flowchart LR\n/);
    const d = capture(ws);
    expect(await graphCommand({ cwd: ws, format: 'dot' }, d.io)).toBe(0);
    expect(d.out()).toMatch(/^digraph agentc \{\n/);
    expect(d.out()).toContain('"agent:concierge" -> "agent:travel" [label="ask_travel"];');
  });
});
