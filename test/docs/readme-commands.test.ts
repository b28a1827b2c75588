/**
 * Every command README.md shows works as written: the shell examples (```sh
 * blocks, and `$ ` lines of ```console blocks) run, one line at a time, in a
 * temp copy of the repository (so nothing in the repo changes), and must exit 0.
 * A line that is only `agentc ARGS` / `npx agentc ARGS` runs in-process (the CLI's
 * main() with the same argv and cwd); a line that needs a shell runs in bash, where
 * `agentc` is the built bin/agentc.js (run `node scripts/build.mjs` first; `npm test`
 * does). A line that needs something a test cannot have is
 * marked in the README with a trailing comment `# needs: <what>` (or a whole
 * block, with a line `<!-- needs: <what> -->` right before its fence) and
 * skipped; the reasons accepted and the number of markers are kept small below.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runCli } from '../robustness/workspace.js';

const run = promisify(execFile);

export interface ReadmeCommand {
  /** 1-based line in README.md. */
  line: number;
  command: string;
  /** The `# needs: …` reason, when the line is marked. */
  needs?: string;
}

/**
 * The lines a reader would type: ```sh blocks, and `$ ` lines of ```console blocks.
 * A line `<!-- needs: … -->` right before a fence marks every line of that block.
 */
export function shellExamples(markdown: string): ReadmeCommand[] {
  const out: ReadmeCommand[] = [];
  let fence: 'sh' | 'console' | 'other' | undefined;
  let blockNeeds: string | undefined;
  const lines = markdown.split('\n');
  lines.forEach((text, i) => {
    const open = /^```(\w*)\s*$/.exec(text);
    if (open && fence === undefined) {
      fence = open[1] === 'sh' || open[1] === 'bash' || open[1] === 'shell' ? 'sh' : open[1] === 'console' ? 'console' : 'other';
      blockNeeds = /^<!--\s*needs:\s*(.+?)\s*-->\s*$/.exec(lines[i - 1] ?? '')?.[1];
      return;
    }
    if (/^```\s*$/.test(text) && fence !== undefined) {
      fence = undefined;
      return;
    }
    if (fence === 'other' || fence === undefined) return;
    let line = text;
    if (fence === 'console') {
      if (!line.startsWith('$ ')) return;
      line = line.slice(2);
    }
    const { command, comment } = splitComment(line);
    if (command === '') return;
    const needs = blockNeeds ?? /^needs:\s*(.+)$/.exec(comment ?? '')?.[1]?.trim();
    out.push({ line: i + 1, command, ...(needs === undefined ? {} : { needs }) });
  });
  return out;
}

/** Splits a trailing ` # comment` off a shell line (a `#` inside quotes is not a comment). */
function splitComment(line: string): { command: string; comment?: string } {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return { command: line.slice(0, i).trim(), comment: line.slice(i + 1).trim() };
  }
  return { command: line.trim() };
}

/**
 * The argv of a line that is only `agentc ARGS` (or `npx [--no-install] agentc ARGS`) with plain
 * or quoted words; undefined when the line needs a shell (operators, expansions, escapes).
 */
