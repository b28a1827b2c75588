/**
 * Property test over mutated workspaces (issue 9, "How we will know"): start
 * from the repository's own workspace, apply random mutations to any of its
 * files — characters, lines and keys deleted, inserted or replaced, ids swapped
 * between cards, truncation, binary junk, deep nesting, unicode — and run
 * `agentc check --format json` on it. For every case:
 *
 *   - the exit code is 0 or 1 (never a crash: 2 is only for an unusable workspace);
 *   - stdout is one valid JSON report whose counts match its diagnostics;
 *   - every diagnostic's range is inside its file: 1 ≤ line ≤ line count,
 *     1 ≤ column ≤ line length + 1 (start and end), end ≥ start;
 *   - no message, hint or related message holds a stack frame or `node:internal`;
 *   - the same workspace checked twice gives the same bytes.
 *
 * Deterministic: case k of seed s is always the same workspace. Runs in-process
 * through the CLI's main() for speed; the first few cases also spawn the built CLI.
 * `AGENTC_FUZZ_CASES` (default 12) sets the number of cases, `AGENTC_FUZZ_SEED` the seed,
 * `AGENTC_FUZZ_FROM` the first case (to split a big run across processes).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic, Range } from '../../src/diagnostics/diagnostic.js';
import { copyExample, keyedLines, REPO, removeTempDirs, retype, RETYPE_VALUES, runCli, type JsonReport } from './workspace.js';

const CASES = Number(process.env.AGENTC_FUZZ_CASES ?? 12);
const SEED = Number(process.env.AGENTC_FUZZ_SEED ?? 9_2026);
/** First case index (to split a big run across processes: cases FROM … FROM + CASES - 1). */
const FROM = Number(process.env.AGENTC_FUZZ_FROM ?? 0);
/** How many of the cases also run the built CLI as a child process. */
const SPAWNED = FROM + Math.min(CASES, 3);
const CLI = join(REPO, 'bin', 'agentc.js');

