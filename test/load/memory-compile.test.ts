/**
 * compile({ files, config }) is the same compile as compile({ root }) without the disk:
 * the repo's example workspace, read into memory, gives the same diagnostics, program
 * files and bundle; the load phase's judgements (not text, too large, not a workspace
 * path) are the same; and the public export works without loading the config worker.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { compile as compileDirect } from '../../src/compile.js';
import { MAX_FILE_BYTES } from '../../src/load/workspace.js';
import { REPO } from '../robustness/workspace.js';

async function tree(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const e of await readdir(join(REPO, dir), { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.set(relative(REPO, join(e.parentPath, e.name)).split('\\').join('/'), await readFile(join(e.parentPath, e.name)));
  }
  return out;
}

async function exampleFiles(): Promise<Map<string, Buffer>> {
  const files = new Map([...(await tree('cards')), ...(await tree('blocks')), ...(await tree('schemas/tools')), ...(await tree('evals'))]);
  files.set('agentc.config.ts', await readFile(join(REPO, 'agentc.config.ts')));
  return files;
}

const exampleConfig = async (): Promise<unknown> => ((await import('../../agentc.config.js')) as { default: unknown }).default;

describe('compile({ files, config })', () => {
  it('equals compile({ root }) on the example workspace: diagnostics, files and bundle', async () => {
    const [disk, memory] = await Promise.all([
      compileDirect({ root: REPO, bundle: true, persistentCache: false }),
      compile({ files: await exampleFiles(), config: { value: await exampleConfig() }, bundle: true }),
    ]);
    expect(disk.fatal).toBeUndefined();
    expect(memory.fatal).toBeUndefined();
    expect(memory.diagnostics).toEqual(disk.diagnostics);
    expect([...memory.files.keys()]).toEqual([...disk.files.keys()]);
    expect(memory.bundle).toBeDefined();
    expect(JSON.stringify(memory.bundle)).toBe(JSON.stringify(disk.bundle));
  });

  it('reports what is not text and what is too large, as on disk; ignores paths that are not workspace files', async () => {
    const files = await exampleFiles();
    files.set('blocks/shared/binary.md', Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0x01]));
    files.set('blocks/shared/huge.md', 'x'.repeat(MAX_FILE_BYTES + 1));
    files.set('notes/readme.txt', 'not a workspace file');
    files.set('blocks/.hidden/skipped.md', 'never read');
    const r = await compile({ files, config: { value: await exampleConfig() } });
    expect(r.diagnostics.map((d) => `${d.rule} ${d.file}`)).toEqual(['frontmatter blocks/shared/binary.md', 'file-too-large blocks/shared/huge.md']);
    expect(r.diagnostics[0]!.message).toContain('binary');
  });

  it('without a config: one config-load error, as for a workspace with no config file', async () => {
    const files = await exampleFiles();
    files.delete('agentc.config.ts');
    const r = await compile({ files });
    expect(r.diagnostics.filter((d) => d.rule === 'config-load').map((d) => d.message)).toHaveLength(1);
  });

  it('nothing to compile (no workspace folder, no config) is fatal, as for a directory that is not a workspace', async () => {
    const r = await compile({ files: { 'notes/readme.txt': 'hello' } });
    expect(r.fatal).toMatch(/^\(in-memory workspace\) is not an agentc workspace/);
  });

  it('a config file without its value is a programming error, not a diagnostic', async () => {
    await expect(compile({ files: await exampleFiles() })).rejects.toThrow(/pass its value as `config`/);
  });

  it('config ranges come from config.text when given', async () => {
    const files = await exampleFiles();
    const text = (files.get('agentc.config.ts') ?? Buffer.alloc(0)).toString('utf8');
    files.delete('agentc.config.ts');
    const value = (await exampleConfig()) as { platform?: { requiredBlocks?: string[] } };
    const broken = { ...value, platform: { ...value.platform, requiredBlocks: [...(value.platform?.requiredBlocks ?? []), 'no-such-block'] } };
    const r = await compile({ files, config: { value: broken, text } });
    const unknown = r.diagnostics.find((d) => d.rule === 'unknown-block');
    expect(unknown?.file).toBe('agentc.config.ts');
  });
});
