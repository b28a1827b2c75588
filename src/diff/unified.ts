/**
 * A small line diff (Myers' O(ND) algorithm) and GNU-style unified output.
 *
 * Invariants: the edit script is minimal (fewest inserted + deleted lines) unless
 * the inputs differ in more than MAX_EDIT_DISTANCE lines, where it degrades to
 * "replace the differing middle" (still correct, never slow); within a run of
 * changes, deletions come before insertions; output is deterministic.
 */

export type LineOp =
  | { op: 'equal'; a: number; b: number }
  | { op: 'delete'; a: number }
  | { op: 'insert'; b: number };

/** Beyond this many differing lines we stop searching for a minimal script. */
const MAX_EDIT_DISTANCE = 4000;

/** Split text into lines (without '\n'); a trailing '\n' does not start a new line. */
export function splitLines(text: string): { lines: string[]; noEol: boolean } {
  if (text === '') return { lines: [], noEol: false };
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') {
    lines.pop();
    return { lines, noEol: false };
  }
  return { lines, noEol: true };
}

/** Edit script turning `a` into `b`; `eq(i, j)` says whether a[i] and b[j] are the same line. */
export function diffSequences(n: number, m: number, eq: (i: number, j: number) => boolean): LineOp[] {
  // Trim the common prefix and suffix: cheap, and most prompt edits are local.
  let start = 0;
  while (start < n && start < m && eq(start, start)) start++;
  let endA = n;
  let endB = m;
  while (endA > start && endB > start && eq(endA - 1, endB - 1)) {
    endA--;
    endB--;
  }
  const middle = myers(endA - start, endB - start, (i, j) => eq(i + start, j + start));
  const ops: LineOp[] = [];
  for (let i = 0; i < start; i++) ops.push({ op: 'equal', a: i, b: i });
  for (const op of middle) {
    if (op.op === 'equal') ops.push({ op: 'equal', a: op.a + start, b: op.b + start });
    else if (op.op === 'delete') ops.push({ op: 'delete', a: op.a + start });
    else ops.push({ op: 'insert', b: op.b + start });
  }
  for (let i = 0; i < n - endA; i++) ops.push({ op: 'equal', a: endA + i, b: endB + i });
  return groupDeletesFirst(ops);
}

function myers(n: number, m: number, eq: (i: number, j: number) => boolean): LineOp[] {
  if (n === 0 && m === 0) return [];
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // history[d] = v[-d..d] after round d (the furthest x reached on each diagonal k).
  const history: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= Math.min(max, MAX_EDIT_DISTANCE); d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && eq(x, y)) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) found = d;
    }
    history.push(v.slice(offset - d, offset + d + 1));
    if (found >= 0) break;
  }
  if (found < 0) return replaceAll(n, m);

  const reversed: LineOp[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const prev = history[d - 1]!;
    const at = (k: number) => prev[k + d - 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    const midX = down ? prevX : prevX + 1;
    while (x > midX) {
      x--;
      y--;
      reversed.push({ op: 'equal', a: x, b: y });
    }
    if (down) reversed.push({ op: 'insert', b: prevY });
    else reversed.push({ op: 'delete', a: prevX });
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    reversed.push({ op: 'equal', a: x, b: y });
  }
  return reversed.reverse();
}

function replaceAll(n: number, m: number): LineOp[] {
  const ops: LineOp[] = [];
  for (let i = 0; i < n; i++) ops.push({ op: 'delete', a: i });
  for (let j = 0; j < m; j++) ops.push({ op: 'insert', b: j });
  return ops;
}

/** Within each maximal run of non-equal ops, put deletions before insertions (GNU diff's order). */
function groupDeletesFirst(ops: LineOp[]): LineOp[] {
  const out: LineOp[] = [];
  let i = 0;
  while (i < ops.length) {
    if (ops[i]!.op === 'equal') {
      out.push(ops[i]!);
      i++;
      continue;
    }
    const dels: LineOp[] = [];
    const ins: LineOp[] = [];
    while (i < ops.length && ops[i]!.op !== 'equal') {
      (ops[i]!.op === 'delete' ? dels : ins).push(ops[i]!);
      i++;
    }
    out.push(...dels, ...ins);
  }
  return out;
}

