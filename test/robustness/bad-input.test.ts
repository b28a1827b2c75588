/**
 * Bad input, one case at a time: each case breaks one thing in a copy of the
 * example workspace and asserts that
 *   - compile() returns (no throw, not fatal),
 *   - the expected rule fires at the exact file + range,
 *   - no diagnostic carries a JS stack trace,
 *   - the JSON report of those diagnostics parses back to the same list, and
 *   - for the clean cases and those marked `cli` (one or more per kind of input:
 *     binary, encodings, sizes, hostile names, the config, templates, the file
 *     system), `agentc check --format json` exits 1 (0 when clean) and prints
 *     only JSON, with the same diagnostics compile() returned. The CLI runs the
 *     same compile() and renderer, so running it for every case re-tested one
 *     code path at the cost of a second compile and config evaluation per case.
 *
 * The config is evaluated once (in beforeAll) and reused by every case whose
 * agentc.config.ts is byte-identical to the example's, through a fresh
 * CompileCache per case seeded with that evaluation (the cache re-checks the
 * config's text and inputs on use); a case that edits the config evaluates it.
 *
 * Known agentc bugs found here are `it.fails` tests named "BUG: …": they pass
 * while the bug is there and start failing (as a reminder to flip them) once
 * it is fixed.
 */
import { chmod, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, createCompileCache, type CompileCache, type CompileResult } from '../../src/compile.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { renderJson } from '../../src/diagnostics/render/json.js';
import { checkJson, copyExample, edit, removeTempDirs, REPO, STACK_FRAME, summarize, write, type JsonReport } from './workspace.js';

afterAll(removeTempDirs);

type Pos = [line: number, column: number];
interface Expected {
  rule: string;
  file: string;
  start: Pos;
  end?: Pos;
  message?: RegExp;
  hint?: RegExp;
}

const at = (d: Diagnostic): string => (d.range ? `${d.range.start.line}:${d.range.start.column}` : '-');
const matches = (d: Diagnostic, e: Expected): boolean =>
  d.rule === e.rule &&
  d.file === e.file &&
  d.range?.start.line === e.start[0] &&
  d.range.start.column === e.start[1] &&
  (!e.end || (d.range.end.line === e.end[0] && d.range.end.column === e.end[1])) &&
  (!e.message || e.message.test(d.message)) &&
  (!e.hint || e.hint.test(d.hint ?? ''));

function expectNoStackTraces(ds: readonly Diagnostic[]): void {
  for (const d of ds) {
    expect(d.message, `${d.rule} message leaks a stack trace`).not.toContain('    at ');
    expect(d.message).not.toMatch(STACK_FRAME);
    expect(d.hint ?? '').not.toMatch(STACK_FRAME);
  }
}

/** The example's config, evaluated once (beforeAll); reused while a case leaves agentc.config.ts byte-identical. */
let exampleConfig: CompileCache['config'];
let exampleConfigBytes: Buffer | undefined;
/** One token counter for every case (a count is a function of the text alone): the example's blocks are counted once. */
let tokens: CompileCache['tokens'];

/**
 * compile() of a case's workspace on disk: a fresh cache, seeded with the example's evaluated config
 * when it is unchanged, and with the shared token counter.
 */
async function compileCase(dir: string, options: { bundle?: boolean } = {}): Promise<CompileResult> {
  const cache = createCompileCache();
  if (tokens) cache.tokens = tokens;
  const text = await readFile(join(dir, CONFIG)).catch(() => undefined);
  if (text && exampleConfigBytes && text.equals(exampleConfigBytes)) cache.config = exampleConfig;
  return compile({ root: dir, cache, ...options });
}

/** The JSON report of `ds`, parsed back: what `check --format json` would print for this compile. */
function jsonRoundTrip(ds: readonly Diagnostic[]): JsonReport {
  const text = renderJson(ds);
  expect(text).not.toMatch(STACK_FRAME);
  return JSON.parse(text) as JsonReport;
}

/** Whether to also run `agentc check --format json` in-process (see the module comment). */
interface CaseOptions {
  cli?: boolean;
}

/** compile() + report assertions shared by every failing case; returns the compile result for extra checks. */
async function expectFindings(dir: string, expected: Expected[], opts: CaseOptions = {}): Promise<CompileResult> {
  const result = await compileCase(dir);
  expect(result.fatal).toBeUndefined();
  for (const e of expected) {
    const hit = result.diagnostics.find((d) => matches(d, e));
    expect(
      hit,
      `expected ${e.rule} at ${e.file}:${e.start.join(':')}${e.end ? `-${e.end.join(':')}` : ''}${e.message ? ` /${e.message.source}/` : ''}; got:\n${summarize(result.diagnostics)}`,
    ).toBeDefined();
  }
  expectNoStackTraces(result.diagnostics);
  const report = jsonRoundTrip(result.diagnostics);
  expect(report.valid).toBe(false);
  expect(report.diagnostics).toEqual(result.diagnostics);
  if (!opts.cli) return result;
  const cli = await checkJson(dir);
  expect(cli.code).toBe(1);
  expect(cli.report.valid).toBe(false);
  expect(cli.report.diagnostics).toEqual(result.diagnostics);
  expect(cli.stderr).not.toMatch(STACK_FRAME);
  return result;
}