/** mulberry32: a small, fast, seedable PRNG (deterministic across platforms). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Random {
  int(n: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
}

function random(seed: number): Random {
  const next = rng(seed);
  return {
    int: (n) => Math.floor(next() * n),
    pick: (xs) => xs[Math.floor(next() * xs.length)]!,
    chance: (p) => next() < p,
  };
}

const SNIPPETS = [
  '{{',
  '}}',
  ':',
  '- ',
  ': ',
  '&a',
  '*a',
  '&a [1]',
  '---',
  '...',
  '\t',
  '\0',
  '\n',
  ' ',
  '  ',
  '#',
  '[',
  ']',
  '{',
  '}',
  '"',
  "'",
  '|',
  '>',
  '!!str ',
  '%YAML 1.1\n',
  '@',
  '`',
  '\\{{',
  '{{#each tools}}',
  '{{/each}}',
  '{{#if x}}',
  '{{/if}}',
  '{{> p}}',
  '{{else}}',
  '{{agent.id}}',
  '{{agent.nope}}',
  '{{user_id}}',
  '{{this}}',
  '{{lookup agent "x"}}',
  '{{log "x"}}',
  '{{../x}}',
  '{{@index}}',
  '{{{raw}}}',
  '{{!-- c --}}',
  '2026-11-21T10:00:00Z',
  '__proto__: 1',
  'constructor: 1',
  'id: x',
  '<<: *a',
  '? ',
  '\u2028',
  '\uFEFF',
  '\u0000\u0001',
  '\r',
  '\r\n',
  'é',
  '😀',
  '\u202e',
  '\u0301',
  'ﬀ',
  '\uD800',
  'export default 1;',
  '})',
  '({',
  ';',
  'process.exit(0);',
];
const VALUES = [...RETYPE_VALUES, 'strng'];

type Mutator = (text: string, r: Random, ctx: { ids: string[] }) => string;

const lines = (t: string) => t.split('\n');
const MUTATORS: Record<string, Mutator> = {
  deleteChars(t, r) {
    const at = r.int(t.length + 1);
    return t.slice(0, at) + t.slice(at + 1 + r.int(8));
  },
  insertSnippet(t, r) {
    const at = r.int(t.length + 1);
    return t.slice(0, at) + r.pick(SNIPPETS) + t.slice(at);
  },
  replaceChar(t, r) {
    const at = r.int(Math.max(1, t.length));
    return t.slice(0, at) + String.fromCodePoint(r.chance(0.5) ? 32 + r.int(95) : r.int(0x2ffff)) + t.slice(at + 1);
  },
  deleteLine(t, r) {
    const ls = lines(t);
    ls.splice(r.int(ls.length), 1);
    return ls.join('\n');
  },
  duplicateLine(t, r) {
    const ls = lines(t);
    const i = r.int(ls.length);
    ls.splice(i, 0, ls[i]!);
    return ls.join('\n');
  },
  swapLines(t, r) {
    const ls = lines(t);
    const [a, b] = [r.int(ls.length), r.int(ls.length)];
    [ls[a], ls[b]] = [ls[b]!, ls[a]!];
    return ls.join('\n');
  },
  indentLine(t, r) {
    const ls = lines(t);
    const i = r.int(ls.length);
    ls[i] = ' '.repeat(1 + r.int(6)) + ls[i];
    return ls.join('\n');
  },
  retypeValue(t, r) {
    const ls = lines(t);
    const keyed = keyedLines(ls);
    if (keyed.length === 0) return t;
    const [l, i] = r.pick(keyed);
    ls[i] = retype(l, r.pick(VALUES));
    return ls.join('\n');
  },
  renameKey(t, r) {
    const ls = lines(t);
    const keyed = ls.map((l, i) => [l, i] as const).filter(([l]) => /^\s*[A-Za-z_][\w-]*:/.test(l));
    if (keyed.length === 0) return t;
    const [l, i] = r.pick(keyed);
    ls[i] = l.replace(/^(\s*)([A-Za-z_][\w-]*)/, (_, sp: string, k: string) => `${sp}${r.chance(0.5) ? k.slice(0, -1) : `${k}${k.charAt(0)}`}`);
    return ls.join('\n');
  },
  swapIds(t, r, ctx) {
    // A reference or id replaced by another card's id (cycles, duplicates, mismatches).
    const ids = ctx.ids;
    const from = r.pick(ids);
    return t.includes(from) ? t.replace(from, r.pick(ids)) : t.replace(/^id: .*$/m, `id: ${r.pick(ids)}`);
  },
  truncate(t, r) {
    return t.slice(0, r.int(t.length + 1));
  },
  binaryJunk(t, r) {
    const junk = Array.from({ length: 1 + r.int(16) }, () => String.fromCharCode(r.int(256))).join('');
    const at = r.int(t.length + 1);
    return t.slice(0, at) + junk + t.slice(at);
  },
  deepNesting(t, r) {
    const depth = [50, 300, 3000][r.int(3)]!;
    const kind = r.int(4);
    const nest =
      kind === 0
        ? '- '.repeat(depth) + 'x\n'
        : kind === 1
          ? '['.repeat(depth) + ']'.repeat(depth) + '\n'
          : kind === 2
            ? Array.from({ length: Math.min(depth, 400) }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' 1\n'
            : '{{#if a}}'.repeat(Math.min(depth, 400)) + '{{/if}}'.repeat(Math.min(depth, 400));
    const ls = lines(t);
    ls.splice(r.int(ls.length + 1), 0, nest);
    return ls.join('\n');
  },
  unicode(t, r) {
    const at = r.int(t.length + 1);
    const s = Array.from({ length: 1 + r.int(4) }, () =>
      String.fromCodePoint(r.pick([0x41, 0xe9, 0x3a9, 0x4e2d, 0x1f600, 0x200b, 0x202e, 0xfeff, 0x2028, 0x10ffff])),
    ).join('');
    return t.slice(0, at) + s + t.slice(at);
  },
};
const MUTATOR_NAMES = Object.keys(MUTATORS);

let root: string;
let files: string[] = [];
const originals = new Map<string, Buffer>();
let cardIds: string[] = [];

async function listAll(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.push(relative(root, join(e.parentPath, e.name)).split('\\').join('/'));
  }
  return out.sort();
}

beforeAll(async () => {
  root = await copyExample('fuzzws');
  files = (await listAll(root)).filter((f) => f !== 'agentc.config.ts');
  for (const f of [...files, 'agentc.config.ts']) originals.set(f, await readFile(join(root, f)));
  cardIds = files.filter((f) => f.startsWith('cards/')).map((f) => f.slice(6).replace(/\.ya?ml$/, ''));
  const clean = await runCli(['check', '--format', 'json', '--cwd', root]);
  expect(clean.code, clean.stdout).toBe(0);
});
afterAll(removeTempDirs);

/** The edits of case k: 1-3 files (the config rarely: it is code, slow to load), 1-4 mutations each. */
function caseEdits(k: number): { file: string; text: string; mutations: string[] }[] {
  const r = random(SEED * 100_003 + k);
  const count = 1 + r.int(3);
  const chosen = new Set<string>();
  for (let i = 0; i < count; i++) chosen.add(r.chance(0.04) ? 'agentc.config.ts' : r.pick(files));
  return [...chosen].map((file) => {
    let text = originals.get(file)!.toString('utf8');
    const mutations: string[] = [];
    for (let m = 1 + r.int(4); m > 0; m--) {
      const name = r.pick(MUTATOR_NAMES);
      mutations.push(name);
      text = MUTATORS[name]!(text, r, { ids: cardIds });
    }
    return { file, text, mutations };
  });
}

