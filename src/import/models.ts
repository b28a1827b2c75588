/**
 * Model names → config registry entries, guessed from the name alone. Invariant:
 * every entry says it is guessed (the writer marks it in the config and the
 * report); the same name always yields the same key and entry.
 */
export interface GuessedModel {
  /** Key in config.models (what the card's `model` says). */
  key: string;
  provider: string;
  model: string;
  contextWindow: number;
  encoding: 'o200k_base' | 'cl100k_base';
  /** The source's spelling. */
  from: string;
}

/** Claude Code's aliases (and fast-agent's short names) for the current Claude models. */
const CLAUDE_ALIASES: Record<string, string> = {
  sonnet: 'claude-sonnet-4-5',
  opus: 'claude-opus-4-1',
  haiku: 'claude-haiku-4-5',
};

const OPENAI_PREFIXES = /^(gpt-|o1|o3|o4|chatgpt-|codex-)/;

export function guessModel(from: string): GuessedModel {
  let name = from.trim();
  let provider: string | undefined;
  // cagent: "provider/model"; fast-agent: "provider.model"; litellm: "provider/model".
  const slash = /^([a-z][a-z0-9_-]*)[/.](.+)$/.exec(name);
  if (slash && KNOWN_PROVIDERS.has(slash[1]!)) {
    provider = providerName(slash[1]!);
    name = slash[2]!;
  }
  name = CLAUDE_ALIASES[name] ?? name;
  const lower = name.toLowerCase();
  provider ??= lower.startsWith('claude')
    ? 'anthropic'
    : OPENAI_PREFIXES.test(lower)
      ? 'openai'
      : lower.startsWith('gemini')
        ? 'google'
        : lower.startsWith('mistral')
          ? 'mistral'
          : 'unknown';
  // Only OpenAI's pre-4o models use cl100k_base; o200k_base is the closest public stand-in for the rest.
  const encoding = provider === 'openai' && /^(gpt-4(?!o|\.)|gpt-3\.5)/.test(lower) ? 'cl100k_base' : 'o200k_base';
  return { key: modelKey(from), provider, model: name, contextWindow: contextWindow(provider, lower), encoding, from };
}

const KNOWN_PROVIDERS = new Set([
  'openai',
  'anthropic',
  'google',
  'gemini',
  'vertexai',
  'mistral',
  'dmr',
  'azure',
  'bedrock',
  'ollama',
  'generic',
  'openrouter',
  'deepseek',
  'xai',
  'groq',
]);

function providerName(p: string): string {
  return p === 'gemini' || p === 'vertexai' ? 'google' : p;
}

function contextWindow(provider: string, lower: string): number {
  if (provider === 'anthropic') return 200_000;
  if (provider === 'google') return 1_048_576;
  if (lower.startsWith('gpt-4.1')) return 1_047_576;
  if (lower.startsWith('gpt-5')) return 400_000;
  if (/^o[134]/.test(lower)) return 200_000;
  if (lower.startsWith('gpt-3.5')) return 16_385;
  if (/^gpt-4(?!o|\.)/.test(lower) && !lower.includes('turbo')) return 8_192;
  return 128_000;
}

/** A registry key: the source spelling with characters other than [A-Za-z0-9._-] replaced. */
export function modelKey(from: string): string {
  const key = from
    .trim()
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return key === '' ? 'model' : key;
}
