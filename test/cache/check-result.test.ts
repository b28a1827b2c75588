/**
 * The persistent result cache: a warm run answers what a cold run answers, and any
 * change to what the result depended on — a workspace file, a file the config imports,
 * an environment variable the config reads, the output directory — is seen. A damaged
 * or foreign cache file is never a result.
 *
 * The cache is keyed by the running build's id (dist/build-id.json), which agentc run
 * from its sources does not have. The first test spawns the built CLI: it proves the real
 * binary stores and reuses results under its own build id, and that an environment
 * variable the config reads (the config worker sees the process environment) is an input.
 * The other cases run the CLI in-process (`main()`) with a build id injected through
 * `CliIO.buildId` — the same lookup and store code, without a process per run.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile, cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultCache } from '../../src/cache/check-result.js';
import { main } from '../../src/cli/main.js';
import { AGENTC_VERSION } from '../../src/version.js';

const repo = join(import.meta.dirname, '..', '..');
const bin = join(repo, 'bin', 'agentc.js');
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

let ws: string;
let cacheDir: string;

/** The built CLI, a real process (its build id is dist/build-id.json's). */
function spawnAgentc(args: string[], env: Record<string, string> = {}): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: ws,
    encoding: 'utf8',
    env: { ...process.env, AGENTC_CACHE_DIR: cacheDir, NO_COLOR: '1', CI: '1', ...env },
  });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** A build id no real build has: in-process runs store and find results under it. */
const TEST_BUILD = 'a'.repeat(64);

/** The CLI in this process, with TEST_BUILD as its build id. */
async function agentc(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, {
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    cwd: ws,
    env: { AGENTC_CACHE_DIR: cacheDir, NO_COLOR: '1', CI: '1' },
    isTTY: false,
    buildId: TEST_BUILD,
  });
  return { code, out, err };
}

const storedBuild = async (): Promise<string> => (JSON.parse(await readFile(join(cacheDir, 'check-result.json'), 'utf8')) as { build: string }).build;

const base = join(repo, 'test', 'check', 'fixtures', '_base');

beforeAll(async () => {
  ws = await mkdtemp(join(tmpdir(), 'agentc-result-cache-'));
  cacheDir = await mkdtemp(join(tmpdir(), 'agentc-result-cache-dir-'));
  dirs.push(ws, cacheDir);
  await cp(base, ws, { recursive: true });
  // The config reads a JSON file next to it and an environment variable: both are inputs of the result.
  const config = await readFile(join(ws, 'agentc.config.ts'), 'utf8');
  await writeFile(
    join(ws, 'agentc.config.ts'),
    config
      .replace("import { defineConfig } from 'agentc';", "import { defineConfig } from 'agentc';\nimport limits from './limits.json';")
      .replace('descriptionMaxTokens: 400,', 'descriptionMaxTokens: process.env.AGENTC_TEST_MAX ? Number(process.env.AGENTC_TEST_MAX) : limits.description,'),
  );
  await writeFile(join(ws, 'limits.json'), JSON.stringify({ description: 400 }));
  billing = await readFile(join(ws, 'cards', 'billing.yaml'), 'utf8');
});

let billing: string;
const brokenBilling = (): string => billing.replace('prompt_blocks: [instructions-billing]', 'prompt_blocks: [instructions-billing, missing-block]');

/** The JSON report's diagnostics as rule@file:line lists (stable to compare). */
function findings(out: string): string[] {
  const report = JSON.parse(out) as { diagnostics: { rule: string; file?: string; range?: { start: { line: number } } }[] };
  return report.diagnostics.map((d) => `${d.rule}@${d.file ?? '-'}:${d.range?.start.line ?? 0}`);
}

