/**
 * The one did-you-mean helper (beside the runtime, which ships without the
 * compiler; the compiler uses it through src/diagnostics/did-you-mean.ts):
 * suggests the closest candidates by edit distance
 * (Damerau-Levenshtein, optimal string alignment), case-insensitive, within a
 * threshold that grows with the name's length. Deterministic: candidates are
 * ordered by distance, then lexicographically. At most three are suggested.
 */
export const MAX_SUGGESTIONS = 3;

/** Candidates within did-you-mean distance of `name`, closest first (at most `max`). */
export function suggestions(name: string, candidates: Iterable<string>, max = MAX_SUGGESTIONS): string[] {
  const needle = name.toLowerCase();
  const threshold = Math.max(1, Math.floor(needle.length / 3));
  const found: { candidate: string; distance: number }[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (candidate === name || seen.has(candidate)) continue;
    seen.add(candidate);
    const lower = candidate.toLowerCase();
    if (Math.abs(lower.length - needle.length) > threshold) continue;
    const d = lower === needle ? 0.5 : editDistance(needle, lower, threshold);
    if (d > threshold) continue;
    found.push({ candidate, distance: d });
  }
  found.sort((a, b) => a.distance - b.distance || (a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0));
  return found.slice(0, max).map((f) => f.candidate);
}

/** The closest candidate, or undefined. */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  return suggestions(name, candidates, 1)[0];
}

/** `"a"`, `"a" or "b"`, `"a", "b" or "c"`. */
export function quoteList(names: readonly string[]): string {
  const q = names.map((n) => `"${n}"`);
  return q.length <= 1 ? (q[0] ?? '') : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}`;
}

/** `Did you mean "x"?` (up to three) or undefined: for CLI usage errors, which are not diagnostics. */
export function didYouMean(name: string, candidates: Iterable<string>): string | undefined {
  const found = suggestions(name, candidates);
  return found.length === 0 ? undefined : `Did you mean ${quoteList(found)}?`;
}

function editDistance(a: string, b: string, limit: number): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  let prevPrev = new Array<number>(cols).fill(0);
  let prev = Array.from({ length: cols }, (_, j) => j);
  for (let i = 1; i < rows; i++) {
    const cur = new Array<number>(cols);
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, prevPrev[j - 2]! + 1);
      }
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    prevPrev = prev;
    prev = cur;
  }
  return prev[cols - 1]!;
}
