import { describe, expect, it } from 'vitest';
import { paint } from '../../src/diagnostics/render/ansi.js';
import { codeFrame, DEFAULT_MAX_WIDTH } from '../../src/diagnostics/render/code-frame.js';
import { layoutLine, visualColumn } from '../../src/diagnostics/render/cells.js';
import type { Range } from '../../src/diagnostics/diagnostic.js';
import { normalizeNewlines, SourceFile } from '../../src/load/source.js';

const frame = (text: string, range: Range, maxWidth?: number) =>
  codeFrame(new SourceFile('f.yaml', text), range, { paint: paint(false), severity: 'error', maxWidth });
const r = (l1: number, c1: number, l2: number, c2: number): Range => ({ start: { line: l1, column: c1 }, end: { line: l2, column: c2 } });

/** Column (0-based, in the row's text) where the underline starts, and the marked source text. */
function marked(rows: string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < rows.length; i++) {
    const m = /^(\s*\|\s)(\s*)(~+)$/.exec(rows[i]!);
    if (!m) continue;
    const source = rows[i - 1]!;
    const barAt = source.indexOf('|');
    const start = barAt + 2 + m[2]!.length;
    out.push(source.slice(start, start + m[3]!.length));
  }
  return out;
}

describe('codeFrame', () => {
  it('shows the line before, the line, its underline and the line after', () => {
    expect(frame('a: 1\nb: two\nc: 3\n', r(2, 4, 2, 7))).toEqual(['  1 | a: 1', '> 2 | b: two', '    |    ~~~', '  3 | c: 3']);
  });

  it('underlines the same text after CRLF normalization', () => {
    const text = normalizeNewlines('a: 1\r\nb: two\r\nc: 3\r\n');
    expect(frame(text, r(2, 4, 2, 7))).toEqual(frame('a: 1\nb: two\nc: 3\n', r(2, 4, 2, 7)));
  });

  it('expands tabs and keeps the underline under the span', () => {
    const text = '\tkey:\t{{x.y}}\n';
    const rows = frame(text, r(1, 7, 1, 14));
    expect(rows.join('\n')).not.toContain('\t');
    expect(marked(rows)).toEqual(['{{x.y}}']);
  });

  it('aligns under wide characters and emoji', () => {
    const text = 'owner: 商店 🛒 "x"\n';
    const col = text.indexOf('"x"') + 1;
    // 'owner: ' is 7 cells, each CJK character and the emoji 2, the spaces 1.
    expect(frame(text, r(1, col, 1, col + 3))).toEqual(['> 1 | owner: 商店 🛒 "x"', `    | ${' '.repeat(15)}~~~`]);
  });

  it('trims a long line around the span and keeps the underline aligned', () => {
    const line = 'a'.repeat(300) + ' TARGET ' + 'b'.repeat(300);
    const col = line.indexOf('TARGET') + 1;
    const rows = frame(line + '\n', r(1, col, 1, col + 6));
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(DEFAULT_MAX_WIDTH + 20);
    expect(rows[0]).toMatch(/\| \.\.\.a+ TARGET b+\.\.\.$/);
    expect(marked(rows)).toEqual(['TARGET']);
  });

  it('does not trim a long line whose span is near its start', () => {
    const line = 'key: value ' + 'x'.repeat(300);
    const rows = frame(line, r(1, 6, 1, 11));
    expect(rows[0]).toMatch(/\| key: value x+\.\.\.$/);
    expect(marked(rows)).toEqual(['value']);
  });

  it('shows at most three lines of a multi-line range and says how many are hidden', () => {
    const text = 'a: |\n  one\n  two\n  three\n  four\nb: 1\n';
    const rows = frame(text, r(1, 4, 5, 8));
    expect(rows).toEqual(['> 1 | a: |', '    |    ~', '> 2 |   one', '    |   ~~~', '> 3 |   two', '    |   ~~~', '    | ... (2 more lines)']);
  });

  it('treats a range ending at column 1 as ending with the previous line', () => {
    const text = 'a: >-\n  one\nb: 1\n';
    expect(frame(text, r(1, 4, 3, 1))).toEqual(['> 1 | a: >-', '    |    ~~', '> 2 |   one', '    |   ~~~', '  3 | b: 1']);
  });

  it('underlines one character for an empty range, also at the end of a line', () => {
    expect(frame('abc\n', r(1, 2, 1, 2))).toEqual(['> 1 | abc', '    |  ~']);
    expect(frame('abc\n', r(1, 4, 1, 4))).toEqual(['> 1 | abc', '    |    ~']);
  });

  it('clamps ranges outside the file instead of throwing', () => {
    expect(frame('abc', r(9, 9, 12, 1))).toEqual(['> 1 | abc', '    |    ~']);
    expect(frame('', r(0, 0, 0, 0))).toEqual(['> 1 |', '    | ~']);
    expect(frame('abc\ndef', r(2, 2, 1, 1))).toEqual(['  1 | abc', '> 2 | def', '    |  ~']);
  });

  it('never prints control characters from the file', () => {
    const rows = frame('a: "\x1b[31mred"\n', r(1, 4, 1, 13));
    expect(rows.join('\n')).not.toContain('\x1b');
    expect(rows[0]).toContain('\uFFFD');
  });

  it('widens the gutter for the largest line number', () => {
    const text = Array.from({ length: 12 }, (_, i) => `l${i + 1}`).join('\n');
    expect(frame(text, r(10, 1, 10, 4))).toEqual(['   9 | l9', '> 10 | l10', '     | ~~~', '  11 | l11']);
  });
});

describe('layoutLine', () => {
  it('maps UTF-16 columns to cells', () => {
    const l = layoutLine('\tx🛒y');
    expect(visualColumn(l, 1)).toBe(0);
    expect(visualColumn(l, 2)).toBe(4);
    expect(visualColumn(l, 3)).toBe(5);
    expect(visualColumn(l, 5)).toBe(7);
    expect(visualColumn(l, 6)).toBe(8);
    expect(visualColumn(l, 8)).toBe(10);
  });
});