describe('persistent result cache', () => {
  it('the built CLI stores and reuses a result under its build id; an environment variable the config reads is an input', async () => {
    const cold = spawnAgentc(['check', '--format', 'json']);
    expect(cold.err).toBe('');
    const dist = (JSON.parse(readFileSync(join(repo, 'dist', 'build-id.json'), 'utf8')) as { buildId: string }).buildId;
    expect(await storedBuild()).toBe(dist);
    const stored = JSON.parse(await readFile(join(cacheDir, 'check-result.json'), 'utf8')) as { result: { config: { files: Record<string, string> } } };
    // The config's own imports are recorded as inputs of the result.
    expect(Object.keys(stored.result.config.files).some((f) => f.endsWith('limits.json'))).toBe(true);
    const warm = spawnAgentc(['check', '--format', 'json']);
    expect(warm.out).toBe(cold.out);
    expect(warm.code).toBe(cold.code);

    // An environment variable the config reads: descriptions over 5 tokens are reported, and not after.
    const viaEnv = findings(spawnAgentc(['check', '--format', 'json'], { AGENTC_TEST_MAX: '5' }).out);
    expect(viaEnv.some((f) => f.startsWith('description-budget@'))).toBe(true);
    // The result stored under the variable is not reused without it.
    expect(findings(spawnAgentc(['check', '--format', 'json']).out)).toEqual(findings(cold.out));
    // The same answer as agentc from its sources (in-process, another build id: a cold compile).
    expect((await agentc(['check', '--format', 'json'])).out).toBe(cold.out);
  });

  it('answers a warm check exactly as the cold one, and sees every kind of change (in-process)', async () => {
    const cold = await agentc(['check', '--format', 'json']);
    expect(cold.err).toBe('');
    expect(await storedBuild()).toBe(TEST_BUILD);
    const warm = await agentc(['check', '--format', 'json']);
    expect(warm.out).toBe(cold.out);
    expect(warm.code).toBe(cold.code);

    // A workspace file: an unknown block is reported at once.
    await writeFile(join(ws, 'cards', 'billing.yaml'), brokenBilling());
    const edited = await agentc(['check', '--format', 'json']);
    expect(findings(edited.out)).toContain('unknown-block@cards/billing.yaml:7');
    await writeFile(join(ws, 'cards', 'billing.yaml'), billing);
    expect(findings((await agentc(['check', '--format', 'json'])).out)).toEqual(findings(cold.out));

    // A file the config imports (not a workspace file): descriptions over 5 tokens are reported.
    await writeFile(join(ws, 'limits.json'), JSON.stringify({ description: 5 }));
    const tight = findings((await agentc(['check', '--format', 'json'])).out);
    expect(tight.some((f) => f.startsWith('description-budget@'))).toBe(true);
    await writeFile(join(ws, 'limits.json'), JSON.stringify({ description: 400 }));
    expect(findings((await agentc(['check', '--format', 'json'])).out)).toEqual(findings(cold.out));
  });

  it('a build with no change writes nothing; a touched output is rebuilt', async () => {
    expect((await agentc(['build'])).code).toBe(0);
    const bundle = join(ws, 'generated', 'bundle.json');
    const before = await stat(bundle);
    const again = await agentc(['build']);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/^Wrote 0 files \(\d+ unchanged\)/);
    expect((await stat(bundle)).mtimeMs).toBe(before.mtimeMs);
    expect((await agentc(['build', '--check'])).out).toMatch(/is up to date/);

    // An output file edited by hand: --check fails (the full comparison ran), build restores it.
    const text = await readFile(bundle, 'utf8');
    await writeFile(bundle, `${text} `);
    const stale = await agentc(['build', '--check']);
    expect(stale.code).toBe(1);
    expect(stale.err).toMatch(/stale\s+generated\/bundle\.json/);
    expect((await agentc(['build'])).code).toBe(0);
    expect(await readFile(bundle, 'utf8')).toBe(text);

    // An extra file in the output directory is noticed too.
    await writeFile(join(ws, 'generated', 'extra.txt'), 'x');
    expect((await agentc(['build', '--check'])).code).toBe(1);
    await rm(join(ws, 'generated', 'extra.txt'));
  });

  it('a damaged, foreign or truncated cache file is ignored (the check runs in full)', async () => {
    const cold = await agentc(['check', '--format', 'json']);
    const file = join(cacheDir, 'check-result.json');
    const good = await readFile(file, 'utf8');
    const parsed = JSON.parse(good) as { result: { diagnostics: unknown[] }; build: string; agentc: string };

    // A result that says "clean" where the workspace has an error: must not be believed.
    await writeFile(join(ws, 'cards', 'billing.yaml'), brokenBilling());
    const truth = (await agentc(['check', '--format', 'json'])).out;
    const tampered = JSON.parse(await readFile(file, 'utf8')) as typeof parsed;
    tampered.result.diagnostics = [];
    await writeFile(file, JSON.stringify(tampered));
    expect((await agentc(['check', '--format', 'json'])).out).toBe(truth);
    for (const damaged of [good.slice(0, good.length / 2), JSON.stringify({ ...parsed, build: '0'.repeat(64) })]) {
      await writeFile(file, damaged);
      expect((await agentc(['check', '--format', 'json'])).out).toBe(truth);
    }
    await writeFile(join(ws, 'cards', 'billing.yaml'), billing);
    expect((await agentc(['check', '--format', 'json'])).out).toBe(cold.out);
  });

  it('is never matched by another agentc build or version', () => {
    // Without an injected id, agentc from its sources has no build id: open() never matches a stored file.
    const stored = JSON.parse(readFileSync(join(cacheDir, 'check-result.json'), 'utf8')) as { build: string; result: { key: string } };
    expect(ResultCache.open(cacheDir, AGENTC_VERSION, stored.build).lookup(stored.result.key)).toBeDefined();
    expect(ResultCache.open(cacheDir, AGENTC_VERSION, 'f'.repeat(64)).lookup(stored.result.key)).toBeUndefined();
    expect(ResultCache.open(cacheDir, '0.0.0-other', stored.build).lookup(stored.result.key)).toBeUndefined();
  });
});