/** Every clean case also runs the CLI: exit 0 and an empty JSON report. */
async function expectClean(dir: string): Promise<CompileResult> {
  const result = await compileCase(dir);
  expect(result.fatal).toBeUndefined();
  expect(summarize(result.diagnostics)).toBe('');
  const cli = await checkJson(dir);
  expect(cli.code).toBe(0);
  expect(cli.report).toMatchObject({ valid: true, errorCount: 0, warningCount: 0, diagnostics: [] });
  return result;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
}

const REWARDS = 'cards/rewards.yaml';
const PERSONA = 'blocks/rewards/persona-rewards.md';
const CONFIG = 'agentc.config.ts';
const BILLION_LAUGHS = [
  'x_a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]',
  'x_b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
  'x_c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
  'x_d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
  'x_e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]',
  'x_f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]',
  'x_g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]',
  'x_h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]',
  '',
].join('\n');

beforeAll(async () => {
  // Warm-up (tokenizers, validators) so the timing assertions below measure the case, not start-up;
  // its evaluated config is the one the cases reuse.
  const cache = createCompileCache();
  await compile({ root: await copyExample('warmup'), cache });
  exampleConfig = cache.config;
  tokens = cache.tokens;
  exampleConfigBytes = await readFile(join(REPO, CONFIG));
  expect(exampleConfig?.load.error).toBeUndefined();
});

describe('the example workspace', () => {
  it('is clean (every finding below comes from its mutation)', async () => {
    await expectClean(await copyExample());
  });
});

describe('malformed YAML', () => {
  it('unclosed flow sequence: points at the "[" that is never closed', async () => {
    const dir = await copyExample();
    await edit(dir, REWARDS, (t) =>
      t.replace('tools: [get_user_points, get_redemption_history, calculate_redemption]', 'tools: [get_user_points, get_redemption_history'),
    );
    await expectFindings(dir, [{ rule: 'yaml-syntax', file: REWARDS, start: [11, 8], message: /\]/ }], { cli: true });
  });

  it('unclosed flow mapping in a tool contract', async () => {
    const dir = await copyExample();
    await edit(dir, 'schemas/tools/get_user_points.yaml', (t) => t.replace('parameters:\n', 'parameters: { type: object,\n'));
    await expectFindings(dir, [{ rule: 'yaml-syntax', file: 'schemas/tools/get_user_points.yaml', start: [6, 13], message: /\}/ }]);
  });

  it('bad indentation: a key indented under a scalar', async () => {
    const dir = await copyExample();
    await edit(dir, REWARDS, (t) => t.replace('owner: rewards', '  owner: rewards'));
    await expectFindings(dir, [{ rule: 'yaml-syntax', file: REWARDS, start: [7, 7], message: /single line|compact mappings/ }]);
  });

  it('bad indentation: a tab', async () => {
    const dir = await copyExample();
    await edit(dir, REWARDS, (t) => t.replace('  reasoning_effort: low', '\treasoning_effort: low'));
    await expectFindings(dir, [{ rule: 'yaml-syntax', file: REWARDS, start: [21, 1], message: /[Tt]ab/ }]);
  });

  it('duplicate key: points at the second occurrence', async () => {
    const dir = await copyExample();
    await edit(dir, REWARDS, (t) => t.replace('role: native\n', 'role: native\nrole: native\n'));
    await expectFindings(dir, [{ rule: 'yaml-syntax', file: REWARDS, start: [8, 1], message: /[Dd]uplicate key/ }]);
  });

  it('duplicate key in block front matter → frontmatter', async () => {
    const dir = await copyExample();
    await edit(dir, PERSONA, (t) => t.replace('owner: rewards\n', 'owner: rewards\nowner: shop\n'));
    await expectFindings(dir, [{ rule: 'frontmatter', file: PERSONA, start: [4, 1], message: /[Dd]uplicate key/ }]);
  });

  it('flow collections nested 20,000 deep: a diagnostic at the level that is too deep, not a stack overflow', async () => {
    const dir = await copyExample();
    await write(dir, REWARDS, `id: rewards\ninput: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`);
    await expectFindings(dir, [{ rule: 'yaml-syntax', file: REWARDS, start: [2, 8 + 256], message: /nested more than 256 levels/ }]);
  });

  it('a collection used as a key: schema error, and no process warning on stderr', async () => {
    const dir = await copyExample();
    await edit(dir, REWARDS, (t) => t.replace('role: native\n', 'role: native\n? [a, b]\n: c\n'));
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      await expectFindings(dir, [{ rule: 'schema', file: REWARDS, start: [2, 1], message: /Unknown field "\[ a, b \]"/ }]);
      await new Promise((r) => setTimeout(r, 10));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => /Keys with collection values/.test(w))).toEqual([]);
  });

  it('alias bomb (billion laughs): refused at the first alias, quickly', async () => {
    const dir = await copyExample();
    await edit(dir, REWARDS, (t) => t + BILLION_LAUGHS);
    const { ms } = await timed(() => expectFindings(dir, [{ rule: 'yaml-syntax', file: REWARDS, start: [39, 10], message: /alias/ }], { cli: true }));
    expect(ms).toBeLessThan(5000);
  });

  it('alias bomb in block front matter', async () => {
    const dir = await copyExample();
    await edit(dir, PERSONA, (t) => t.replace('max_tokens: 300\n', `max_tokens: 300\n${BILLION_LAUGHS}`));
    await expectFindings(dir, [{ rule: 'frontmatter', file: PERSONA, start: [7, 10], message: /alias/ }]);
  });
});

