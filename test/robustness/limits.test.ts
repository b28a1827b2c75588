/**
 * No crash on any input (issue 9, item 4): nesting depth is bounded for every
 * YAML construct, any number of diagnostics is counted exactly and the human
 * reports cap what they print, and a closed stdout (EPIPE) ends quietly.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDiagnostic, DiagnosticBag, type Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { renderReport, type ReportFormat } from '../../src/diagnostics/render/index.js';
import { MAX_PRINTED, MAX_PRINTED_PRETTY } from '../../src/diagnostics/render/common.js';
import { formatInt } from '../../src/diagnostics/format-number.js';
import { copyExample, removeTempDirs, REPO, STACK_FRAME, write } from './workspace.js';
import { checkJson } from './workspace.js';

afterAll(removeTempDirs);

describe('YAML nested 3,000 levels deep (a 6 KB file): a yaml-syntax error, never a stack overflow', () => {
  const cases: [string, string, [number, number]][] = [
    ['block sequences `- - - …`', `id: rewards\nx:\n${'- '.repeat(3000)}1\n`, [3, 513]],
    ['a `- - - …` chain among mapping keys (the parser recursed on it)', `id: rewards\n${'- '.repeat(3000)}x\ndescription: d\n`, [2, 513]],
    ['explicit keys `? ? ? …`', `id: rewards\nx:\n${'? '.repeat(3000)}1\n`, [3, 513]],
    ['flow maps `{a: {a: …`', `id: rewards\nx: ${'{a: '.repeat(3000)}1${'}'.repeat(3000)}\n`, [2, 1028]],
    ['flow sequences `[[[…`', `id: rewards\nx: ${'['.repeat(3000)}${']'.repeat(3000)}\n`, [2, 260]],
    [
      'block maps, one level per line (as deep as 1 MiB allows)',
      `id: rewards\n${Array.from({ length: 1300 }, (_, i) => `${' '.repeat(i)}k:\n`).join('')}`,
      [258, 257],
    ],
  ];
  for (const [name, text, [line, column]] of cases) {
    it(name, async () => {
      const dir = await copyExample('deep');
      await write(dir, 'cards/rewards.yaml', text);
      const { code, report, stderr } = await checkJson(dir);
      expect(code, stderr).toBe(1);
      const d = report.diagnostics.find((x) => x.file === 'cards/rewards.yaml');
      expect(d).toMatchObject({ rule: 'yaml-syntax', range: { start: { line, column } } });
      expect(d!.message).toMatch(/nested more than 256 levels deep here/);
    });
  }

  it('the same depth in block front matter', async () => {
    const dir = await copyExample('deep');
    await write(dir, 'blocks/deep.md', `---\nx:\n${'- '.repeat(3000)}1\n---\nbody\n`);
    const { report } = await checkJson(dir);
    expect(report.diagnostics.find((x) => x.file === 'blocks/deep.md')).toMatchObject({ rule: 'frontmatter', range: { start: { line: 3 } } });
  });
});

describe('any number of diagnostics', () => {
  const N = 200_000;
  /** The 200,000 diagnostics, made once for both tests (neither changes them): a second list cost seconds of allocation and GC. */
  let made: readonly Diagnostic[] | undefined;
  const many = (): readonly Diagnostic[] => (made ??= make());
  const make = (): Diagnostic[] =>
    Array.from({ length: N }, (_, i) => {
      const place = { file: `cards/f${String(i).padStart(6, '0')}.yaml`, range: { start: { line: 1, column: 1 }, end: { line: 1, column: 2 } } };
      return i % 1000 === 0
        ? createDiagnostic({ rule: 'unknown-tool', message: 'unknown', data: { card: 'c', name: `t${i}` }, ...place })
        : createDiagnostic({ rule: 'unused-block', message: 'unused', data: { name: `b${i}` }, ...place });
    });

  it('DiagnosticBag takes 200,000 at once (push and pushAll)', () => {
    const ds = many();
    const bag = new DiagnosticBag();
    bag.pushAll(ds);
    expect(bag.items).toHaveLength(N);
    const spread = new DiagnosticBag();
    expect(() => spread.pushAll([...ds, ...ds])).not.toThrow();
    expect(spread.items).toHaveLength(2 * N);
  });

  it('json and sarif carry every one; text, pretty and github print a capped list, errors first, and say how many more', () => {
    const ds = many();
    const opts = { color: false, toolVersion: '0.0.0' };
    const json = JSON.parse(renderReport('json', ds, new Map(), opts)) as { errorCount: number; warningCount: number; diagnostics: unknown[] };
    expect(json).toMatchObject({ errorCount: 200, warningCount: N - 200 });
    expect(json.diagnostics).toHaveLength(N);
    const sarif = JSON.parse(renderReport('sarif', ds, new Map(), opts)) as { runs: { results: unknown[] }[] };
    expect(sarif.runs[0]!.results).toHaveLength(N);
    const caps: [ReportFormat, number][] = [
      ['text', MAX_PRINTED],
      ['github', MAX_PRINTED],
      ['pretty', MAX_PRINTED_PRETTY],
    ];
    for (const [format, cap] of caps) {
      const out = renderReport(format, ds, new Map(), opts);
      expect(out, format).toContain(`… and ${formatInt(N - cap)} more not shown`);
      expect(out, format).toContain(`Found 200 errors and ${formatInt(N - 200)} warnings in ${formatInt(N)} files.`);
      // Every error is among the printed ones.
      expect(out.match(/AGC2001/g)?.length, format).toBe(200);
      expect(out.length, format).toBeLessThan(2_000_000);
    }
  });
});

describe('EPIPE', () => {
  /** Runs the CLI with a stdout reader that goes away after the first chunk. */
  function closedReader(args: string[]): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [join(REPO, 'bin', 'agentc.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stdout.once('data', () => child.stdout.destroy());
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });
  }

  it('`agentc rules | head -c1`: exit 0, nothing on stderr', async () => {
    for (const format of ['text', 'markdown', 'json']) {
      const r = await closedReader(['rules', '--format', format]);
      expect(r, format).toEqual({ code: 0, stderr: '' });
    }
  });

  it('`agentc check` on a workspace with many findings, reader gone: exit 0, no stack', async () => {
    const dir = await copyExample('epipe');
    await write(dir, 'cards/rewards.yaml', `id: rewards\nprompt_blocks:\n${Array.from({ length: 3000 }, (_, i) => `  - missing-${i}\n`).join('')}`);
    const r = await closedReader(['check', '--cwd', dir, '--format', 'text']);
    // Whether the writer ever sees EPIPE depends on how much the kernel buffered before
    // the reader left (stdout to a pipe is synchronous on Linux): 0 when it does, the
    // findings' 1 when the whole report was accepted. Never 2, a signal or a stack.
    expect([0, 1]).toContain(r.code);
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });
});