/** Lines of a file as the loader counts them (BOM dropped; CRLF and lone CR are breaks). */
function loaderLines(bytes: Buffer): string[] {
  return new TextDecoder('utf-8')
    .decode(bytes)
    .replace(/^\uFEFF/, '')
    .split(/\r\n?|\n/);
}

/** The first line where two outputs differ, both versions. */
function firstDifference(a: string, b: string): string {
  const la = a.split('\n');
  const lb = b.split('\n');
  const i = la.findIndex((l, k) => l !== lb[k]);
  return `      line ${i + 1}:\n      - ${(la[i] ?? '').slice(0, 300)}\n      + ${(lb[i] ?? '').slice(0, 300)}`;
}

/** A V8 stack frame names a path (`/…`, `file://…`, `C:\…`) or `node:` before `:line:col`; user text such as a timestamp in an id is not one. */
const STACK = /\bat (?:\S+ )?\(?(?:file:\/\/|\/|[A-Za-z]:\\|node:)[^\s()]*:\d+:\d+\)?|node:internal/;

function problems(report: JsonReport, fileLines: (f: string) => string[] | undefined): string[] {
  const out: string[] = [];
  const { diagnostics: ds } = report;
  const errors = ds.filter((d) => d.severity === 'error').length;
  if (report.errorCount !== errors || report.warningCount !== ds.length - errors)
    out.push(`counts ${report.errorCount}/${report.warningCount} for ${ds.length} diagnostics`);
  const inside = (what: string, file: string, range: Range) => {
    const ls = fileLines(file);
    if (!ls) return out.push(`${what}: file ${file} does not exist`);
    const { start, end } = range;
    for (const [name, p] of [
      ['start', start],
      ['end', end],
    ] as const) {
      if (!Number.isInteger(p.line) || !Number.isInteger(p.column) || p.line < 1 || p.column < 1)
        out.push(`${what}: ${name} ${p.line}:${p.column} is not 1-based`);
      else if (p.line > ls.length) out.push(`${what}: ${name} line ${p.line} past the ${ls.length} lines of ${file}`);
      else if (p.column > ls[p.line - 1]!.length + 1)
        out.push(`${what}: ${name} ${p.line}:${p.column} past the end of the line (${ls[p.line - 1]!.length} characters)`);
    }
    if (end.line < start.line || (end.line === start.line && end.column < start.column))
      out.push(`${what}: end ${end.line}:${end.column} before start ${start.line}:${start.column}`);
    return undefined;
  };
  for (const d of ds as Diagnostic[]) {
    const what = `${d.rule} ${d.file ?? '-'}:${d.range ? `${d.range.start.line}:${d.range.start.column}` : ''} ${d.message.slice(0, 120)}`;
    for (const text of [d.message, d.hint ?? '', ...(d.related ?? []).map((x) => x.message)])
      if (STACK.test(text)) out.push(`${what}: stack frame in "${text.slice(0, 300)}"`);
    if (d.file !== undefined && d.range) inside(what, d.file, d.range);
    for (const rel of d.related ?? []) if (rel.range) inside(`${what} (related)`, rel.file, rel.range);
  }
  return out;
}