describe('not text', () => {
  it('binary junk with NUL in a card: points at the NUL byte', async () => {
    const dir = await copyExample();
    await write(dir, REWARDS, Buffer.from([0x69, 0x64, 0x3a, 0x20, 0x00, 0x01, 0x02, 0xff, 0xfe, 0x0a, 0x80, 0x00]));
    await expectFindings(dir, [{ rule: 'yaml-syntax', file: REWARDS, start: [1, 5], message: /NUL/, hint: /UTF-8/ }], { cli: true });
  });

  it('binary junk with NUL in a block', async () => {
    const dir = await copyExample();
    await write(dir, PERSONA, Buffer.concat([Buffer.from('---\ncategory: persona\n'), Buffer.from([0x00, 0x01, 0x02, 0xff, 0x1b, 0x5b])]));
    await expectFindings(dir, [{ rule: 'frontmatter', file: PERSONA, start: [3, 1], message: /NUL/ }]);
  });

  it('seeded random bytes in a card and a block', async () => {
    const dir = await copyExample();
    let seed = 0x5eed;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16) & 0xff;
    const junk = Buffer.from(Array.from({ length: 4096 }, rand));
    junk[100] = 0; // at least one NUL
    await write(dir, REWARDS, junk);
    await write(dir, PERSONA, junk);
    const result = await expectFindings(dir, [], { cli: true });
    const firstNul = junk.indexOf(0);
    const before = junk.subarray(0, firstNul).toString('latin1');
    const line = before.split('\n').length;
    for (const file of [REWARDS, PERSONA]) {
      const d = result.diagnostics.find((x) => x.file === file);
      expect(d, summarize(result.diagnostics)).toBeDefined();
      expect(d!.message).toMatch(/NUL|UTF-8/);
      expect(d!.range!.start.line).toBe(line);
    }
  });

  it('invalid UTF-8 without NUL: points at the first bad byte', async () => {
    const dir = await copyExample();
    await write(dir, REWARDS, Buffer.concat([Buffer.from('id: rewards\ndescription: caf'), Buffer.from([0xc3, 0x28]), Buffer.from('\nrole: native\n')]));
    await expectFindings(dir, [{ rule: 'yaml-syntax', file: REWARDS, start: [2, 17], message: /UTF-8/ }], { cli: true });
  });

  it('a 5 MB block: one clear diagnostic, fast', async () => {
    const dir = await copyExample();
    await write(dir, PERSONA, `---\ncategory: persona\nowner: rewards\n---\n${'lorem ipsum dolor sit amet\n'.repeat(200_000)}`);
    const { ms } = await timed(() => expectFindings(dir, [{ rule: 'file-too-large', file: PERSONA, start: [1, 1], message: /MiB/ }], { cli: true }));
    expect(ms).toBeLessThan(5000);
  });
});

