/**
 * `agentc export a2a`: the AgentCard of an orchestrator, validated against the
 * A2A AgentCard JSON Schema generated from @a2a-js/sdk (schemas/vendor/).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile } from '../../src/compile.js';
import { validateAgentCard } from '../../src/export/validate.js';
import { agentc, SAMPLES, tempDir } from '../import/helpers.js';

const REPO = join(import.meta.dirname, '..', '..');

interface Card {
  name: string;
  url: string;
  version: string;
  protocolVersion: string;
  capabilities: { streaming: boolean };
  skills: { id: string; name: string; description: string; tags: string[] }[];
}

describe('agentc export a2a', () => {
  it("publishes the repo's orchestrator: one skill per sub-agent, tags from owners, version from the bundle hash", async () => {
    const r = await agentc(['export', 'a2a', '--url', 'https://agents.example.com/fetch'], REPO);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const card = JSON.parse(r.stdout) as Card;
    expect(validateAgentCard(card)).toEqual({ ok: true });
    const { bundle } = await compile({ root: REPO, bundle: true });
    const orch = bundle!.agents.fetch_assistant!;
    expect(card.skills.map((s) => s.id)).toEqual(orch.sub_agents);
    for (const s of card.skills) {
      expect(s.description).toBe(bundle!.agents[s.id]!.description);
      expect(s.tags).toEqual([bundle!.agents[s.id]!.owner]);
    }
    expect(card.version).toBe(`0.0.0+bundle.${bundle!.hash.slice(0, 16)}`);
    expect(card.capabilities.streaming).toBe(true);
    expect(card.url).toBe('https://agents.example.com/fetch');
    expect(card.name).toBe('Fetch assistant');
    // Deterministic: the same workspace gives the same bytes.
    expect((await agentc(['export', 'a2a', '--url', 'https://agents.example.com/fetch'], REPO)).stdout).toBe(r.stdout);
  });

  it('asks for --agent when there are several orchestrators, and refuses a non-orchestrator', async () => {
    const ws = tempDir();
    await agentc(['import', 'openai-agents-ts', 'openai-agents-ts', '--out', ws], SAMPLES);
    const ambiguous = await agentc(['export', 'a2a', '--cwd', ws], ws);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('orchestrators: orchestrator_agent, triage_agent');
    const leaf = await agentc(['export', 'a2a', '--cwd', ws, '--agent', 'math_tutor'], ws);
    expect(leaf.code).toBe(2);
    const ok = await agentc(['export', 'a2a', '--cwd', ws, '--agent', 'triage_agent', '-o', 'card.json'], ws);
    expect(ok.code).toBe(0);
    const card = JSON.parse(readFileSync(join(ws, 'card.json'), 'utf8')) as Card;
    expect(card.skills.map((s) => [s.id, s.tags])).toEqual([
      ['history_tutor', ['imported']],
      ['math_tutor', ['imported']],
    ]);
  });

  it('exits 1 on a workspace with errors and 2 on a bad URL or target', async () => {
    const ws = tempDir();
    await agentc(['import', 'cagent', 'cagent/handoff.yaml', '--out', ws], SAMPLES);
    expect((await agentc(['export', 'a2a', '--cwd', ws, '--agent', 'root'], ws)).code).toBe(1);
    expect((await agentc(['export', 'a2a', '--url', 'not a url'], REPO)).code).toBe(2);
    expect((await agentc(['export', 'openapi'], REPO)).code).toBe(2);
  });

  it('the schema rejects cards that break the A2A format', () => {
    const good = {
      protocolVersion: '0.3.0',
      name: 'x',
      description: 'd',
      url: 'https://x.example',
      version: '1',
      capabilities: {},
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
    };
    expect(validateAgentCard(good)).toEqual({ ok: true });
    const { skills: _s, ...noSkills } = good;
    expect(validateAgentCard(noSkills).ok).toBe(false);
    expect(validateAgentCard({ ...good, skills: [{ id: 'a', name: 'A', description: 'd' }] }).ok).toBe(false);
    expect(validateAgentCard({ ...good, capabilities: { streaming: 'yes' } }).ok).toBe(false);
  });
});

describe('the vendored A2A schema', () => {
  it('is exactly what scripts/gen-a2a-schema.mjs generates from the installed @a2a-js/sdk', async () => {
    const { execFileSync } = await import('node:child_process');
    const out = join(tempDir(), 'schema.json');
    execFileSync(process.execPath, [join(REPO, 'scripts', 'gen-a2a-schema.mjs'), '--out', out]);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(REPO, 'schemas', 'vendor', 'a2a-agent-card.schema.json'), 'utf8'));
  }, 60_000);
});
