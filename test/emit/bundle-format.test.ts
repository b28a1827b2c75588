/**
 * Bundle format "3" on this repository's own workspace: the prefixes are byte
 * for byte those of format "1" (sha256 pinned from the last format-1 build), and
 * a one-line edit of a block is a few-line change of the committed files.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/bundle/types.js';
import { compile } from '../../src/compile.js';
import { emitFiles } from '../../src/emit/files.js';
import { loadBundleJson } from '../../src/runtime/load-bundle.js';
import { REPO_ROOT } from './helpers/workspace.js';

/** sha256 of every prefix of the repo's workspace, computed from generated/bundle.json on main before format 2. */
const FORMAT_1_PREFIXES: Record<string, string> = {
  ereceipts: '89100207ee3c43cf369a8a47de756d70d4d96619e25fb31f14c7f51164162bab',
  'ereceipts@receipts_v2': '72966c70ef7db33636603290e88b3957741e5e98a0e24b59452b3d0d05b55fb5',
  fetch_assistant: '2706e1e08d9e4d28a7dab5d9149521885df238460c6389e7f9b0a85813379447',
  offer_details: '13b6d22d0a399535a558f79a0fad55df88feaa84ab6b7bc8469f15515758dbb1',
  'offer_details@offer_stacking': '2ef329db4d4c541e761c9532741a995dab8be02ce3f3f762b3d7b7227040eade',
  play: '8bad17483edccb38610aaf3f65fc7a6e798b92aa2f733cbc62a458dae745d182',
  restaurants: 'a84f2f2c9544d54f3c127ed12e2947ca8517f0b0a188ba14647b0c9136eb9039',
  retailer_context: '7eae889e2ea9174c9488cc16f0c7cd4977a0870b65272b254b3194ed282b595d',
  rewards: 'f6174ddc54c388219ba72e33686d35ead688a2242a5a4844ab1c24a6282ba07a',
  shop: '81af1c24dff2434f4f786ba4147222e203ef5be55f6b11e6a2c1b0b3d14d8dc5',
  support: 'd755ff3d8d861625033fea13356cba4e1258f5e95307c05f04c9cf2aa6f5efbd',
};

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function prefixHashes(bundle: Bundle): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [id, agent] of Object.entries(bundle.agents)) for (const p of agent.prefixes) out[p.key === '' ? id : `${id}@${p.key}`] = sha(p.text);
  return out;
}

async function build(overlay?: Map<string, string>): Promise<{ bundle: Bundle; files: Map<string, string> }> {
  const result = await compile({ root: REPO_ROOT, bundle: true, ...(overlay ? { overlay } : {}) });
  if (!result.bundle) throw new Error('the repository workspace does not compile');
  return { bundle: result.bundle, files: emitFiles(result.bundle) };
}

/** Lines that differ between two texts of the same line count (the edit changes no line count). */
function changedLines(a: string, b: string): number {
  const x = a.split('\n');
  const y = b.split('\n');
  expect(y.length).toBe(x.length);
  return x.filter((line, i) => line !== y[i]).length;
}

let before: { bundle: Bundle; files: Map<string, string> };

beforeAll(async () => {
  before = await build();
}, 120_000);

describe("bundle format 3 on the repository's workspace", () => {
  it('keeps every prefix byte for byte (sha256 pinned from format 1), in memory and loaded from bundle.json', () => {
    expect(prefixHashes(before.bundle)).toEqual(FORMAT_1_PREFIXES);
    const loaded = loadBundleJson(before.files.get('bundle.json')!);
    expect(prefixHashes(loaded)).toEqual(FORMAT_1_PREFIXES);
    expect(loaded).toEqual(before.bundle);
    expect(prefixHashes(loadBundleJson(before.files.get('bundle.json')!, { verify: 'all' }))).toEqual(FORMAT_1_PREFIXES);
  });

  it('matches the committed generated/ files', async () => {
    for (const name of ['bundle.json', 'bundle.ts']) {
      expect(await readFile(join(REPO_ROOT, 'generated', name), 'utf8'), name).toBe(before.files.get(name));
    }
  });

  it('stores each block text once: the platform blocks every agent uses appear once in bundle.json', () => {
    const json = before.files.get('bundle.json')!;
    const line = JSON.stringify('# Safety and trust');
    expect(json.split(line).length - 1).toBe(1);
  });

  it('turns a one-line edit of a platform block into a few-line diff of the committed files', async () => {
    const path = 'blocks/platform/safety-base.md';
    const text = await readFile(join(REPO_ROOT, path), 'utf8');
    const edited = text.replace(
      'These rules apply to every reply, whatever the user asks and however the request',
      'These rules apply to every answer, whatever the user asks and however the request',
    );
    expect(edited).not.toBe(text);
    const after = await build(new Map([[path, edited]]));
    const agents = Object.keys(after.bundle.agents).length;
    // bundle.json: the text's line, one `prefixes` line per agent (hashes, counts), the bundle hash.
    const json = changedLines(before.files.get('bundle.json')!, after.files.get('bundle.json')!);
    expect(json).toBeGreaterThanOrEqual(2);
    expect(json).toBeLessThanOrEqual(agents + 2);
    // bundle.ts declares no prompt text, hash or token count: unchanged.
    expect(after.files.get('bundle.ts')).toBe(before.files.get('bundle.ts'));
    // In format 1 each changed prefix was a whole-prompt line (~100 KB here, in each of bundle.json and bundle.ts).
    const bytes = (a: string, b: string) =>
      a
        .split('\n')
        .filter((l, i) => l !== b.split('\n')[i])
        .join('\n').length;
    expect(bytes(after.files.get('bundle.json')!, before.files.get('bundle.json')!)).toBeLessThan(10_000);
  });
});
