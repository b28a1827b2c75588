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
import { countTokens, countTokensByParagraph, paragraphsOf, type Encoding } from './index.js';
import type { RemoteCounter } from './remote.js';

/**
 * Least text (characters) missing from the memo and the store for `want` to start
 * the counting worker: below it, loading the encoding here costs about the same
 * and a small workspace spares the thread.
 */
export const REMOTE_MIN_CHARS = 256 * 1024;

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

  /** The counting worker, while one runs (started by `want`, stopped by `close`). */
  private remote: RemoteCounter | undefined;

  /**
   * `startRemote`: how to start a counting worker (src/tokenize/remote.ts); without
   * it (tests, in-memory compiles) every count is made on this thread.
   */
  constructor(
    private readonly store?: TokenStore,
    private startRemote?: () => RemoteCounter | undefined,
  ) {}

  /**
   * Announces texts that are about to be counted (a hint: never needed for a
   * result). Those neither memoized nor stored are sent to the counting worker,
   * which is started when at least REMOTE_MIN_CHARS of text is missing; without
   * a worker this does nothing. A warm run (every count stored) starts nothing.
   */
  want(texts: readonly string[], encoding: Encoding): void {
    if (!this.startRemote) return;
    const missing: string[] = [];
    let chars = 0;
    for (const t of texts) {
      if (t.length === 0 || this.known(t, encoding)) continue;
      missing.push(t);
      chars += t.length;
    }
    if (missing.length === 0) return;
    if (!this.remote) {
      if (chars < REMOTE_MIN_CHARS) return;
      this.remote = this.startRemote();
      if (!this.remote) {
        this.startRemote = undefined;
        return;
      }
    }
    this.remote.request(missing, encoding);
  }

  /**
   * Starts the counting worker now and has it load `encodings`, before any text
   * is known (a cold run of a large workspace: compile calls this when the store
   * is empty). Does nothing without a way to start one, or when one runs.
   */
  startEarly(encodings: readonly Encoding[]): void {
    if (!this.startRemote || this.remote) return;
    this.remote = this.startRemote();
    if (!this.remote) this.startRemote = undefined;
    else for (const e of encodings) this.remote.preload(e);
  }

  /** Whether `want` can do anything (a counting worker can be started or runs): else announcing texts is wasted work. */
  get countsAhead(): boolean {
    return this.startRemote !== undefined;
  }

  /** `want` for the paragraphs countByParagraph will count. */
  wantByParagraph(texts: readonly string[], encoding: Encoding): void {
    if (this.countsAhead) this.want(texts.flatMap(paragraphsOf), encoding);
  }

  /** Stops the counting worker, if one runs (a compile calls this once it has counted everything). */
  close(): void {
    this.remote?.close();
    this.remote = undefined;
  }

  private known(text: string, encoding: Encoding): boolean {
    if (this.memo.get(encoding)?.has(text) || this.previous.get(encoding)?.has(text)) return true;
    return this.store !== undefined && this.store.has(this.store.key(text, encoding));
  }

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
      n = this.remote ? this.remote.take(text, encoding) : countTokens(text, encoding);
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