describe('property: check over mutated copies of the repo workspace', () => {
  it(`${CASES} cases from ${FROM} (seed ${SEED}): exit 0/1, JSON on stdout, ranges inside files, no stack frames, same bytes twice`, async () => {
    const failures: string[] = [];
    const started = Date.now();
    for (let k = FROM; k < FROM + CASES; k++) {
      const edits = caseEdits(k);
      const where = `case ${k} (seed ${SEED}): ${edits.map((e) => `${e.file} [${e.mutations.join(', ')}]`).join('; ')}`;
      try {
        await Promise.all(edits.map((e) => writeFile(join(root, e.file), e.text)));
        const first = await runCli(['check', '--format', 'json', '--cwd', root]);
        const second = await runCli(['check', '--format', 'json', '--cwd', root]);
        const found: string[] = [];
        if (first.code !== 0 && first.code !== 1) found.push(`exit code ${first.code}: ${first.stderr.slice(0, 500)}`);
        if (second.stdout !== first.stdout)
          found.push(`a second check of the same workspace gave different bytes:\n${firstDifference(first.stdout, second.stdout)}`);
        let report: JsonReport | undefined;
        try {
          report = JSON.parse(first.stdout) as JsonReport;
        } catch (e) {
          found.push(`stdout is not JSON (${(e as Error).message}): ${first.stdout.slice(0, 200)}`);
        }
        if (report) {
          const cache = new Map<string, string[] | undefined>();
          const fileLines = (f: string) => {
            if (!cache.has(f)) {
              const edited = edits.find((e) => e.file === f);
              const bytes = edited ? Buffer.from(edited.text, 'utf8') : originals.get(f);
              cache.set(f, bytes ? loaderLines(bytes) : undefined);
            }
            return cache.get(f);
          };
          found.push(...problems(report, fileLines));
        }
        if (k < SPAWNED && existsSync(join(REPO, 'dist', 'cli', 'main.js'))) {
          const child = spawnSync(process.execPath, [CLI, 'check', '--format', 'json', '--cwd', root], { encoding: 'utf8', timeout: 120_000 });
          if (child.status !== first.code) found.push(`spawned CLI exit ${child.status} ≠ in-process ${first.code}: ${child.stderr.slice(0, 300)}`);
          else if (child.stdout !== first.stdout) found.push('spawned CLI stdout differs from in-process');
        }
        for (const f of found) failures.push(`${where}\n    ${f}`);
      } catch (e) {
        failures.push(`${where}\n    threw: ${(e as Error).stack ?? String(e)}`);
      } finally {
        await Promise.all(edits.map((e) => writeFile(join(root, e.file), originals.get(e.file)!)));
      }
    }
    if (process.env.AGENTC_FUZZ_VERBOSE) {
      console.log(`fuzz-workspace: ${CASES} cases in ${((Date.now() - started) / 1000).toFixed(1)} s, ${failures.length} failure lines`);
      for (const f of failures) console.log(`FUZZ-FAILURE ${f.replace(/\n/g, ' ⏎ ')}`);
    }
    expect(failures.slice(0, 20)).toEqual([]);
  }, 3_600_000);
});