describe('empty and shapeless files', () => {
  it('an empty card', async () => {
    const dir = await copyExample();
    await write(dir, REWARDS, '');
    await expectFindings(dir, [{ rule: 'schema', file: REWARDS, start: [1, 1], message: /empty/ }], { cli: true });
  });

  it('a card holding only a comment is empty too', async () => {
    const dir = await copyExample();
    await write(dir, REWARDS, '# nothing here yet\n');
    await expectFindings(dir, [{ rule: 'schema', file: REWARDS, start: [1, 1], message: /empty/ }]);
  });

  it('an empty block', async () => {
    const dir = await copyExample();
    await write(dir, PERSONA, '');
    await expectFindings(dir, [{ rule: 'frontmatter', file: PERSONA, start: [1, 1], message: /empty/ }]);
  });

  it('a block without front matter: points at its first line', async () => {
    const dir = await copyExample();
    await write(dir, PERSONA, '# Rewards\n\nYou are the rewards specialist.\n');
    await expectFindings(dir, [{ rule: 'frontmatter', file: PERSONA, start: [1, 1], end: [1, 10], message: /no front matter/, hint: /---/ }]);
  });

  it('unclosed front matter: points at the opening ---', async () => {
    const dir = await copyExample();
    await edit(dir, PERSONA, (t) => t.replace('max_tokens: 300\n---\n', 'max_tokens: 300\n'));
    await expectFindings(dir, [{ rule: 'frontmatter', file: PERSONA, start: [1, 1], end: [1, 4], message: /never closed/ }]);
  });

  it('front matter that is a list', async () => {
    const dir = await copyExample();
    await edit(dir, PERSONA, (t) => t.replace(/^---\n[\s\S]*?\n---\n/, '---\n- category: persona\n- owner: rewards\n---\n'));
    await expectFindings(dir, [{ rule: 'frontmatter', file: PERSONA, start: [1, 1], message: /mapping/ }]);
  });

  it('a card that is a YAML list', async () => {
    const dir = await copyExample();
    await write(dir, REWARDS, '- id: rewards\n- role: native\n');
    await expectFindings(dir, [{ rule: 'schema', file: REWARDS, start: [1, 1], message: /not a list/ }]);
  });

  it('a card that is a scalar', async () => {
    const dir = await copyExample();
    await write(dir, REWARDS, 'just some text\n');
    await expectFindings(dir, [{ rule: 'schema', file: REWARDS, start: [1, 1], end: [1, 15], message: /single value/ }]);
  });

  it('a tool contract that is a list', async () => {
    const dir = await copyExample();
    await write(dir, 'schemas/tools/get_receipt.json', '[1, 2, 3]\n');
    await expectFindings(dir, [{ rule: 'schema', file: 'schemas/tools/get_receipt.json', start: [1, 1], message: /mapping/ }]);
  });
});

