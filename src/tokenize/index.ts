/**
 * Exact token counting with OpenAI's BPE encodings (gpt-tokenizer; its counts
 * equal tiktoken's — test/tokenize.test.ts proves parity against tiktoken).
 * Special-token text such as "<|endoftext|>" is counted as ordinary text, as a
 * prompt would be. Encodings load lazily: each costs ~0.3 s the first time.
 *
 * These functions do not memoize: a compile counts through a TokenCounter
 * (counter.ts), the per-run object that memoizes by (encoding, text) and may be
 * backed by the persistent cache.
 */
import { createRequire } from 'node:module';

export type Encoding = 'o200k_base' | 'cl100k_base';
export const ENCODINGS: readonly Encoding[] = ['o200k_base', 'cl100k_base'];

interface Encoder {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string>; allowedSpecial?: Set<string> }): number;
  encode(text: string, options?: { disallowedSpecial?: Set<string>; allowedSpecial?: Set<string> }): number[];
}

const require = createRequire(import.meta.url);
const NO_SPECIAL = { disallowedSpecial: new Set<string>(), allowedSpecial: new Set<string>() };

/** The encodings' modules, loaded on first use (library code, the same for every input: not a memo). */
let o200k: Encoder | undefined;
let cl100k: Encoder | undefined;

function encoder(encoding: Encoding): Encoder {
  // CommonJS build: loads synchronously and a little faster than the ESM one.
  if (encoding === 'o200k_base') return (o200k ??= require('gpt-tokenizer/cjs/encoding/o200k_base') as Encoder);
  return (cl100k ??= require('gpt-tokenizer/cjs/encoding/cl100k_base') as Encoder);
}

/** Exact token count of `text` under `encoding` (loads the encoding on first use). */
export function countTokens(text: string, encoding: Encoding): number {
  return text.length === 0 ? 0 : encoder(encoding).countTokens(text, NO_SPECIAL);
}

/**
 * Exact token count of `text` under `encoding`, counted paragraph by paragraph:
 * the text is cut after each run of blank lines that is followed by a safe
 * character (see isSafeBoundary), and each paragraph is counted by `count`
 * (a memoizing counter in a compile). The sum is exact because no pre-token spans such a cut; renders of one block for
 * many agents differ in a few paragraphs, and only those are counted again.
 * (For text that never varies, countTokens is cheaper: one call, one memo entry.)
 */
export function countTokensByParagraph(text: string, encoding: Encoding, count: (segment: string, encoding: Encoding) => number = countTokens): number {
  let total = 0;
  for (const segment of paragraphsOf(text)) total += count(segment, encoding);
  return total;
}

/** The segments countTokensByParagraph counts: `text` cut after each run of blank lines followed by a safe character; they join to `text`. */
export function paragraphsOf(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let i = text.indexOf('\n\n');
  while (i !== -1) {
    let j = i + 2;
    while (text.charCodeAt(j) === 10) j++;
    if (j < text.length && isSafeBoundary(text.charAt(j))) {
      out.push(text.slice(start, j));
      start = j;
    }
    i = text.indexOf('\n\n', j);
  }
  out.push(start === 0 ? text : text.slice(start));
  return out;
}

export function encode(text: string, encoding: Encoding): number[] {
  return encoder(encoding).encode(text, NO_SPECIAL);
}

/**
 * Whether count(a + b) === count(a) + count(b) is guaranteed when `a` ends with
 * "\n" and `b` starts with `b[0]`. Both encodings pre-split text with a regex
 * before BPE, and no pre-token spans a newline followed by a non-space
 * character — except o200k's punctuation run, which may swallow `/` after
 * newlines. So a boundary "\n" | X is a pre-token boundary unless X is
 * whitespace or "/". Prompt assembly relies on this to count a prefix as the
 * sum of its (memoized) blocks.
 */
export function isSafeBoundary(nextText: string): boolean {
  const c = nextText.charAt(0);
  return c !== '' && c !== '/' && !/\s/u.test(c);
}

export function isEncoding(name: unknown): name is Encoding {
  return name === 'o200k_base' || name === 'cl100k_base';
}
