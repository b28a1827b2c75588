/**
 * How the runtime counts tokens (history compaction, request budgets).
 *
 * The runtime never imports the compiler's tokenizer module. The bundle names
 * each model's encoding (`o200k_base` / `cl100k_base`, the same one `check`
 * counted the prompt with), and the runtime loads that encoding from
 * `gpt-tokenizer` — a dependency of the package already — by dynamic import,
 * on first use, so a runtime that never compacts never loads it. A service may
 * inject its own counter (RuntimeOptions.countTokens), e.g. a provider's.
 *
 * Invariants: loaded encodings and counts live on the per-runtime
 * `TokenCounters`, not in a module table (stored turns are immutable, so a
 * text's count is reused across turns; the table is bounded); when an encoding
 * cannot be loaded the count is a conservative estimate (one token per 3
 * UTF-16 units), never zero.
 */
import type { BundleModel } from './types.js';

export type TokenCounter = (text: string) => number;
export type CountTokens = (text: string, model: BundleModel & { id: string }) => number;

/** Per message: role and framing tokens providers add around the content. */
export const MESSAGE_OVERHEAD = 4;

export interface TokenCounters {
  forModel(model: BundleModel & { id: string }): Promise<TokenCounter>;
}

export const estimateTokens: TokenCounter = (text) => Math.ceil(text.length / 3);

/** Distinct texts whose counts a runtime keeps per encoding before starting over. */
const COUNT_CACHE_LIMIT = 20_000;

function remembered(count: TokenCounter): TokenCounter {
  const counts = new Map<string, number>();
  return (text) => {
    if (text.length < 64) return count(text);
    let n = counts.get(text);
    if (n === undefined) {
      if (counts.size >= COUNT_CACHE_LIMIT) counts.clear();
      n = count(text);
      counts.set(text, n);
    }
    return n;
  };
}

export function createTokenCounters(inject?: CountTokens): TokenCounters {
  const loaded = new Map<string, Promise<TokenCounter>>();
  return {
    forModel(model) {
      if (inject !== undefined) return Promise.resolve((text: string) => inject(text, model));
      const encoding = model.encoding === 'cl100k_base' ? 'cl100k_base' : 'o200k_base';
      let counter = loaded.get(encoding);
      if (counter === undefined) {
        counter = loadEncoding(encoding).then(remembered);
        loaded.set(encoding, counter);
      }
      return counter;
    },
  };
}

async function loadEncoding(encoding: 'o200k_base' | 'cl100k_base'): Promise<TokenCounter> {
  try {
    const mod = (await (encoding === 'cl100k_base' ? import('gpt-tokenizer/encoding/cl100k_base') : import('gpt-tokenizer/encoding/o200k_base'))) as {
      countTokens(text: string): number;
    };
    return (text) => mod.countTokens(text);
  } catch {
    return estimateTokens;
  }
}
