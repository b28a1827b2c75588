/**
 * Property-based robustness of the whole pipeline on disk: random mutations of
 * the example workspace's cards, blocks and two tool contracts (line deletes/duplicates/swaps,
 * YAML and Handlebars punctuation, tabs, NUL, random unicode, truncation,
 * a value replaced by one of another type) never make compile() throw, every
 * diagnostic has the docs/cli.md#diagnostics shape and points inside its file, and compiling
 * twice gives the same diagnostics.
 *
 * Seeded and reproducible: a fixed number of runs (`AGENTC_FUZZ_RUNS`, default
 * 60), never a time box, so every machine checks the same scenarios;
 * `AGENTC_FUZZ_RUNS=2000` (and `AGENTC_FUZZ_SEED`) for a long run. A failure prints
 * the seed and the shrunk counterexample (file + mutations) to replay. The config
 * is not mutated: it is evaluated once and reused through a fresh CompileCache per
 * compile (seeded with that evaluation), so each compile reads and checks the
 * mutated files from disk but does not start a config worker.
 */
import fc from 'fast-check';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, createCompileCache, type CompileCache, type CompileResult } from '../../src/compile.js';
import { CATALOG, isRuleId } from '../../src/diagnostics/catalog.js';
import { compareDiagnostics, type Diagnostic, type Range } from '../../src/diagnostics/diagnostic.js';
import { copyExample, keyedLines, removeTempDirs, retype, RETYPE_VALUES, summarize } from './workspace.js';

const SEED = Number(process.env.AGENTC_FUZZ_SEED ?? 20261121);
const RUNS = Number(process.env.AGENTC_FUZZ_RUNS ?? 60);

/** What the mutations target: orchestrator and vertical cards, platform and flagged blocks, a JSON and a YAML tool. */
const TARGETS = [
  'cards/fetch_assistant.yaml',
  'cards/rewards.yaml',
  'cards/ereceipts.yaml',
  'blocks/orchestrator/instructions-routing.md',
  'blocks/rewards/persona-rewards.md',
  'blocks/platform/safety-base.md',
  'blocks/ereceipts/instructions-receipts-v2.md',
  'blocks/shared/capabilities-points-math.md',
  'schemas/tools/get_receipt.json',
  'schemas/tools/get_user_points.yaml',
];

const SNIPPETS = [
  '{{',
  '}}',
  ':',
  '-',
  '- ',
  ': ',
  '&a',
  '*a',
  '&a [1]',
  '*b',
  '---',
  '...',
  '\t',
  '\0',
  '\n',
  ' ',
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
  '%YAML 1.1',
  '@',
  '`',
  '\\{{',
  '{{#each tools}}',
  '{{/each}}',
  '{{/if}}',
  '{{> p}}',
  '{{else}}',
  '{{agent.id}}',
  '{{agent.nope}}',
  '{{user_id}}',
  '{{#with dispatch}}',
  '{{../x}}',
  '{{@index}}',
  '{{{raw}}}',
  '{{!-- c --}}',
  '2026-11-21T10:00:00Z',
  '__proto__: 1',
  'id: x',
  '<<: *a',
  '? ',
  '\u2028',
  '\uFEFF',
  '\u0000\u0001',
];

type Mutation =
  | { kind: 'delete'; line: number }
  | { kind: 'duplicate'; line: number }
  | { kind: 'swap'; a: number; b: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'truncate'; at: number }
  | { kind: 'retype'; line: number; value: string };

