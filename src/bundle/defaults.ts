/**
 * The config's dispatch defaults (docs/formats/config.md), defined once.
 *
 * The compiler's config parser takes its defaults from here, resolve computes
 * every agent's effective dispatch settings from them, and the bundle carries
 * the effective values (`BundleDispatch`, `Bundle.dispatchDefaults`), so the
 * runtime needs no defaults of its own. Only a bundle written before a field
 * existed falls back to these values — the same ones the compiler would have
 * applied. No imports: the runtime reads this module too.
 */

/** Prefix of a sub-agent's tool name (`ask_<id>`): `dispatch.toolPrefix`. */
export const DEFAULT_TOOL_PREFIX = 'ask_';

/** Sub-agent calls executed per invocation when neither the card nor the config sets a cap: `dispatch.fanOutCap`. */
export const DEFAULT_FAN_OUT_CAP = 3;

/** `dispatch.stream` of a card that sets none. */
export const DEFAULT_STREAM_MODE = 'compose' as const;

/** `dispatch.intent_count_failsafe` of a card that sets none. */
export const DEFAULT_INTENT_COUNT_FAILSAFE = false;
