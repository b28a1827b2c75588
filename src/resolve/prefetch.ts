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
import type { SourceFile } from '../load/source.js';
import type { Block } from '../parse/types.js';
import { isEncoding, type Encoding } from '../tokenize/index.js';
import { REMOTE_MIN_CHARS, type TokenCounter } from '../tokenize/counter.js';
import type { BlockMemos } from './block-memo.js';
import { contextDependencies } from './render.js';
import { BLOCK_SEPARATOR, stableRender } from './index.js';

/**
 * On a cold run (`nothingStored`) of a workspace with at least REMOTE_MIN_CHARS
 * of block text, starts the counting worker before anything is parsed and has it
 * load o200k_base (every agent's default; the config, not loaded yet, may name others).
 */
export function startCountingEarly(blockFiles: readonly SourceFile[], nothingStored: boolean, tokens: TokenCounter): void {
  if (!nothingStored) return;
  let chars = 0;
  for (const f of blockFiles) chars += f.text.length;
  if (chars >= REMOTE_MIN_CHARS) tokens.startEarly(['o200k_base']);
}

/**
 * Announces the stable renders of `blocks` for the encodings the config's models
 * declare (`models`: the config's value of `models`, as given).
 */
export function prefetchStableCounts(blocks: readonly Block[], models: unknown, memos: BlockMemos, tokens: TokenCounter): void {
  if (!tokens.countsAhead) return;
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

/** The encodings the config's models declare (o200k_base, every agent's default, when none does); `models` may be any value. */
function likelyEncodings(models: unknown): Encoding[] {
  const out = new Set<Encoding>();
  const entries = models !== null && typeof models === 'object' ? Object.values(models) : [];
  for (const m of entries) {
    const encoding: unknown = m !== null && typeof m === 'object' ? (m as { encoding?: unknown }).encoding : undefined;
    if (isEncoding(encoding)) out.add(encoding);
  }
  return out.size === 0 ? ['o200k_base'] : [...out].sort();
}
