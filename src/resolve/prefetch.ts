/**
 * Counting ahead: as soon as the blocks are parsed — while the cards and tools
 * still parse — every body that reads nothing from the context is rendered
 * (the same render resolve uses, kept on the block's derived data) and its
 * text is announced to the token counter, which may count it on a worker
 * thread (src/tokenize/remote.ts). Resolve then finds those counts ready.
 *
 * Only a hint: which encodings agents will use is a guess from the config's
 * models, and a wrong guess costs the worker time, never a different count.
 */
import type { Block, ResolvedConfig } from '../parse/types.js';
import { isEncoding, type Encoding } from '../tokenize/index.js';
import type { TokenCounter } from '../tokenize/counter.js';
import type { BlockMemos } from './block-memo.js';
import { contextDependencies } from './render.js';
import { BLOCK_SEPARATOR, stableRender } from './index.js';

export function prefetchStableCounts(blocks: readonly Block[], models: ResolvedConfig['models'] | undefined, memos: BlockMemos, tokens: TokenCounter): void {
  const byEncoding = new Map<Encoding, string[]>();
  for (const encoding of likelyEncodings(models)) byEncoding.set(encoding, []);
  for (const block of blocks) {
    if (!block.template) continue;
    const derived = memos.of(block);
    if (contextDependencies(block, derived).length > 0) continue;
    const r = stableRender(block, derived);
    if (!('text' in r) || r.text === '') continue;
    for (const [encoding, texts] of byEncoding) if (!derived.stableCounts?.has(encoding)) texts.push(r.text + BLOCK_SEPARATOR);
  }
  for (const [encoding, texts] of byEncoding) tokens.want(texts, encoding);
}

/** The encodings the config's models declare (o200k_base, every agent's default, when none does). */
function likelyEncodings(models: ResolvedConfig['models'] | undefined): Encoding[] {
  const out = new Set<Encoding>();
  for (const m of Object.values(models ?? {})) if (isEncoding(m.encoding)) out.add(m.encoding);
  return out.size === 0 ? ['o200k_base'] : [...out].sort();
}
