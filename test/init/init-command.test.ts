import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initCommand } from '../../src/cli/commands/init.js';
import type { CliIO } from '../../src/cli/io.js';
import { readSchemaFiles } from '../../src/init/schemas.js';
import { starterFiles } from '../../src/init/template.js';

let base: string;
const cleanup: string[] = [];
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'agentc-init-test-'));
  cleanup.push(base);
});
afterEach(() => {
  for (const dir of cleanup.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function init(dir: string, force = false, cwd = base) {
  let stdout = '';
  let stderr = '';
  const io: CliIO = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), cwd, env: {}, isTTY: false };
  const code = await initCommand({ dir, force }, io);
  return { code, stdout, stderr };
}

function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(root, p).split('\\').join('/'));
    }
  };
  walk(root);
  return out.sort();
}

const expectedPaths = () => {
  const schemas = readSchemaFiles();
  if (!schemas.ok) throw new Error(schemas.message);
  return [...starterFiles({ name: 'x', version: '0.0.0' }), ...schemas.files].map((f) => f.path).sort();
};

describe('agentc init', () => {
  it('creates the starter workspace in a new directory and prints next steps', async () => {
    const { code, stdout, stderr } = await init('my-agents');
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const root = join(base, 'my-agents');
    expect(listFiles(root)).toEqual(expectedPaths());
    expect(listFiles(root)).toContain('schemas/agent-card.schema.json');
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toMatch(/^# my-agents\n/);
    expect(stdout).toContain('Created an agentc workspace in my-agents (21 files written).');
    expect(stdout).toMatch(/Next steps:\n {2}cd my-agents\n/);
    expect(stdout).toContain('npm install ');
    expect(stdout).toContain('npm run check');
    expect(stdout).toContain('npx --no-install agentc prompt concierge');
    expect(stdout).not.toMatch(/npx agentc|npm (i|install|add)\b[^\n]* agentc\b/);
  });

  it('initializes the current directory without a cd step', async () => {
    const { code, stdout } = await init('.');
    expect(code).toBe(0);
    expect(stdout).toContain('in the current directory');
    expect(stdout).not.toContain('  cd ');
    expect(existsSync(join(base, 'agentc.config.ts'))).toBe(true);
  });

  it('quotes a directory with spaces in the cd step', async () => {
    const { code, stdout } = await init('my agents');
    expect(code).toBe(0);
    expect(stdout).toContain("  cd 'my agents'\n");
  });

  it("works beside npm's files and merges package.json, keeping the dependencies it declares", async () => {
    writeFileSync(join(base, 'package.json'), JSON.stringify({ name: 'svc', devDependencies: { '@agentc/cli': 'file:../cli.tgz' } }) + '\n');
    mkdirSync(join(base, 'node_modules'));
    writeFileSync(join(base, 'package-lock.json'), '{}\n');
    const { code, stdout } = await init('.');
    expect(code).toBe(0);
    expect(stdout).toContain('package.json  (updated)');
    const pkg = JSON.parse(readFileSync(join(base, 'package.json'), 'utf8'));
    expect(pkg.name).toBe('svc');
    expect(pkg.devDependencies).toEqual({ '@agentc/cli': 'file:../cli.tgz' });
    expect(pkg.dependencies).toEqual({ '@agentc/runtime': expect.stringMatching(/^\^\d+\.\d+\.\d+/) });
    expect(pkg.scripts).toEqual({ check: 'agentc check', build: 'agentc build' });
    expect((await init('.')).stdout).toContain('package.json  (unchanged)');
  });

  it('refuses a non-empty directory unless --force, and writes nothing', async () => {
    const root = join(base, 'ws');
    mkdirSync(join(root, 'src'), { recursive: true });
    writeFileSync(join(root, 'notes.txt'), 'mine\n');
    const { code, stdout, stderr } = await init('ws');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'agentc init: ws is not empty: 2 entries are not part of the starter:\n' +
        '  notes.txt\n' +
        '  src\n' +
        'Nothing was written. Choose an empty directory, or re-run with --force to add the workspace beside them.\n',
    );
    expect(listFiles(root)).toEqual(['notes.txt']);
    expect((await init('ws', true)).code).toBe(0);
    expect(existsSync(join(root, 'agentc.config.ts'))).toBe(true);
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('mine\n');
  });

  it('is harmless to run twice', async () => {
    await init('ws');
    const again = await init('ws');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already complete; nothing to write');
    expect(again.stdout).toContain('agentc.config.ts  (unchanged)');
  });

  it('refuses to overwrite a differing file, writes nothing, and exits 2', async () => {
    const root = join(base, 'ws');
    mkdirSync(join(root, 'cards'), { recursive: true });
    writeFileSync(join(root, 'agentc.config.ts'), 'export default {};\n');
    writeFileSync(join(root, 'cards', 'orders.yaml'), 'id: orders\n');
    const { code, stdout, stderr } = await init('ws');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'agentc init: 2 files in ws already exist and differ from the starter:\n' +
        '  agentc.config.ts\n' +
        '  cards/orders.yaml\n' +
        'Nothing was written. Re-run with --force to overwrite them, or choose an empty directory.\n',
    );
    expect(listFiles(root)).toEqual(['agentc.config.ts', 'cards/orders.yaml']);
    expect(readFileSync(join(root, 'agentc.config.ts'), 'utf8')).toBe('export default {};\n');
  });

  it('overwrites with --force and says which files it replaced', async () => {
    const root = join(base, 'ws');
    mkdirSync(root);
    writeFileSync(join(root, 'agentc.config.ts'), 'export default {};\n');
    const { code, stdout } = await init('ws', true);
    expect(code).toBe(0);
    expect(stdout).toContain('agentc.config.ts  (overwritten)');
    expect(readFileSync(join(root, 'agentc.config.ts'), 'utf8')).toContain("import { defineConfig } from '@agentc/cli';");
  });

  it('replaces a symlink with --force instead of writing through it', async () => {
    const root = join(base, 'ws');
    mkdirSync(root);
    const outside = join(base, 'outside.txt');
    writeFileSync(outside, 'keep me\n');
    symlinkSync(outside, join(root, 'README.md'));
    expect((await init('ws')).code).toBe(2);
    expect((await init('ws', true)).code).toBe(0);
    expect(readFileSync(outside, 'utf8')).toBe('keep me\n');
    expect(lstatSync(join(root, 'README.md')).isSymbolicLink()).toBe(false);
  });

  it('exits 2 when a file stands where a directory must go, even with --force', async () => {
    const root = join(base, 'ws');
    mkdirSync(root);
    writeFileSync(join(root, 'cards'), 'not a directory\n');
    const { code, stderr } = await init('ws', true);
    expect(code).toBe(2);
    expect(stderr).toContain('cards/concierge.yaml: cards is a file, not a directory');
    expect(stderr).toContain('Nothing was written.');
    expect(listFiles(root)).toEqual(['cards']);
  });

  it('exits 2 when the target is a file', async () => {
    writeFileSync(join(base, 'file'), 'x');
    const { code, stderr } = await init('file');
    expect(code).toBe(2);
    expect(stderr).toBe('agentc init: file exists and is not a directory.\n');
  });

  it('shows an absolute path for a directory outside the current one', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'agentc-init-elsewhere-'));
    cleanup.push(elsewhere);
    const { code, stdout } = await init(elsewhere);
    expect(code).toBe(0);
    expect(stdout).toContain(`Created an agentc workspace in ${elsewhere} (`);
  });
});