const position = fc.nat({ max: 1_000_000 });
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), line: position }),
  fc.record({ kind: fc.constant('duplicate' as const), line: position }),
  fc.record({ kind: fc.constant('swap' as const), a: position, b: position }),
  fc.record({ kind: fc.constant('insert' as const), at: position, text: fc.constantFrom(...SNIPPETS) }),
  fc.record({ kind: fc.constant('insert' as const), at: position, text: fc.string({ unit: 'binary', minLength: 1, maxLength: 6 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: position, text: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: position }),
  fc.record({ kind: fc.constant('retype' as const), line: position, value: fc.constantFrom(...RETYPE_VALUES) }),
);

function apply(text: string, m: Mutation): string {
  const lines = text.split('\n');
  const li = (n: number) => n % lines.length;
  switch (m.kind) {
    case 'delete':
      lines.splice(li(m.line), 1);
      return lines.join('\n');
    case 'duplicate':
      lines.splice(li(m.line), 0, lines[li(m.line)]!);
      return lines.join('\n');
    case 'swap': {
      const [a, b] = [li(m.a), li(m.b)];
      [lines[a], lines[b]] = [lines[b]!, lines[a]!];
      return lines.join('\n');
    }
    case 'insert': {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + m.text + text.slice(at);
    }
    case 'truncate':
      return text.slice(0, m.at % (text.length + 1));
    case 'retype': {
      // The value of the n-th `key: value` line (any indentation) becomes one of another type.
      const keyed = keyedLines(lines);
      if (keyed.length === 0) return text;
      const [l, i] = keyed[m.line % keyed.length]!;
      lines[i] = retype(l, m.value);
      return lines.join('\n');
    }
  }
}

const edit = fc.record({ target: fc.constantFrom(...TARGETS), mutations: fc.array(mutation, { minLength: 1, maxLength: 4 }) });
const scenario = fc.array(edit, { minLength: 1, maxLength: 3 });

let root: string;
const originals = new Map<string, string>();
/** The workspace's config, evaluated once: the mutations never touch it. */
let config: CompileCache['config'];

/** A compile as cold as a fresh one (a new cache) except for the config's evaluation. */
function compileFresh(): Promise<CompileResult> {
  const cache = createCompileCache();
  cache.config = config;
  return compile({ root, cache });
}

beforeAll(async () => {
  root = await copyExample('fuzz');
  for (const t of TARGETS) originals.set(t, await readFile(join(root, t), 'utf8'));
  const cache = createCompileCache();
  expect((await compile({ root, cache })).diagnostics).toEqual([]);
  config = cache.config;
  expect(config?.load.error).toBeUndefined();
});
afterAll(removeTempDirs);

/** Lines of a file as the loader counts them (CRLF / lone CR are line breaks; invalid bytes decoded leniently). */
async function lineTexts(rel: string, cache: Map<string, string[]>): Promise<string[]> {
  let lines = cache.get(rel);
  if (!lines) {
    const text = new TextDecoder('utf-8').decode(await readFile(join(root, rel)));
    lines = text.replace(/^\uFEFF/, '').split(/\r\n?|\n/);
    cache.set(rel, lines);
  }
  return lines;
}

const before = (a: { line: number; column: number }, b: { line: number; column: number }) => a.line < b.line || (a.line === b.line && a.column <= b.column);

async function checkRange(where: string, file: string, range: Range, cache: Map<string, string[]>): Promise<void> {
  const lines = await lineTexts(file, cache);
  const { start, end } = range;
  for (const p of [start, end]) {
    expect(Number.isInteger(p.line) && Number.isInteger(p.column), `${where}: integer position`).toBe(true);
    expect(p.line, `${where}: line is 1-based`).toBeGreaterThanOrEqual(1);
    expect(p.column, `${where}: column is 1-based`).toBeGreaterThanOrEqual(1);
    expect(p.line, `${where}: line inside ${file} (${lines.length} lines)`).toBeLessThanOrEqual(lines.length);
  }
  expect(before(start, end), `${where}: start ≤ end`).toBe(true);
  expect(start.column, `${where}: start column inside line ${start.line} of ${file}`).toBeLessThanOrEqual(lines[start.line - 1]!.length + 1);
  expect(end.column, `${where}: end column inside line ${end.line} of ${file}`).toBeLessThanOrEqual(lines[end.line - 1]!.length + 2);
}

async function checkShape(d: Diagnostic, cache: Map<string, string[]>): Promise<void> {
  const where = `${d.rule} ${d.file}:${d.range?.start.line}:${d.range?.start.column} ${JSON.stringify(d.message).slice(0, 200)}`;
  expect(d.code, where).toMatch(/^AGC\d{4}$/);
  expect(isRuleId(d.rule), `${where}: known rule`).toBe(true);
  const entry = CATALOG[d.rule];
  expect(d.code, `${where}: code of the rule`).toBe(entry.code);
  expect(['error', 'warning'], where).toContain(d.severity);
  expect(typeof d.message === 'string' && d.message.trim().length > 0, `${where}: message`).toBe(true);
  expect(d.message, where).not.toMatch(/\[object Object\]|\bundefined\b/);
  expect(d.message, `${where}: no stack trace`).not.toContain('    at ');
  expect(d.file, `${where}: has a file`).toBeDefined();
  const files = [{ file: d.file!, range: d.range }, ...(d.related ?? []).map((r) => ({ file: r.file, range: r.range }))];
  for (const f of files) {
    const relative =
      f.file !== '' &&
      !f.file.startsWith('/') &&
      !/^[A-Za-z]:/.test(f.file) &&
      !f.file.includes('\\') &&
      !f.file.split('/').some((seg) => seg === '..' || seg === '.');
    expect(relative, `${where}: "${f.file}" is workspace-relative with / separators`).toBe(true);
  }
  expect(d.range, `${where}: has a range`).toBeDefined();
  for (const f of files) if (f.range) await checkRange(where, f.file, f.range, cache);
}

describe('fuzz: mutated cards and blocks', () => {
  it('compile() never throws, diagnostics are well-formed and deterministic', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async (edits) => {
        runs++;
        const texts = new Map(originals);
        for (const e of edits) texts.set(e.target, e.mutations.reduce(apply, texts.get(e.target)!));
        const touched = [...new Set(edits.map((e) => e.target))];
        try {
          await Promise.all(touched.map((t) => writeFile(join(root, t), texts.get(t)!)));
          const first = await compileFresh();
          expect(first.fatal).toBeUndefined();
          const cache = new Map<string, string[]>();
          for (const d of first.diagnostics) await checkShape(d, cache);
          const sorted = [...first.diagnostics].sort(compareDiagnostics);
          expect(first.diagnostics, 'sorted by file, line, column, code').toEqual(sorted);
          const second = await compileFresh();
          expect(summarize(second.diagnostics)).toBe(summarize(first.diagnostics));
          expect(second.diagnostics).toEqual(first.diagnostics);
        } finally {
          await Promise.all(touched.map((t) => writeFile(join(root, t), originals.get(t)!)));
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    if (process.env.AGENTC_FUZZ_VERBOSE) console.log(`fuzz: ${runs} runs (seed ${SEED})`);
    expect(runs, 'every run happened').toBeGreaterThanOrEqual(RUNS);
  }, 600_000);
});
