/**
 * What a model call costs, from the model entry's `pricing` (USD per million tokens).
 *
 * Invariant: cached input tokens are priced as `cachedInput` (or `input` when the
 * entry gives no cached price), the rest of the input as `input`; without pricing
 * the cost is unknown (undefined), never 0.
 */
import type { BundleModel, Usage } from './types.js';

export function costUsd(model: Pick<BundleModel, 'pricing'> | undefined, usage: Usage): number | undefined {
  const pricing = model?.pricing;
  if (pricing === undefined) return undefined;
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  const uncached = usage.inputTokens - cached;
  const cachedPrice = pricing.cachedInput ?? pricing.input;
  return (uncached * pricing.input + cached * cachedPrice + usage.outputTokens * pricing.output) / 1_000_000;
}
