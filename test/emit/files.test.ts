/**
 * Every file `agentc build` writes for the emit fixture workspace, as file
 * snapshots (test/emit/__snapshots__/ws/): a change to any generator shows up
 * as a reviewable diff of real output. `.ts` outputs are stored as `.ts.txt` so
 * that no tool mistakes them for sources.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bundle, BundlePrefix } from '../../src/bundle/types.js';
import { bundleHash } from '../../src/emit/bundle.js';
import { contentToString } from '../../src/emit/content.js';
import { createBundle } from '../../src/emit/bundle.js';
import { createEmitCache } from '../../src/emit/cache.js';
import { emitFiles, emitOutput } from '../../src/emit/files.js';
import { compile } from '../../src/compile.js';
import { FIXTURE_WS, fixtureBundle } from './helpers/workspace.js';
import { renderGraph } from '../../src/emit/graph.js';
import { boundaryLine, renderPromptFile, renderPromptFileBytes, renderPromptReport, selectCohort } from '../../src/emit/prompts.js';
import { storeBundle, storedJson } from '../../src/emit/stored.js';
import { loadBundleJson } from '../../src/runtime/load-bundle.js';

let bundle: Bundle;
let files: Map<string, string>;

beforeAll(async () => {
  const compiled = await fixtureBundle();
  // Pin the version so the snapshots do not change with every release.
  const pinned = { ...compiled, agentcVersion: '0.0.0-test' };
  bundle = { ...pinned, hash: bundleHash(pinned) };
  files = emitFiles(bundle);
}, 60_000);

const snapshotPath = (path: string) => `./__snapshots__/ws/${path}${path.endsWith('.ts') ? '.txt' : ''}`;

describe('emitFiles', () => {
  it('emits the bundle, the typed modules and one prompt file per cohort, in sorted order', () => {
    expect([...files.keys()]).toEqual([
      'bundle.json',
      'bundle.ts',
      'orchestrator.ts',
      'prompts/billing.md',
      'prompts/concierge.md',
      'prompts/travel.md',
      'prompts/travel@beta+gamma.md',
      'prompts/travel@beta.md',
      'prompts/travel@gamma.md',
    ]);
  });

  it('is deterministic, LF-only, and every file ends with one newline', () => {
    const again = emitFiles(JSON.parse(JSON.stringify(bundle)) as Bundle);
    expect([...again]).toEqual([...files]);
    for (const [path, content] of files) {
      expect(content, path).not.toContain('\r');
      expect(content.endsWith('\n'), path).toBe(true);
      expect(content.endsWith('\n\n'), path).toBe(false);
    }
    expect(files.get('bundle.json')).toBe(storedJson(storeBundle(bundle)));
  });

  it('emitOutput makes the same files, byte for byte, each prompt file anew on every get', () => {
    const lazy = emitOutput(bundle);
    expect(lazy.size).toBe(files.size);
    expect([...lazy.keys()]).toEqual([...files.keys()]);
    expect([...lazy].map(([path, content]) => [path, contentToString(content)])).toEqual([...files]);
    expect(lazy.get('prompts/travel.md')).not.toBe(lazy.get('prompts/travel.md'));
    expect(lazy.has('prompts/nobody.md')).toBe(false);
    expect(lazy.get('prompts/nobody.md')).toBeUndefined();
  });

  it("a build's one-off cache (createBundle, then emitOutput on the same cache) makes the bytes a watch cache makes", async () => {
    const { program } = await compile({ root: FIXTURE_WS });
    const once = createEmitCache({ once: true });
    const built = createBundle(program!, '0.0.0-test', once);
    const lazy = emitOutput(built, once);
    const watched = emitFiles(createBundle(program!, '0.0.0-test', createEmitCache()), createEmitCache());
    expect([...lazy].map(([path, content]) => [path, contentToString(content)])).toEqual(
      [...watched].map(([path, content]) => [path, contentToString(content)]),
    );
  });

  it('bundle.json loads back to the bundle, lazily and with every prefix checked', () => {
    expect(loadBundleJson(files.get('bundle.json')!)).toEqual(bundle);
    expect(loadBundleJson(files.get('bundle.json')!, { verify: 'all' })).toEqual(bundle);
  });

  it('bundle.ts declares the type and holds no prompt text', () => {
    const ts = files.get('bundle.ts')!;
    expect(ts).toContain("import { readBundle } from '@agentc/runtime/bundle';");
    expect(ts).toContain("export const bundle: Bundle = readBundle(new URL('./bundle.json', import.meta.url)) as unknown as Bundle;");
    for (const agent of Object.values(bundle.agents))
      for (const p of agent.prefixes) for (const b of p.blocks) expect(ts).not.toContain(p.text.slice(b.start, b.start + b.length));
  });

  it('each prompt file holds every block of its prefix verbatim, in order, then the suffix template', () => {
    for (const agent of Object.values(bundle.agents)) {
      for (const prefix of agent.prefixes) {
        const md = files.get(`prompts/${agent.id}${prefix.key ? `@${prefix.key}` : ''}.md`)!;
        let at = 0;
        for (const block of prefix.blocks) {
          const marker = boundaryLine(block, bundle.models[agent.model]!.approximateTokens);
          const text = prefix.text.slice(block.start, block.start + block.length);
          const found = md.indexOf(`${marker}\n${text}\n`, at);
          expect(found, `${agent.id}@${prefix.key}: ${block.id}`).toBeGreaterThanOrEqual(at);
          at = found + marker.length;
        }
        expect(md.endsWith(`${agent.suffix_template}\n`)).toBe(true);
        expect(md).toContain(prefix.sha256);
      }
    }
  });

  it('marks token counts of a model without a published tokenizer as approximate', () => {
    expect(files.get('prompts/travel.md')).toMatch(/- Prefix: ≈\d+ tokens/);
    expect(files.get('prompts/billing.md')).toMatch(/- Prefix: \d+ tokens · \d+\.\d% of token_budget\.input \(4,000\)/);
  });

  it.each(['bundle.json', 'bundle.ts', 'orchestrator.ts', 'prompts/billing.md', 'prompts/concierge.md', 'prompts/travel.md', 'prompts/travel@beta+gamma.md'])(
    '%s matches its snapshot',
    async (path) => {
      await expect(files.get(path)).toMatchFileSnapshot(snapshotPath(path));
    },
  );
});

describe('renderPromptFileBytes', () => {
  // Compared as bytes with renderPromptFile's text encoded whole.
  const same = (agentId: string, prefix: BundlePrefix): void => {
    const agent = bundle.agents[agentId]!;
    const model = bundle.models[agent.model];
    expect(renderPromptFileBytes(agent, prefix, model).equals(Buffer.from(renderPromptFile(agent, prefix, model), 'utf8')), `${agentId}@${prefix.key}`).toBe(
      true,
    );
  };

  it('makes the bytes of renderPromptFile for every prefix', () => {
    for (const agent of Object.values(bundle.agents)) {
      for (const prefix of agent.prefixes) same(agent.id, prefix);
    }
  });

  it('encodes multi-byte text in place, and writes an empty block as renderPromptFile does', () => {
    const travel = bundle.agents.travel!;
    const base = travel.prefixes[0]!;
    expect(base.blocks.length).toBeGreaterThanOrEqual(2);
    // Multi-byte characters (2, 3 and 4 bytes, a surrogate pair, a lone surrogate at a block's end) before, inside and between the blocks; one block empty.
    const texts = base.blocks.map((_, i) => (i === 1 ? '' : `Bloc ${i}: café · naïve ≈ 3 — 🙂 done\nsecond line ${'é'.repeat(i)}\ud83d`));
    let text = 'Préambule ✓\n\n';
    const blocks = base.blocks.map((b, i) => {
      if (i > 0) text += '\n\n¶ ';
      const start = text.length;
      text += texts[i]!;
      return { ...b, start, length: texts[i]!.length };
    });
    const prefix: BundlePrefix = { ...base, text, blocks };
    expect(Buffer.byteLength(text, 'utf8')).toBeGreaterThan(text.length);
    same('travel', prefix);
  });
});

describe('renderGraph', () => {
  it('draws agents, ask_* edges labelled with the tool name, and tool nodes (mermaid)', async () => {
    const mermaid = renderGraph(bundle, 'mermaid');
    expect(mermaid).toContain('a_concierge -->|"ask_travel"| a_travel');
    expect(mermaid).toContain('a_billing -.-> t_get_invoices');
    expect(mermaid).toContain('t_get_invoices[("get_invoices")]');
    await expect(mermaid).toMatchFileSnapshot('./__snapshots__/ws/graph.mmd');
  });

  it('draws the same graph in DOT', async () => {
    const dot = renderGraph(bundle, 'dot');
    expect(dot).toContain('"agent:concierge" -> "agent:billing" [label="ask_billing"];');
    expect(dot).toContain('"tool:get_invoices" [label="get_invoices", shape=cylinder];');
    await expect(dot).toMatchFileSnapshot('./__snapshots__/ws/graph.dot');
  });
});

describe('renderPromptReport', () => {
  it('prints the prefix, the suffix template and a per-block token table', async () => {
    const travel = bundle.agents.travel!;
    const cohort = selectCohort(travel, ['beta', 'unrelated'])!;
    expect(cohort.key).toBe('beta');
    const report = renderPromptReport(travel, cohort, bundle.models[travel.model]);
    expect(report).toContain(cohort.text);
    expect(report).toMatch(/\btotal\s+≈\d+/);
    await expect(report).toMatchFileSnapshot('./__snapshots__/ws/prompt-report-travel@beta.txt');
  });

  it('selects the default cohort when no flag the agent uses is on', () => {
    expect(selectCohort(bundle.agents.travel!, [])!.key).toBe('');
    expect(selectCohort(bundle.agents.travel!, ['gamma', 'beta'])!.key).toBe('beta+gamma');
  });
});
