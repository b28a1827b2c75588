/**
 * GNU-style unified diff of two texts, on jsdiff's line diff (Myers' O(ND)).
 *
 * Invariants: the edit script is minimal (fewest inserted + deleted lines) unless the
 * inputs differ in more than MAX_EDIT_DISTANCE lines, where it degrades to "replace
 * everything" (still correct, never slow); within a run of changes, deletions come
 * before insertions; hunk headers follow GNU diff ("-3" for one line, "-2,0" for none);
 * output is deterministic.
 */
import { structuredPatch, type StructuredPatchHunk } from 'diff';

/** Beyond this many differing lines we stop searching for a minimal script (jsdiff costs ~D²: 1000 keeps the worst case near 0.3 s). */
const MAX_EDIT_DISTANCE = 1000;

const NO_EOL = '\\ No newline at end of file';

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
  const hunks = structuredPatch('a', 'b', before, after, undefined, undefined, { context, maxEditLength: MAX_EDIT_DISTANCE })?.hunks ?? [
    replaceAll(before, after),
  ];

  const out: string[] = [];
  if (options.fromFile !== undefined || options.toFile !== undefined) {
    out.push(`--- ${options.fromFile === null ? '/dev/null' : `a/${options.fromFile ?? ''}`}`);
    out.push(`+++ ${options.toFile === null ? '/dev/null' : `b/${options.toFile ?? ''}`}`);
  }
  for (const h of hunks) {
    out.push(`@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@`, ...h.lines);
  }
  return out.join('\n') + '\n';
}

/** The one hunk that deletes every line of `before` and inserts every line of `after`. */
function replaceAll(before: string, after: string): StructuredPatchHunk {
  const a = splitLines(before);
  const b = splitLines(after);
  const lines = [...a.lines.map((l) => `-${l}`), ...(a.noEol ? [NO_EOL] : []), ...b.lines.map((l) => `+${l}`), ...(b.noEol ? [NO_EOL] : [])];
  return { oldStart: 1, oldLines: a.lines.length, newStart: 1, newLines: b.lines.length, lines };
}

/** Split text into lines (without '\n'); a trailing '\n' does not start a new line. */
function splitLines(text: string): { lines: string[]; noEol: boolean } {
  if (text === '') return { lines: [], noEol: false };
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') {
    lines.pop();
    return { lines, noEol: false };
  }
  return { lines, noEol: true };
}

/**
 * GNU range from jsdiff's 1-based start: "start,len", "start" when len is 1; an empty side
 * names the line before the hunk ("0,0" at the top), as jsdiff's own formatPatch does.
 */
function range(start: number, length: number): string {
  if (length === 0) return `${start - 1},0`;
  if (length === 1) return `${start}`;
  return `${start},${length}`;
}