describe('hostile keys and names', () => {
  it('__proto__ at the top of a card: unknown field, no pollution', async () => {
    const dir = await copyExample();
    await edit(dir, REWARDS, (t) => t.replace('role: native\n', 'role: native\n__proto__: { polluted: true, role: orchestrator }\n'));
    await expectFindings(dir, [{ rule: 'schema', file: REWARDS, start: [8, 1], end: [8, 10], message: /__proto__/ }], { cli: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('__proto__ as a handoff field in input: reported, not silently dropped', async () => {
    const dir = await copyExample();
    await edit(dir, REWARDS, (t) => t.replace('input:\n', 'input:\n  __proto__: { type: string, description: sneaky }\n'));
    await expectFindings(dir, [{ rule: 'schema', file: REWARDS, start: [24, 3], end: [24, 12], message: /__proto__/ }]);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });

  it('__proto__ as a tool parameter', async () => {
    const dir = await copyExample();
    await edit(dir, 'schemas/tools/get_user_points.yaml', (t) => t.replace('  properties:\n', '  properties:\n    __proto__: { type: string }\n'));
    await expectFindings(dir, [{ rule: 'schema', file: 'schemas/tools/get_user_points.yaml', start: [9, 5], message: /__proto__/ }]);
  });

  it('.inf and 1e400 in numeric card fields: finite numbers only (the bundle cannot hold Infinity)', async () => {
    const dir = await copyExample();
    await edit(dir, REWARDS, (t) =>
      t.replace('max_output_tokens: 1000', 'max_output_tokens: .inf').replace('{ input: 8000, output: 1200 }', '{ input: 1e400, output: 1200 }'),
    );
    await expectFindings(
      dir,
      [
        { rule: 'schema', file: REWARDS, start: [20, 22], end: [20, 26], message: /"tuning\.max_output_tokens".*finite number, not \.inf/ },
        { rule: 'schema', file: REWARDS, start: [33, 26], end: [33, 31], message: /"policy\.token_budget\.input".*finite number, not 1e400\./ },
      ],
      { cli: true },
    );
    const built = await compileCase(dir, { bundle: true });
    expect(built.bundle).toBeUndefined();
  });

  it('.inf in a block max_tokens and .nan in a tool schema default', async () => {
    const dir = await copyExample();
    await edit(dir, PERSONA, (t) => t.replace('max_tokens: 300', 'max_tokens: .inf'));
    await edit(dir, 'schemas/tools/get_user_points.yaml', (t) => t.replace('default: true', 'default: .nan'));
    await expectFindings(dir, [
      { rule: 'schema', file: PERSONA, start: [5, 13], end: [5, 17], message: /"max_tokens".*finite number, not \.inf\./ },
      { rule: 'schema', file: 'schemas/tools/get_user_points.yaml', start: [11, 16], message: /"parameters\.properties\.include_pending\.default".*not \.nan/ },
    ]);
  });

  it('a card id that is a path (../../etc/passwd)', async () => {
    const dir = await copyExample();
    await edit(dir, REWARDS, (t) => t.replace('id: rewards', 'id: ../../etc/passwd'));
    await expectFindings(dir, [{ rule: 'schema', file: REWARDS, start: [2, 5], end: [2, 21], message: /lowercase identifier/ }], { cli: true });
  });

  it('a prompt_blocks entry that is a path', async () => {
    const dir = await copyExample();
    await edit(dir, REWARDS, (t) => t.replace('  - persona-rewards', '  - ../../etc/passwd'));
    await expectFindings(dir, [{ rule: 'unknown-block', file: REWARDS, start: [13, 5], end: [13, 21], message: /\.\.\/\.\.\/etc\/passwd/ }]);
  });

  it("a card's tool that is a path", async () => {
    const dir = await copyExample();
    await edit(dir, REWARDS, (t) => t.replace('tools: [get_user_points,', 'tools: [../../etc/passwd,'));
    await expectFindings(dir, [{ rule: 'unknown-tool', file: REWARDS, start: [11, 9], end: [11, 25] }]);
  });

  it("a tool contract's name that is a path", async () => {
    const dir = await copyExample();
    await edit(dir, 'schemas/tools/get_user_points.yaml', (t) => t.replace('name: get_user_points', 'name: ../../etc/passwd'));
    await expectFindings(dir, [{ rule: 'schema', file: 'schemas/tools/get_user_points.yaml', start: [2, 7], end: [2, 23] }]);
  });

  it('hints never suggest creating a file outside the workspace (blocks/../../etc/passwd.md)', async () => {
    const dir = await copyExample();
    await edit(dir, REWARDS, (t) => t.replace('  - persona-rewards', '  - ../../etc/passwd').replace('tools: [get_user_points,', 'tools: [../../etc/passwd,'));
    const { diagnostics } = await compileCase(dir);
    for (const d of diagnostics) expect(d.hint ?? '', `${d.rule} at ${d.file}:${at(d)}`).not.toMatch(/\/\.\.\//);
  });
});

describe('line endings and BOM', () => {
  const TEXT = /\.(ya?ml|md|json|ts)$/;
  async function transformAll(dir: string, fn: (b: Buffer) => Buffer): Promise<number> {
    let n = 0;
    for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
      if (!e.isFile() || !TEXT.test(e.name)) continue;
      const p = join(e.parentPath, e.name);
      await writeFile(p, fn(await readFile(p)));
      n++;
    }
    return n;
  }
  const toCrlf = (b: Buffer) => Buffer.from(b.toString('utf8').replace(/\r?\n/g, '\r\n'));
  const addBom = (b: Buffer) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]);

  /** Several findings in several file kinds, including positions on later lines and columns. */
  async function breakSeveralThings(dir: string): Promise<void> {
    await edit(dir, REWARDS, (t) => t.replace('tools: [get_user_points,', 'tools: [get_user_pionts,'));
    await edit(dir, PERSONA, (t) => t.replace('`{{agent.id}}`', '`{{agent.idd}}` and {{#if x}}'));
    await edit(dir, 'cards/shop.yaml', (t) => t.replace(/^role: .*$/m, 'role: nativ'));
    await edit(dir, CONFIG, (t) => t.replace('  flags: [', "  budgetz: {},\n  rules: { 'volatile-in-prefx': 'off' },\n  flags: ["));
  }

  it('CRLF everywhere: clean', async () => {
    const dir = await copyExample('crlf');
    expect(await transformAll(dir, toCrlf)).toBeGreaterThan(40);
    expect((await readFile(join(dir, REWARDS))).includes('\r\n')).toBe(true);
    await expectClean(dir);
  });

  it('a UTF-8 BOM on every file (config included): clean', async () => {
    const dir = await copyExample('bom');
    expect(await transformAll(dir, addBom)).toBeGreaterThan(40);
    await expectClean(dir);
  });

  it('CRLF and BOM give exactly the diagnostics (and positions) of LF', async () => {
    const lf = await copyExample('lf');
    await breakSeveralThings(lf);
    const crlf = await copyExample('crlf');
    await breakSeveralThings(crlf);
    await transformAll(crlf, toCrlf);
    const bom = await copyExample('bom');
    await breakSeveralThings(bom);
    await transformAll(bom, (b) => addBom(toCrlf(b)));
    const want = (await compileCase(lf)).diagnostics;
    expect(want.filter((d) => d.severity === 'error').length).toBeGreaterThanOrEqual(4);
    expect((await compileCase(crlf)).diagnostics).toEqual(want);
    expect((await compileCase(bom)).diagnostics).toEqual(want);
  });

  it('a lone CR (classic Mac) line ending is a line ending too', async () => {
    const dir = await copyExample('cr');
    await edit(dir, REWARDS, (t) => t.replace(/\n/g, '\r'));
    await expectClean(dir);
  });
});

describe('tool contracts in JSON', () => {
  it('a missing comma: JSON syntax error at the next property', async () => {
    const dir = await copyExample();
    await edit(dir, 'schemas/tools/get_receipt.json', (t) => t.replace('"envelope": true,', '"envelope": true'));
    await expectFindings(dir, [{ rule: 'yaml-syntax', file: 'schemas/tools/get_receipt.json', start: [21, 3], message: /^JSON syntax error: .*','/ }], {
      cli: true,
    });
  });

  it('a trailing comma', async () => {
    const dir = await copyExample();
    await edit(dir, 'schemas/tools/get_receipt.json', (t) => t.replace('"status_events": ["matching_receipt"]\n', '"status_events": ["matching_receipt"],\n'));
    await expectFindings(dir, [
      { rule: 'yaml-syntax', file: 'schemas/tools/get_receipt.json', start: [21, 40], message: /^JSON syntax error: a trailing comma/ },
    ]);
  });

  it('truncated JSON: error at the end of the file', async () => {
    const dir = await copyExample();
    await edit(dir, 'schemas/tools/get_receipt.json', (t) => t.slice(0, t.indexOf('"envelope"')));
    await expectFindings(dir, [
      { rule: 'yaml-syntax', file: 'schemas/tools/get_receipt.json', start: [20, 3], message: /^JSON syntax error: .*the end of the file/ },
    ]);
  });

  it('an invalid literal', async () => {
    const dir = await copyExample();
    await edit(dir, 'schemas/tools/get_receipt.json', (t) => t.replace('"envelope": true,', '"envelope": tru,'));
    await expectFindings(dir, [
      { rule: 'yaml-syntax', file: 'schemas/tools/get_receipt.json', start: [20, 15], message: /^JSON syntax error: expected a value but found 't'/ },
    ]);
  });
});

describe('the config', () => {
  it('throws while it is evaluated: position of the throw, no stack', async () => {
    const dir = await copyExample();
    await edit(dir, CONFIG, (t) => t.replace('export default', "const boom = () => {\n  throw new Error('no config for you');\n};\nboom();\nexport default"));
    await expectFindings(dir, [{ rule: 'config-load', file: CONFIG, start: [7, 9], message: /no config for you/ }], { cli: true });
  });

  it('has a TypeScript syntax error: its position in agentc.config.ts', async () => {
    const dir = await copyExample();
    await edit(dir, CONFIG, (t) => t.replace("dispatch: { toolPrefix: 'ask_', fanOutCap: 3 },", "dispatch: { toolPrefix: 'ask_' fanOutCap: 3 },"));
    const r = await expectFindings(dir, [{ rule: 'config-load', file: CONFIG, start: [72, 33], message: /expected ","/ }], { cli: true });
    const d = r.diagnostics.find((x) => x.rule === 'config-load')!;
    expect(d.message, 'no trailing whitespace').toBe(d.message.trim());
  });

  it('imports a package that is not installed: hint to install it', async () => {
    const dir = await copyExample();
    await edit(dir, CONFIG, (t) => `import 'agentc-models-that-do-not-exist';\n${t}`);
    await expectFindings(dir, [
      { rule: 'config-load', file: CONFIG, start: [1, 8], end: [1, 41], message: /Cannot find module 'agentc-models-that-do-not-exist'/, hint: /Install/ },
    ]);
  });

  it('default export is not an object: points at the export', async () => {
    const dir = await copyExample();
    await edit(dir, CONFIG, (t) => t.replace(/export default defineConfig\([\s\S]*\);\n$/, 'export default 42;\n'));
    await expectFindings(dir, [{ rule: 'config-load', file: CONFIG, start: [6, 16], message: /default export/ }]);
  });

  it('no default export at all', async () => {
    const dir = await copyExample();
    await edit(dir, CONFIG, (t) => t.replace('export default defineConfig(', 'export const config = defineConfig('));
    await expectFindings(dir, [
      { rule: 'config-load', file: CONFIG, message: /no default export/, start: [6, 1], end: [6, 7], hint: /export default defineConfig/ },
    ]);
  });

  it('a getter that throws while the config is read: config-load on its line, not a crash', async () => {
    const dir = await copyExample();
    await edit(dir, CONFIG, (t) =>
      t.replace("flags: ['receipts_v2', 'offer_stacking'],", "get flags() {\n    throw new Error('flags service unavailable');\n  },"),
    );
    await expectFindings(dir, [{ rule: 'config-load', file: CONFIG, start: [74, 11], message: /flags service unavailable/ }], { cli: true });
  });

  it('a proxy that throws when its keys are listed: config-load, not a crash', async () => {
    const dir = await copyExample();
    await edit(dir, CONFIG, (t) =>
      t.replace(
        'export default defineConfig({',
        "const trap = new Proxy({}, { ownKeys() { throw new Error('proxy trap'); } });\nexport default defineConfig({\n  rules: trap as never,",
      ),
    );
    const r = await expectFindings(dir, []);
    const d = r.diagnostics.find((x) => x.rule === 'config-load');
    expect(d?.message).toMatch(/proxy trap/);
    // Line exact; the column comes from the transpiled module's stack frame: somewhere in `throw new Error(…)` (42-48).
    expect(d?.range?.start.line).toBe(6);
    expect(d?.range?.start.column).toBeGreaterThanOrEqual(42);
    expect(d?.range?.start.column).toBeLessThanOrEqual(48);
  });

  it('Infinity as a context window: schema error, no other fallout', async () => {
    const dir = await copyExample();
    await edit(dir, CONFIG, (t) => t.replace('contextWindow: 272_000,', 'contextWindow: Infinity,'));
    const r = await expectFindings(dir, [{ rule: 'schema', file: CONFIG, start: [12, 22], end: [12, 30], message: /finite number, not Infinity/ }]);
    expect(summarize(r.diagnostics)).not.toMatch(/unknown-model/);
  });

  it('an unknown key: did-you-mean', async () => {
    const dir = await copyExample();
    await edit(dir, CONFIG, (t) => t.replace('  flags: [', '  budgetz: {},\n  flags: ['));
    await expectFindings(dir, [{ rule: 'schema', file: CONFIG, start: [73, 3], end: [73, 10], message: /budgetz/, hint: /Did you mean "budgets"\?/ }]);
  });

  it('an unknown key in a nested section: did-you-mean', async () => {
    const dir = await copyExample();
    await edit(dir, CONFIG, (t) => t.replace('    maxSubAgents: 9,', '    maxSubAgent: 9,'));
    await expectFindings(dir, [{ rule: 'schema', file: CONFIG, start: [70, 5], end: [70, 16], hint: /maxSubAgents/ }]);
  });

  it('sets an unknown rule: did-you-mean', async () => {
    const dir = await copyExample();
    await edit(dir, CONFIG, (t) => t.replace('  flags: [', "  rules: { 'volatile-in-prefx': 'off' },\n  flags: ["));
    await expectFindings(dir, [{ rule: 'schema', file: CONFIG, start: [73, 12], end: [73, 31], hint: /Did you mean "volatile-in-prefix"\?/ }]);
  });

  it('a config that fails to load does not cascade into warnings that assume default settings', async () => {
    const dir = await copyExample();
    await edit(dir, CONFIG, (t) => t.replace("dispatch: { toolPrefix: 'ask_', fanOutCap: 3 },", "dispatch: { toolPrefix: 'ask_' fanOutCap: 3 },"));
    const { diagnostics } = await compileCase(dir);
    expect(summarize(diagnostics.filter((d) => d.rule !== 'config-load'))).toBe('');
  });

  it('a config whose default export is not an object does not cascade into unknown-model/unknown-flag errors', async () => {
    const dir = await copyExample();
    await edit(dir, CONFIG, (t) => t.replace(/export default defineConfig\([\s\S]*\);\n$/, 'export default 42;\n'));
    const { diagnostics } = await compileCase(dir);
    expect(summarize(diagnostics.filter((d) => d.severity === 'error' && d.rule !== 'config-load'))).toBe('');
  });
});

describe('templates', () => {
  it('an unclosed block: reported at its opener', async () => {
    const dir = await copyExample();
    await edit(dir, PERSONA, (t) => t.replace('You quote;', '{{#if agent.id}}You quote;'));
    const r = await expectFindings(dir, [{ rule: 'template-syntax', file: PERSONA, start: [19, 1], message: /\{\{#if\}\}.*line 19.*\{\{\/if\}\}/ }], {
      cli: true,
    });
    const d = r.diagnostics.find((x) => x.rule === 'template-syntax')!;
    expect(d.range?.end).toEqual({ line: 19, column: 6 });
  });

  it('a bad mustache: the column of the bad character on its whole-file line', async () => {
    const dir = await copyExample();
    await edit(dir, PERSONA, (t) => t.replace('`{{agent.id}}`', '`{{agent.id}`'));
    await expectFindings(dir, [{ rule: 'template-syntax', file: PERSONA, start: [9, 24] }]);
  });

  it('a mismatched close: {{#if}} … {{/each}}', async () => {
    const dir = await copyExample();
    await edit(dir, PERSONA, (t) => t.replace('You quote;', '{{#if agent.id}}You quote;{{/each}}'));
    await expectFindings(dir, [{ rule: 'template-syntax', file: PERSONA, start: [19, 4], message: /"\{\{#if\}\}" is closed by "\{\{\/each\}\}"/ }]);
  });

  it('an error deep in a long line after a multi-line prefix', async () => {
    const dir = await copyExample();
    await edit(dir, PERSONA, (t) => t.replace('which reward to pick', 'which reward to pick {{foo bar=}}'));
    await expectFindings(dir, [{ rule: 'template-syntax', file: PERSONA, start: [21, 32], message: /unexpected '\}\}'/ }]);
  });

  it('blocks nested too deep: refused at the first level that is too deep', async () => {
    const dir = await copyExample();
    await edit(dir, PERSONA, (t) => `${t}${'{{#if agent.id}}'.repeat(200)}x${'{{/if}}'.repeat(200)}\n`);
    await expectFindings(dir, [{ rule: 'template-syntax', file: PERSONA, start: [22, 1 + 64 * 16], message: /nested more than 64 levels/ }]);
  });

  it('subexpressions nested too deep: refused at the first "(" that is too deep', async () => {
    const dir = await copyExample();
    await edit(dir, PERSONA, (t) => `${t}{{lookup ${'(lookup '.repeat(200)}agent${' "id")'.repeat(200)} "id"}}\n`);
    await expectFindings(dir, [{ rule: 'template-syntax', file: PERSONA, start: [22, 10 + 64 * 8], message: /nested more than 64 levels/ }]);
  });

  // src/resolve/render.ts renderBlock compiles (re-parses) a block whose template already failed to parse;
  // Handlebars' parser is quadratic in nesting, so a 1 MiB block of nested {{#if}} takes minutes.
  it('a deeply nested block is refused quickly (the render phase does not re-parse a template that failed)', async () => {
    const dir = await copyExample();
    await edit(dir, PERSONA, (t) => `${t}${'{{#if agent.id}}'.repeat(3000)}x${'{{/if}}'.repeat(3000)}\n`);
    const { value, ms } = await timed(() => compileCase(dir));
    expect(value.diagnostics.some((d) => d.rule === 'template-syntax')).toBe(true);
    expect(ms).toBeLessThan(1500);
  });

  it('64 levels of nesting are fine', async () => {
    const dir = await copyExample();
    await edit(dir, PERSONA, (t) => `${t}${'{{#if agent.id}}'.repeat(64)}x${'{{/if}}'.repeat(64)}\n`);
    const r = await compileCase(dir);
    expect(summarize(r.diagnostics.filter((d) => d.rule === 'template-syntax'))).toBe('');
  });

  it('messages name tokens in words, not parser jargon', async () => {
    const dir = await copyExample();
    await edit(dir, PERSONA, (t) => t.replace('`{{agent.id}}`', '`{{agent.id}`'));
    const { diagnostics } = await compileCase(dir);
    const d = diagnostics.find((x) => x.rule === 'template-syntax')!;
    expect(d.message).not.toMatch(/CLOSE_RAW_BLOCK|OPEN_SEXPR|INVALID'/);
  });
});

describe('the file system', () => {
  it('a symlink loop in blocks/ does not hang and adds nothing', async () => {
    const dir = await copyExample();
    await symlink('..', join(dir, 'blocks', 'shared', 'loop'));
    await symlink(join(dir, 'blocks'), join(dir, 'blocks', 'rewards', 'up'));
    await symlink('self.md', join(dir, 'blocks', 'rewards', 'self.md'));
    const { ms } = await timed(() => expectClean(dir));
    expect(ms).toBeLessThan(10_000);
  });

  it('a block that is a symlink to a file is loaded like the file', async () => {
    const dir = await copyExample();
    const persona = join(dir, PERSONA);
    await writeFile(join(dir, 'persona-rewards.source.md'), await readFile(persona));
    const { rm } = await import('node:fs/promises');
    await rm(persona);
    await symlink(join(dir, 'persona-rewards.source.md'), persona);
    expect((await stat(persona)).isFile()).toBe(true);
    await expectClean(dir);
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable card (chmod 000)', async () => {
    const dir = await copyExample();
    await chmod(join(dir, REWARDS), 0o000);
    try {
      await expectFindings(dir, [{ rule: 'yaml-syntax', file: REWARDS, start: [1, 1], message: /Cannot read.*EACCES/ }], { cli: true });
    } finally {
      await chmod(join(dir, REWARDS), 0o644);
    }
  });
});

describe('cascades from a broken file', () => {
  it('a card that does not parse is not also reported as missing by its orchestrator', async () => {
    const dir = await copyExample();
    await write(dir, REWARDS, 'id: rewards\nrole: [native\n');
    const { diagnostics } = await compileCase(dir);
    // Today: unknown-sub-agent ("has no card in cards/") in fetch_assistant, plus unused-block / unused-tool
    // warnings for everything only rewards used.
    expect(summarize(diagnostics.filter((d) => d.file !== REWARDS))).toBe('');
  });

  it('a block whose front matter is broken is not also reported as missing by its card', async () => {
    const dir = await copyExample();
    await write(dir, PERSONA, '');
    const { diagnostics } = await compileCase(dir);
    // Today: unknown-block "does not exist under blocks/" with hint "Add blocks/persona-rewards.md".
    expect(summarize(diagnostics.filter((d) => d.file !== PERSONA))).toBe('');
  });

  it('a tool contract that does not parse is not also reported as undeclared by its cards', async () => {
    const dir = await copyExample();
    await edit(dir, 'schemas/tools/get_receipt.json', (t) => t.replace('"envelope": true,', '"envelope": true'));
    const { diagnostics } = await compileCase(dir);
    // Today: unknown-tool twice in cards/ereceipts.yaml, hint "Add a contract schemas/tools/get_receipt.yaml".
    expect(summarize(diagnostics.filter((d) => d.file !== 'schemas/tools/get_receipt.json'))).toBe('');
  });
});
