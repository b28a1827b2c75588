import type { Position, Range } from '../diagnostics/diagnostic.js';

/**
 * A workspace file as text. Invariants: `text` has no BOM and LF line endings only
 * (CRLF and lone CR are normalized on load, so output never depends on the author's
 * line-ending convention); `path` is workspace-relative with `/` separators.
 */
export class SourceFile {
  private lineStarts: number[] | undefined;

  constructor(
    readonly path: string,
    readonly text: string,
  ) {}

  /** 1-based position of a 0-based offset into `text`. */
  positionAt(offset: number): Position {
    const starts = this.getLineStarts();
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= clamped) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: clamped - starts[lo]! + 1 };
  }

  rangeAt(start: number, end: number): Range {
    return { start: this.positionAt(start), end: this.positionAt(Math.max(start, end)) };
  }

  /**
   * `range` moved inside the text: lines within 1…lineCount, columns within
   * 1…line length + 1, end not before start. Positions that are already inside
   * are unchanged.
   */
  clampRange(range: Range): Range {
    const clamp = (p: Position): Position => {
      const line = Math.max(1, Math.min(p.line, this.lineCount));
      return { line, column: Math.max(1, Math.min(p.column, this.lineText(line).length + 1)) };
    };
    const start = clamp(range.start);
    const end = clamp(range.end);
    const ordered = end.line > start.line || (end.line === start.line && end.column >= start.column);
    return { start, end: ordered ? end : start };
  }

  /** 0-based offset of a 1-based position. */
  offsetAt(pos: Position): number {
    const starts = this.getLineStarts();
    const line = Math.max(1, Math.min(pos.line, starts.length));
    return Math.min(this.text.length, starts[line - 1]! + pos.column - 1);
  }

  /** The text of a 1-based line, without its newline. */
  lineText(line: number): string {
    const starts = this.getLineStarts();
    if (line < 1 || line > starts.length) return '';
    const start = starts[line - 1]!;
    const end = line < starts.length ? starts[line]! - 1 : this.text.length;
    return this.text.slice(start, end);
  }

  get lineCount(): number {
    return this.getLineStarts().length;
  }

  private getLineStarts(): number[] {
    if (this.lineStarts) return this.lineStarts;
    const starts = [0];
    const t = this.text;
    let i = t.indexOf('\n');
    while (i !== -1) {
      starts.push(i + 1);
      i = t.indexOf('\n', i + 1);
    }
    this.lineStarts = starts;
    return starts;
  }
}

/** Why bytes are not text: a NUL byte (binary) or invalid UTF-8. */
export type NotText = 'binary' | 'notUtf8';

export type DecodeResult = { ok: true; text: string } | { ok: false; reason: NotText; offset: number };

/**
 * Bytes → normalized text. Rejects what is not text: NUL bytes and invalid UTF-8
 * (with the offset of the first bad byte) — a binary file is a diagnostic, not garbage.
 */
export function decodeText(bytes: Uint8Array): DecodeResult {
  const nul = bytes.indexOf(0);
  if (nul !== -1) return { ok: false, reason: 'binary', offset: nul };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { ok: false, reason: 'notUtf8', offset: firstInvalidUtf8(bytes) };
  }
  return { ok: true, text: normalizeNewlines(text) };
}

export function normalizeNewlines(text: string): string {
  const noBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return noBom.indexOf('\r') === -1 ? noBom : noBom.replace(/\r\n?/g, '\n');
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    try {
      decoder.decode(bytes.subarray(0, mid), { stream: true });
      decoder.decode();
      lo = mid + 1;
    } catch {
      hi = mid;
    }
  }
  return Math.max(0, lo - 1);
}
