/**
 * The one did-you-mean helper: suggests the closest candidate by edit distance
 * (Damerau-Levenshtein, optimal string alignment), case-insensitive, within a
 * threshold that grows with the name's length. Deterministic: ties resolve to the
 * lexicographically smallest candidate.
 */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  const needle = name.toLowerCase();
  const threshold = Math.max(1, Math.floor(needle.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const lower = candidate.toLowerCase();
    if (Math.abs(lower.length - needle.length) > threshold) continue;
    const d = lower === needle ? 0.5 : editDistance(needle, lower, threshold);
    if (d > threshold) continue;
    if (d < bestDistance || (d === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** `Did you mean "x"?` or undefined. */
export function didYouMean(name: string, candidates: Iterable<string>): string | undefined {
  const match = closest(name, candidates);
  return match === undefined ? undefined : `Did you mean "${match}"?`;
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