export function agentcArgv(command: string): string[] | undefined {
  const words: string[] = [];
  const re = /\s*(?:"([^"$`\\]*)"|'([^']*)'|([^\s"'$`\\|&;<>()*?[\]{}~!#]+))(?=\s|$)/y;
  let m: RegExpExecArray | null;
  while (re.lastIndex < command.length && (m = re.exec(command)) !== null) words.push(m[1] ?? m[2] ?? m[3]!);
  if (re.lastIndex !== command.length && command.slice(re.lastIndex).trim() !== '') return undefined;
  if (words[0] === 'npx') words.splice(0, words[1] === '--no-install' ? 2 : 1);
  return words[0] === 'agentc' ? words.slice(1) : undefined;
}

/** What may be skipped, and why: anything else marked `# needs:` fails the test. */
const ALLOWED_NEEDS = [/^network\b/, /^server\b/, /^time\b/];
const MAX_SKIPPED = 3;

const README = await readFile(join(REPO, 'README.md'), 'utf8');
const commands = shellExamples(README);
const runnable = commands.filter((c) => c.needs === undefined);
let copy: string;

/** `agentc` and `npx agentc` are the repository's own built CLI. */
const PRELUDE = [
  'set -eo pipefail',
  `agentc() { node "$AGENTC_BIN" "$@"; }`,
  `npx() { if [ "$1" = agentc ]; then shift; agentc "$@"; elif [ "$1" = --no-install ] && [ "$2" = agentc ]; then shift 2; agentc "$@"; else command npx "$@"; fi; }`,
].join('\n');

beforeAll(async () => {
  copy = await mkdtemp(join(tmpdir(), 'agentc-readme-'));
  await cp(REPO, copy, {
    recursive: true,
    // What .gitignore leaves out of a clone (bench/.work holds the bench's 1,000-card workspace).
    filter: (src) => !/[/\\](node_modules|\.git|dist|coverage)$/.test(src) && !['bench/.work', 'tmp'].includes(relative(REPO, src).split(sep).join('/')),
  });
});
afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

describe('README.md commands', () => {
  it('finds the examples, and skips only a few marked ones', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(5);
    const skipped = commands.filter((c) => c.needs !== undefined);
    const markers = new Set(skipped.map((c) => (c.needs === undefined ? '' : `${c.needs}`)));
    expect(markers.size, `at most ${MAX_SKIPPED} "# needs:" markers in README.md: ${[...markers].join('; ')}`).toBeLessThanOrEqual(MAX_SKIPPED);
    const unexplained = skipped.filter((c) => !ALLOWED_NEEDS.some((re) => re.test(c.needs!)));
    expect(unexplained.map((c) => `README.md:${c.line} "# needs: ${c.needs}" is not an accepted reason (network, server, time)`)).toEqual([]);
  });

  it('parses sh and console blocks, comments and markers', () => {
    const md = [
      '```sh',
      'a --x "b # c"   # note',
      'npm ci # needs: network',
      '```',
      '```console',
      '$ agentc check',
      'output',
      '```',
      '```ts',
      'not a command',
      '```',
      '<!-- needs: server (x) -->',
      '```sh',
      'curl y',
      'curl z',
      '```',
    ].join('\n');
    expect(shellExamples(md)).toEqual([
      { line: 2, command: 'a --x "b # c"' },
      { line: 3, command: 'npm ci', needs: 'network' },
      { line: 6, command: 'agentc check' },
      { line: 14, command: 'curl y', needs: 'server (x)' },
      { line: 15, command: 'curl z', needs: 'server (x)' },
    ]);
  });

  it('reads plain agentc lines as argv, and leaves shell syntax to a shell', () => {
    expect(agentcArgv('npx --no-install agentc run a "b, c?" --x y')).toEqual(['run', 'a', 'b, c?', '--x', 'y']);
    expect(agentcArgv("agentc explain 'x y'")).toEqual(['explain', 'x y']);
    expect(agentcArgv('npx agentc check')).toEqual(['check']);
    expect(agentcArgv('npx --no-install agentc init a && npx --no-install agentc check --cwd a')).toBeUndefined();
    expect(agentcArgv('agentc check > out.txt')).toBeUndefined();
    expect(agentcArgv('agentc prompt "$NAME"')).toBeUndefined();
    expect(agentcArgv('npm run build')).toBeUndefined();
  });

  // A line that is just `agentc ARGS` runs in-process (main() with the same argv, cwd and
  // NO_COLOR); anything needing a shell runs in bash with the built CLI. test/cli/spawn.test.ts
  // covers the built binary itself (exit codes, stdout purity, signals).
  it.each(runnable.map((c) => [`README.md:${c.line}: ${c.command}`, c] as const))('%s', async (_name, c) => {
    const argv = agentcArgv(c.command);
    if (argv !== undefined) {
      const r = await runCli(argv, { cwd: copy, env: { NO_COLOR: '1' } });
      if (r.code !== 0) expect.fail(`README.md:${c.line} exited ${r.code}:\n$ ${c.command}\n${r.stderr.slice(0, 2000)}${r.stdout.slice(0, 1000)}`);
      return;
    }
    const env = { ...process.env, AGENTC_BIN: join(REPO, 'bin', 'agentc.js'), NO_COLOR: '1' };
    delete env.GITHUB_STEP_SUMMARY;
    try {
      await run('bash', ['-c', `${PRELUDE}\n${c.command}`], { cwd: copy, env, maxBuffer: 64 * 1024 * 1024 });
    } catch (e) {
      const err = e as { code?: number; stdout?: string; stderr?: string };
      expect.fail(
        `README.md:${c.line} exited ${err.code}:\n$ ${c.command}\n${String(err.stderr ?? '').slice(0, 2000)}${String(err.stdout ?? '').slice(0, 1000)}`,
      );
    }
  });
});
