/**
 * An agent's effective dispatch settings: the card's `dispatch` values, else
 * the config's (`dispatch.fanOutCap`, `dispatch.toolPrefix`), else the defaults
 * in src/bundle/defaults.ts (which the config parser applies too). Computed
 * once per agent in resolve (`Agent.dispatch`); check, emit (the bundle's
 * `dispatch`), the render context and the LSP read it, and the bundle carries
 * the values so the runtime applies no defaults of its own.
 */
import { DEFAULT_INTENT_COUNT_FAILSAFE, DEFAULT_STREAM_MODE } from '../bundle/defaults.js';
import type { CardData, ResolvedConfig } from '../parse/types.js';
import type { EffectiveDispatch } from './types.js';

export function effectiveDispatch(card: CardData, config: Pick<ResolvedConfig, 'dispatch'>): EffectiveDispatch {
  const own = card.dispatch;
  return {
    fanOutCap: own?.fan_out_cap ?? config.dispatch.fanOutCap,
    fanOutCapExplicit: own?.fan_out_cap !== undefined,
    intentCountFailsafe: own?.intent_count_failsafe ?? DEFAULT_INTENT_COUNT_FAILSAFE,
    stream: own?.stream ?? DEFAULT_STREAM_MODE,
    statusRendering: { ...(own?.status_rendering ?? {}) },
    guards: own?.guards,
    toolPrefix: config.dispatch.toolPrefix,
  };
}
