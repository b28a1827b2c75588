/**
 * The per-run token counter: memoizes exact counts by (encoding, text) for one
 * compile (or one watch session), and consults an optional persistent store
 * first, so a warm run whose every count is stored never loads an encoding.
 *
 * Invariant: count(text, e) === countTokens(text, e) whatever the store holds —
 * the store is keyed by the sha256 of (encoding, text) and a store that cannot
 * prove its integrity is empty (src/cache/token-store.ts).
 */
import { countTokens, countTokensByParagraph, type Encoding } from './index.js';

/** Persistent counts by content key (see tokenKey). */
export interface TokenStore {
  get(key: string): number | undefined;
  set(key: string, count: number): void;
  /** sha256 hex of encoding + NUL + text. */
  key(text: string, encoding: Encoding): string;
}

export class TokenCounter {
  private readonly memo = new Map<Encoding, Map<string, number>>();
  /** Counts computed by the tokenizer in this run (observable for tests and the bench). */
  misses = 0;

  constructor(private readonly store?: TokenStore) {}

  count(text: string, encoding: Encoding): number {
    if (text.length === 0) return 0;
    let byText = this.memo.get(encoding);
    if (!byText) this.memo.set(encoding, (byText = new Map<string, number>()));
    const hit = byText.get(text);
    if (hit !== undefined) return hit;
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

  /** countTokensByParagraph through this counter's memo and store. */
  countByParagraph(text: string, encoding: Encoding): number {
    return countTokensByParagraph(text, encoding, (segment, e) => this.count(segment, e));
  }
}
