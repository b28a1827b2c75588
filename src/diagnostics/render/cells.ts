/**
 * Terminal cell layout of one source line: tabs expanded to tab stops, wide
 * (CJK, emoji) characters two cells, combining marks zero, control characters
 * shown as U+FFFD. Columns of diagnostics are UTF-16 code units (what
 * SourceFile produces); `visualColumn` maps them to 0-based cell offsets so an
 * underline sits exactly under its span whatever the line holds.
 */
export const TAB_WIDTH = 4;

export interface Cell {
  /** UTF-16 index of the character in the line. */
  index: number;
  /** What is printed (a tab becomes spaces). */
  text: string;
  /** 0-based first cell. */
  start: number;
  width: number;
}

export interface LineLayout {
  cells: Cell[];
  /** Total width in cells. */
  width: number;
  /** UTF-16 length of the line. */
  length: number;
  /** Cell offset of each UTF-16 index (length + 1 entries; surrogate tails share their head's). */
  offsets: number[];
}

export function layoutLine(line: string): LineLayout {
  const cells: Cell[] = [];
  const offsets: number[] = new Array<number>(line.length + 1);
  let col = 0;
  let i = 0;
  while (i < line.length) {
    const cp = line.codePointAt(i)!;
    const units = cp > 0xffff ? 2 : 1;
    let text: string;
    let width: number;
    if (cp === 0x09) {
      width = TAB_WIDTH - (col % TAB_WIDTH);
      text = ' '.repeat(width);
    } else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
      text = '\uFFFD';
      width = 1;
    } else {
      text = String.fromCodePoint(cp);
      width = codePointWidth(cp);
    }
    for (let u = 0; u < units; u++) offsets[i + u] = col;
    cells.push({ index: i, text, start: col, width });
    col += width;
    i += units;
  }
  offsets[line.length] = col;
  return { cells, width: col, length: line.length, offsets };
}

/** 0-based cell offset of a 1-based UTF-16 column; past the end counts one cell per column. */
export function visualColumn(layout: LineLayout, column: number): number {
  const index = Math.max(0, column - 1);
  if (index >= layout.length) return layout.width + (index - layout.length);
  return layout.offsets[index]!;
}

function codePointWidth(cp: number): number {
  if (
    (cp >= 0x0300 && cp <= 0x036f) ||
    (cp >= 0x1ab0 && cp <= 0x1aff) ||
    (cp >= 0x1dc0 && cp <= 0x1dff) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x20d0 && cp <= 0x20ff) ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    (cp >= 0xfe20 && cp <= 0xfe2f) ||
    cp === 0xfeff
  ) {
    return 0;
  }
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f680 && cp <= 0x1f6ff) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}
