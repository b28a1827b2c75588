/**
 * The per-run token counter: memoizes exact counts by (encoding, text) for one
 * compile (or one watch session), and consults an optional persistent store
 * first, so a warm run whose every count is stored never loads an encoding.
 * In a watch session `endRun()` after each compile keeps only the counts the
 * last two compiles used, so the memo follows the workspace instead of growing
 * with every edit (the persistent store still answers older texts).
 *
 * Invariant: count(text, e) === countTokens(text, e) whatever the store holds —
 * the store is keyed by the sha256 of (encoding, text) and a store that cannot
 * prove its integrity is empty (src/cache/token-store.ts).
 */
import { countTokens, countTokensByParagraph, type Encoding } from './index.js';

/** Persistent counts by content key (see tokenKey). */
export interface TokenStore {
  get(key: string): number | undefined;
  /** Whether `key` is stored, without counting it as used. */
  has(key: string): boolean;
  set(key: string, count: number): void;
  /** sha256 hex of encoding + NUL + text. */
  key(text: string, encoding: Encoding): string;
}

export class TokenCounter {
  private memo = new Map<Encoding, Map<string, number>>();
  /** Counts used by the previous run only (dropped by the next endRun unless used again). */
  private previous = new Map<Encoding, Map<string, number>>();
  /** Counts computed by the tokenizer in this run (observable for tests and the bench). */
  misses = 0;

  /** `store`: the persistent counts (src/cache/token-store.ts); without it (tests, in-memory compiles) counts live in this run only. */
  constructor(private readonly store?: TokenStore) {}

  count(text: string, encoding: Encoding): number {
    if (text.length === 0) return 0;
    let byText = this.memo.get(encoding);
    if (!byText) this.memo.set(encoding, (byText = new Map<string, number>()));
    const hit = byText.get(text) ?? this.previous.get(encoding)?.get(text);
    if (hit !== undefined) {
      byText.set(text, hit);
      return hit;
    }
    const key = this.store?.key(text, encoding);
    let n = key === undefined ? undefined : this.store!.get(key);
    if (n === undefined) {
      n = countTokens(text, encoding);
      this.misses++;
      if (key !== undefined) this.store!.set(key, n);
    }
    byText.set(text, n);
    return n;
  }

  /** Ends a compile: counts neither this run nor the one before used are forgotten. */
  endRun(): void {
    this.previous = this.memo;
    this.memo = new Map();
  }

  /** Distinct (encoding, text) pairs memoized now (tests). */
  get size(): number {
    const all = new Set<string>();
    for (const m of [this.memo, this.previous]) for (const [e, byText] of m) for (const t of byText.keys()) all.add(`${e}\u0000${t}`);
    return all.size;
  }

  /** countTokensByParagraph through this counter's memo and store. */
  countByParagraph(text: string, encoding: Encoding): number {
    return countTokensByParagraph(text, encoding, (segment, e) => this.count(segment, e));
  }
}
