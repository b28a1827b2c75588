/**
 * Per-agent inputs digests (src/emit/agent-digest.ts): equal for equal inputs
 * (across compiles: content, not identity), different for every agent whose
 * bundle entry an edit changes, and for every agent when the config or the
 * agentc version changes.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { agentDigests } from '../../src/emit/agent-digest.js';
import { createBundle } from '../../src/emit/bundle.js';
import { canonicalJson } from '../../src/bundle/canonical-json.js';
import type { Bundle } from '../../src/bundle/types.js';
import { AGENTC_VERSION } from '../../src/version.js';
import { evaluateConfigText, readWorkspace, withEdits } from '../helpers/memory-workspace.js';

const repo = join(import.meta.dirname, '..', '..');
let files: Map<string, Buffer>;
let config: Record<string, unknown>;

async function side(edits: Record<string, [string, string]> = {}, configValue: unknown = config): Promise<{ digests: Map<string, string>; bundle: Bundle }> {
  const result = await compile({ files: withEdits(files, edits), config: { value: configValue } });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return { digests: agentDigests(result.program!, AGENTC_VERSION), bundle: createBundle(result.program!, AGENTC_VERSION) };
}

/** Agents whose digest differs, checked against the agents whose entry differs (a digest never stays when the entry changes). */
function differing(a: Awaited<ReturnType<typeof side>>, b: Awaited<ReturnType<typeof side>>): string[] {
  const out = [...b.digests.keys()].filter((id) => a.digests.get(id) !== b.digests.get(id));
  for (const id of Object.keys(b.bundle.agents)) {
    const entryChanged = canonicalJson(a.bundle.agents[id] ?? null) !== canonicalJson(b.bundle.agents[id]);
    if (entryChanged) expect(out).toContain(id);
  }
  return out.sort();
}

let base: Awaited<ReturnType<typeof side>>;

beforeAll(async () => {
  files = await readWorkspace(repo);
  config = (await evaluateConfigText(files.get('agentc.config.ts')!.toString('utf8'), join(repo, 'agentc.config.ts'))) as Record<string, unknown>;
  base = await side();
}, 60_000);

describe('agentDigests', () => {
  it('is the same for the same inputs, compiled again', async () => {
    const again = await side();
    expect(again.digests).toEqual(base.digests);
    expect(base.digests.size).toBe(Object.keys(base.bundle.agents).length);
  });

  it('changes for the agents a block edit reaches, and only for them', async () => {
    const after = await side({ 'blocks/play/instructions-play.md': ['.', '. Keep it short.'] });
    expect(differing(base, after)).toEqual(['play']);
  });

  it("changes for an agent and its parents when its card's policy changes", async () => {
    const after = await side({ 'cards/play.yaml': ['input: 8000', 'input: 9000'] });
    const parents = Object.values(base.bundle.agents)
      .filter((a) => a.sub_agents.includes('play'))
      .map((a) => a.id);
    expect(differing(base, after)).toEqual(['play', ...parents].sort());
  });

  it('changes for the agents that hold an edited tool contract', async () => {
    const after = await side({ 'schemas/tools/get_user_points.yaml': ['spendable points balance', 'spendable balance'] });
    const holders = Object.values(base.bundle.agents).filter((a) => a.tools.neutral.some((t) => t.name === 'get_user_points'));
    expect(holders.length).toBeGreaterThan(0);
    for (const h of holders) expect(differing(base, after)).toContain(h.id);
  });

  it('changes for every agent when the config or the agentc version changes', async () => {
    const after = await side({}, { ...config, flags: [...(config.flags as string[]), 'new_flag'] });
    expect(differing(base, after)).toEqual([...base.digests.keys()].sort());
    const result = await compile({ files, config: { value: config } });
    const other = agentDigests(result.program!, `${AGENTC_VERSION}-other`);
    for (const [id, d] of base.digests) expect(other.get(id)).not.toBe(d);
  });
});