export interface UnifiedOptions {
  /** Lines of context around each change (default 3). */
  context?: number;
  /** Header names; omitted → no ---/+++ header. `null` → /dev/null (file added or removed). */
  fromFile?: string | null;
  toFile?: string | null;
}

/** Unified diff of two texts; '' when they are equal. Every line ends with '\n'. */
export function unifiedDiff(before: string, after: string, options: UnifiedOptions = {}): string {
  if (before === after) return '';
  const context = options.context ?? 3;
  const a = splitLines(before);
  const b = splitLines(after);
  const n = a.lines.length;
  const m = b.lines.length;
  const eq = (i: number, j: number) =>
    a.lines[i] === b.lines[j] && (a.noEol && i === n - 1) === (b.noEol && j === m - 1);
  const ops = diffSequences(n, m, eq);

  const out: string[] = [];
  if (options.fromFile !== undefined || options.toFile !== undefined) {
    out.push(`--- ${options.fromFile === null ? '/dev/null' : `a/${options.fromFile ?? ''}`}`);
    out.push(`+++ ${options.toFile === null ? '/dev/null' : `b/${options.toFile ?? ''}`}`);
  }
  for (const [from, to] of hunkRanges(ops, context)) {
    const slice = ops.slice(from, to);
    const aLines = slice.filter((o) => o.op !== 'insert').length;
    const bLines = slice.filter((o) => o.op !== 'delete').length;
    const aStart = firstIndex(ops, from, 'a');
    const bStart = firstIndex(ops, from, 'b');
    out.push(`@@ -${range(aStart, aLines)} +${range(bStart, bLines)} @@`);
    for (const op of slice) {
      if (op.op === 'equal') {
        out.push(` ${a.lines[op.a]}`);
        if (a.noEol && op.a === n - 1) out.push('\\ No newline at end of file');
      } else if (op.op === 'delete') {
        out.push(`-${a.lines[op.a]}`);
        if (a.noEol && op.a === n - 1) out.push('\\ No newline at end of file');
      } else {
        out.push(`+${b.lines[op.b]}`);
        if (b.noEol && op.b === m - 1) out.push('\\ No newline at end of file');
      }
    }
  }
  return out.join('\n') + '\n';
}

/** [from, to) op index ranges of the hunks: changes plus `context` equal lines, merged when close. */
function hunkRanges(ops: LineOp[], context: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (let i = 0; i < ops.length; i++) {
    if (ops[i]!.op === 'equal') continue;
    let j = i;
    while (j < ops.length && ops[j]!.op !== 'equal') j++;
    const from = Math.max(0, i - context);
    const to = Math.min(ops.length, j + context);
    const last = ranges[ranges.length - 1];
    if (last !== undefined && from <= last[1]) last[1] = to;
    else ranges.push([from, to]);
    i = j - 1;
  }
  return ranges;
}

/** 0-based index in side `side` of the first line at or after op `from` (the line count before it). */
function firstIndex(ops: LineOp[], from: number, side: 'a' | 'b'): number {
  let count = 0;
  for (let i = 0; i < from; i++) {
    const op = ops[i]!;
    if (op.op === 'equal' || (side === 'a' ? op.op === 'delete' : op.op === 'insert')) count++;
  }
  return count;
}

/** GNU range: "start,len" (1-based), "start" when len is 1, "start-1,0" style for empty ranges. */
function range(zeroBasedStart: number, length: number): string {
  if (length === 0) return `${zeroBasedStart},0`;
  if (length === 1) return `${zeroBasedStart + 1}`;
  return `${zeroBasedStart + 1},${length}`;
}
