import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/diff/unified.js';

/** Apply a unified diff to `before` (texts ending in a newline: no "\\ No newline" markers). */
function applyPatch(before: string, patch: string): string {
  if (patch === '') return before;
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const out: string[] = [];
  let ai = 0;
  for (const line of patch.split('\n').slice(0, -1)) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@$/.exec(line);
    if (m) {
      const start = Number(m[1]);
      const to = m[2] === '0' ? start : start - 1;
      while (ai < to) out.push(a[ai++]!);
    } else if (line[0] === ' ') out.push(a[ai++]!);
    else if (line[0] === '-') ai++;
    else if (line[0] === '+') out.push(line.slice(1));
  }
  while (ai < a.length) out.push(a[ai++]!);
  return out.map((l) => `${l}\n`).join('');
}

function lcsLength(a: string[], b: string[]): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) dp[i]![j] = a[i - 1] === b[j - 1] ? dp[i - 1]![j - 1]! + 1 : Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!);
  return dp[a.length]![b.length]!;
}

const lineArb = fc.constantFrom('a', 'b', 'c', 'd', '', 'e f');
const textArb = fc.array(lineArb, { maxLength: 25 }).map((ls) => ls.map((l) => `${l}\n`).join(''));

describe('unifiedDiff', () => {
  it('is a minimal edit script: deletes and inserts only what the longest common subsequence leaves', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 30 }), fc.array(lineArb, { maxLength: 30 }), (a, b) => {
        const text = (ls: string[]) => ls.map((l) => `${l}\n`).join('');
        const body = unifiedDiff(text(a), text(b), { context: 0 }).split('\n');
        const lcs = lcsLength(a, b);
        expect(body.filter((l) => l.startsWith('-')).length).toBe(a.length - lcs);
        expect(body.filter((l) => l.startsWith('+')).length).toBe(b.length - lcs);
      }),
      { numRuns: 400 },
    );
  });

  it('puts deletions before insertions within a run of changes', () => {
    expect(unifiedDiff('a\nb\nc\n', 'a\nB\nC\n')).toBe('@@ -1,3 +1,3 @@\n a\n-b\n-c\n+B\n+C\n');
  });

  it('degrades to one replace-everything hunk past the edit-distance cap, still correct', () => {
    const before = Array.from({ length: 600 }, (_, i) => `old ${i}\n`).join('');
    const after = Array.from({ length: 600 }, (_, i) => `new ${i}\n`).join('');
    const patch = unifiedDiff(before, after);
    expect(patch.startsWith('@@ -1,600 +1,600 @@\n-old 0\n')).toBe(true);
    expect(applyPatch(before, patch)).toBe(after);
    expect(unifiedDiff('x', 'y'.repeat(1))).toBe('@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n');
  });

  it('is empty for equal texts', () => {
    expect(unifiedDiff('x\n', 'x\n')).toBe('');
  });

  it('round-trips: applying the diff to before gives after', () => {
    fc.assert(
      fc.property(textArb, textArb, (before, after) => {
        expect(applyPatch(before, unifiedDiff(before, after))).toBe(after);
      }),
      { numRuns: 400 },
    );
  });

  it('matches GNU diff -u on sample texts', () => {
    let hasDiff = true;
    try {
      execFileSync('diff', ['--version']);
    } catch {
      hasDiff = false;
    }
    if (!hasDiff) return;
    const dir = mkdtempSync(join(tmpdir(), 'agentc-unified-'));
    try {
      const cases: Array<[string, string]> = [
        ['a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n', 'a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nK\nl\n'],
        ['1\n2\n3\n4\n5\n6\n7\n8\n', '1\n2\n3\n4\n5\n6\n7\n8\n9\n'],
        ['x\ny\n', ''],
        ['', 'x\ny\n'],
        ['same\nold', 'same\nnew'],
        ['keep\nend', 'keep\nend\n'],
        ['p\nq\nr\ns\nt\nu\nv\nw\n', 'p\nq\nr\nS\nt\nu\nv\nW\n'],
      ];
      for (const [before, after] of cases) {
        writeFileSync(join(dir, 'a'), before);
        writeFileSync(join(dir, 'b'), after);
        let expected = '';
        try {
          execFileSync('diff', ['-u', 'a', 'b'], { cwd: dir, encoding: 'utf8' });
        } catch (e) {
          expected = (e as { stdout: string }).stdout;
        }
        const body = expected.split('\n').slice(2).join('\n');
        expect(unifiedDiff(before, after)).toBe(body);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes headers, /dev/null for a missing side', () => {
    expect(unifiedDiff('', 'hi\n', { fromFile: null, toFile: 'prompts/x.md' })).toBe('--- /dev/null\n+++ b/prompts/x.md\n@@ -0,0 +1 @@\n+hi\n');
  });
});
