/**
 * The code frame of the pretty reporter: the line before, the offending line(s)
 * with a line-number gutter and the span underlined with `~`, the line after.
 *
 * Invariants: an underline is always at least one `~` and sits exactly under its
 * span (tabs, wide characters and trimming included); a range over several lines
 * shows at most MAX_RANGE_LINES of them; every printed row fits in the gutter plus
 * `maxWidth` cells plus two ellipses; no control character reaches the terminal.
 */
import type { Range } from '../diagnostic.js';
import type { Severity } from '../catalog.js';
import type { SourceFile } from '../../load/source.js';
import type { Paint } from './ansi.js';
import { layoutLine, visualColumn, type LineLayout } from './cells.js';

export const MAX_RANGE_LINES = 3;
/** Source cells shown per row before a long line is trimmed. */
export const DEFAULT_MAX_WIDTH = 100;
/** Cells kept before the span when a long line is trimmed. */
const LEAD = 24;
const ELLIPSIS = '...';

export interface FrameOptions {
  paint: Paint;
  severity: Severity;
  maxWidth?: number;
}

interface Row {
  line: number;
  layout: LineLayout;
  inRange: boolean;
  /** 1-based UTF-16 columns, `to` exclusive; absent: nothing to underline on this row. */
  span?: { from: number; to: number };
}

export function codeFrame(file: SourceFile, range: Range, opts: FrameOptions): string[] {
  const { paint } = opts;
  const maxWidth = Math.max(20, opts.maxWidth ?? DEFAULT_MAX_WIDTH);
  const r = clampRange(file, range);
  const lastShown = Math.min(r.endLine, r.startLine + MAX_RANGE_LINES - 1);
  const hidden = r.endLine - lastShown;

  const rows: Row[] = [];
  if (r.startLine > 1) rows.push(row(file, r.startLine - 1, false));
  for (let line = r.startLine; line <= lastShown; line++) {
    const text = file.lineText(line);
    const first = line === r.startLine;
    const last = line === r.endLine;
    const from = first ? r.startCol : firstNonSpace(text) + 1;
    const to = last ? r.endCol : text.length + 1;
    const current = row(file, line, true);
    // Later lines of a range get no underline when the range holds nothing of them.
    if (first || (text.trim() !== '' && to > from)) current.span = { from, to };
    rows.push(current);
  }
  const after = lastShown + 1;
  // The empty "line" after a final newline is not worth a row.
  const isEofLine = after === file.lineCount && file.lineText(after) === '';
  if (hidden === 0 && after <= file.lineCount && !isEofLine) rows.push(row(file, after, false));

  const window = chooseWindow(rows, maxWidth);
  const gutterWidth = String(Math.max(...rows.map((x) => x.line))).length;
  const severityPaint = opts.severity === 'error' ? paint.red : paint.yellow;
  const bar = paint.grey('|');
  const blankGutter = ' '.repeat(gutterWidth + 2);

  const out: string[] = [];
  for (const x of rows) {
    const marker = x.inRange ? severityPaint('>') : ' ';
    const number = paint.grey(String(x.line).padStart(gutterWidth));
    const content = renderSlice(x.layout, window).trimEnd();
    out.push(content === '' ? `${marker} ${number} ${bar}` : `${marker} ${number} ${bar} ${content}`);
    if (x.span) {
      const { indent, width } = underline(x.layout, x.span, window);
      out.push(`${blankGutter} ${bar} ${' '.repeat(indent)}${severityPaint('~'.repeat(width))}`);
    }
  }
  if (hidden > 0) out.push(`${blankGutter} ${bar} ${paint.grey(`${ELLIPSIS} (${hidden} more line${hidden === 1 ? '' : 's'})`)}`);
  return out;
}

interface Clamped {
  startLine: number;
  startCol: number;
  endLine: number;
  endCol: number;
}

/** Brings any range inside the file; an end before the start collapses onto the start. */
function clampRange(file: SourceFile, range: Range): Clamped {
  const lines = file.lineCount;
  const startLine = clamp(range.start.line, 1, lines);
  const startCol = clamp(range.start.column, 1, file.lineText(startLine).length + 1);
  let endLine: number;
  let endCol: number;
  if (range.end.line > lines) {
    endLine = lines;
    endCol = file.lineText(lines).length + 1;
  } else {
    endLine = clamp(range.end.line, 1, lines);
    endCol = clamp(range.end.column, 1, file.lineText(endLine).length + 1);
  }
  if (endLine < startLine || (endLine === startLine && endCol < startCol)) {
    endLine = startLine;
    endCol = startCol;
  }
  // A range that ends at column 1 of a later line (YAML block values do) ends with the line before.
  if (endLine > startLine && endCol === 1) {
    endLine--;
    endCol = file.lineText(endLine).length + 1;
  }
  return { startLine, startCol, endLine, endCol };
}

function row(file: SourceFile, line: number, inRange: boolean): Row {
  return { line, layout: layoutLine(file.lineText(line)), inRange };
}

interface Window {
  /** First visible cell. */
  start: number;
  /** One past the last visible cell (Infinity: not trimmed). */
  end: number;
}

/** One window for all rows, so that rows stay aligned with each other. */
function chooseWindow(rows: Row[], maxWidth: number): Window {
  const widest = Math.max(...rows.map((x) => x.layout.width));
  if (widest <= maxWidth) return { start: 0, end: Infinity };
  const focusRow = rows.find((x) => x.span !== undefined)!;
  const from = visualColumn(focusRow.layout, focusRow.span!.from);
  const to = visualColumn(focusRow.layout, focusRow.span!.to);
  const start = to <= maxWidth ? 0 : Math.max(0, from - LEAD);
  return { start, end: start + maxWidth };
}

function renderSlice(layout: LineLayout, w: Window): string {
  let text = '';
  let before = false;
  for (const cell of layout.cells) {
    const cellEnd = cell.start + cell.width;
    if (cell.start < w.start) {
      before = true;
      // A wide character or tab cut by the window edge is padded so columns stay put.
      if (cellEnd > w.start) text += ' '.repeat(Math.min(cellEnd, w.end) - w.start);
      continue;
    }
    if (cellEnd > w.end || (cell.width === 0 && cell.start >= w.end)) {
      text += ' '.repeat(Math.max(0, w.end - cell.start));
      return prefix(w, before) + text + ELLIPSIS;
    }
    text += cell.text;
  }
  return prefix(w, before) + text;
}

function prefix(w: Window, before: boolean): string {
  if (w.start === 0) return '';
  return before ? ELLIPSIS : ' '.repeat(ELLIPSIS.length);
}

function underline(layout: LineLayout, span: { from: number; to: number }, w: Window): { indent: number; width: number } {
  let from = visualColumn(layout, span.from);
  let to = Math.max(from + 1, visualColumn(layout, span.to));
  from = Math.min(Math.max(from, w.start), w.end - 1);
  to = Math.min(to, w.end);
  if (to <= from) to = from + 1;
  const shift = w.start === 0 ? 0 : ELLIPSIS.length;
  return { indent: shift + from - w.start, width: to - from };
}

function firstNonSpace(text: string): number {
  const m = /\S/.exec(text);
  return m ? m.index : text.length;
}

function clamp(n: number, lo: number, hi: number): number {
  if (!Number.isFinite(n)) return lo;
  return Math.max(lo, Math.min(hi, Math.trunc(n)));
}
