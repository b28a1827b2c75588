/**
 * docs/cli.md documents every command and every option the CLI has: the
 * commands and options are read from the CLI's own --help, so a command or
 * option added to src/cli/main.ts fails here until docs/cli.md names it (in
 * the command's own section, `## \`agentc <command>\``).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/io.js';
import { REPO } from '../robustness/workspace.js';

const PAGE = readFileSync(join(REPO, 'docs', 'cli.md'), 'utf8');

async function help(args: string[]): Promise<string> {
  let out = '';
  const io: CliIO = { stdout: (t) => void (out += t), stderr: () => undefined, cwd: REPO, env: {}, isTTY: false };
  await main([...args, '--help'], io);
  return out;
}

/** Lines of a help section ("Commands:", "Options:") up to the next blank line. */
function section(text: string, title: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(title);
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && l.trim() === '');
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

function pageSection(command: string): string {
  const start = PAGE.indexOf(`\n## \`agentc ${command}\``);
  if (start < 0) return '';
  const next = PAGE.indexOf('\n## ', start + 1);
  return PAGE.slice(start, next < 0 ? undefined : next);
}

const commands = section(await help([]), 'Commands:')
  .map((l) => /^ {2}(\w[\w-]*)/.exec(l)?.[1])
  .filter((c): c is string => c !== undefined && c !== 'help');

describe('docs/cli.md', () => {
  it('reads the command list from --help', () => {
    expect(commands).toContain('check');
    expect(commands).toContain('explain');
  });

  it.each(commands)('documents `agentc %s` and each of its options', async (command) => {
    const own = pageSection(command);
    expect(own, `add a section "## \`agentc ${command}\`" to docs/cli.md`).not.toBe('');
    const options = section(await help([command]), 'Options:')
      .flatMap((l) => [...l.matchAll(/(?:^|[\s,])(--[a-z][\w-]*)/g)].map((m) => m[1]!))
      .filter((o) => o !== '--help');
    const missing = [...new Set(options)].filter((o) => !new RegExp(`${o}(?![\\w-])`).test(own));
    expect(missing.map((o) => `document ${o} of agentc ${command} in docs/cli.md`)).toEqual([]);
  });

  it.each(commands)('the --help example of `agentc %s` names only files that exist', async (command) => {
    const text = await help([command]);
    const example = text.slice(text.indexOf('Example:'));
    const inputs = [...example.matchAll(/(?:--script|--cwd|--against)\s+([\w./-]+)/g)].map((m) => m[1]!);
    const missing = inputs.filter((f) => f !== 'main' && !existsSync(join(REPO, f)));
    expect(missing.map((f) => `agentc ${command} --help names ${f}, which does not exist in the repository`)).toEqual([]);
  });

  it('documents the global options', async () => {
    const options = section(await help([]), 'Options:').flatMap((l) => [...l.matchAll(/(--[a-z][\w-]*)/g)].map((m) => m[1]!));
    for (const o of options) expect(PAGE, `document the global option ${o} in docs/cli.md`).toContain(o);
  });
});
