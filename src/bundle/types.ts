/**
 * The canonical bundle (generated/bundle.json): everything the runtime needs to
 * execute a workspace, and everything `agentc diff` compares. Plain JSON data;
 * serialized with sorted keys so that the same input gives the same bytes.
 */
import type { TemplateNode } from './template/ast.js';

// Card and config shapes the bundle carries (src/parse/types.ts re-exports them).
export type JsonSchema = Record<string, unknown>;
export type Role = 'orchestrator' | 'native' | 'external-wrapper' | 'internal-helper';

export interface Tuning {
  max_output_tokens?: number;
  reasoning_effort?: string;
  text_verbosity?: string;
}

export interface Policy {
  token_budget?: { input?: number; output?: number };
  time_budget_ms?: number;
  tool_whitelist?: string[];
  max_tool_calls?: number;
  max_recursion_depth?: number;
}

export interface ModelEntry {
  provider: string;
  model: string;
  contextWindow: number;
  encoding?: 'o200k_base' | 'cl100k_base';
  tools?: boolean;
  parallelToolCalls?: boolean;
  reasoningEffort?: string;
  /** Which wire API serves the model (default per provider: see docs/runtime-providers.md). */
  api?: 'openai-responses' | 'openai-chat' | 'anthropic-messages';
  /** USD per million tokens; cached input tokens are priced as `cachedInput`. */
  pricing?: { input: number; cachedInput?: number; output: number };
}

/** Code-level checks of the `query` handoff field (docs/sessions.md), each off unless true. */
export interface GuardSpec {
  verbatim?: boolean;
  overlap?: boolean;
  echo?: boolean;
}

/** Compaction of an agent's history (FR-11): past `max_tokens`, older turns fold into a summary. */
export interface HistoryPolicy {
  max_tokens: number;
  keep_last_turns?: number;
  summary_model?: string;
}

/**
 * Version of the stored bundle (bundle.json, see StoredBundle and
 * docs/formats/bundle.md). "3": prompt text stored once per block rendering, as
 * lines (a per-agent variant as line runs shared with its block's first
 * rendering); prefixes refer to it; copies the loader derives are left out. The
 * runtime refuses any other version.
 */
export const BUNDLE_FORMAT_VERSION = '3';

/**
 * The bundle in memory: what the compiler makes and the runtime runs (every
 * prefix joined, tool shapes inline). bundle.json stores it as a StoredBundle;
 * `loadBundle` (@agentc/runtime) turns one into the other.
 */
export interface Bundle {
  formatVersion: typeof BUNDLE_FORMAT_VERSION;
  agentcVersion: string;
  /** SHA-256 (hex) of bundle.json's text (the StoredBundle) with `hash` set to "". */
  hash: string;
  models: Record<string, BundleModel>;
  flags: string[];
  dynamicContext: { fields: string[]; template: string };
  /** `dynamicContext.template` as the template language's AST (an agent's `suffix_ast` unless its suffix differs). */
  dynamicContextAst: TemplateNode[];
  dispatchDefaults: { toolPrefix: string; fanOutCap: number };
  /** Every tool contract used by some agent, by name. */
  tools: Record<string, BundleToolContract>;
  agents: Record<string, BundleAgent>;
}

export interface BundleModel extends ModelEntry {
  /** Encoding used for counting (the model's, or o200k_base when it publishes none). */
  encoding: 'o200k_base' | 'cl100k_base';
  /** True when the provider publishes no tokenizer we can run: counts are estimates. */
  approximateTokens: boolean;
}

export interface BundleToolContract {
  name: string;
  description: string;
  parameters: JsonSchema;
  envelope: boolean;
  status_events: string[];
}

export interface BundleAgent {
  id: string;
  description: string;
  role: Role;
  owner: string;
  model: string;
  fallback_model?: string;
  tuning: Tuning;
  policy: Policy;
  /** The handoff a parent passes: JSON Schema object (properties, required, additionalProperties: false). */
  input: JsonSchema;
  output?: JsonSchema;
  /** Events this agent can emit: its own status_events plus those of its tools, sorted. */
  status_events: string[];
  sub_agents: string[];
  tools: BundleAgentTools;
  /** Feature flags this agent's blocks use, sorted; cohorts are subsets of these. */
  flags: string[];
  /** One entry per cohort; the first is the default cohort (no flags on). */
  prefixes: BundlePrefix[];
  /** The dynamic-context template rendered per request and appended after the prefix. */
  suffix_template: string;
  /** The same template as the template language's AST: what the runtime renders (it never parses Handlebars). */
  suffix_ast: TemplateNode[];
  /** How this agent's tool calls are executed (every agent with tools has one). */
  dispatch: BundleDispatch;
  /** The card's history compaction policy, when it declares one. */
  history?: HistoryPolicy;
}

export interface BundleAgentTools {
  /** Provider-neutral: name, description, JSON Schema parameters. Own tools first, then one per sub-agent. */
  neutral: NeutralTool[];
  /** OpenAI function tools, strict mode. */
  openai: OpenAITool[];
  /** Anthropic tools. */
  anthropic: AnthropicTool[];
}

export interface NeutralTool {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export interface OpenAITool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema; strict: true };
}

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

export interface BundlePrefix {
  /** Flags switched on in this cohort, sorted; [] is the default cohort. */
  cohort: string[];
  /** '' for the default cohort, else the flags joined with '+'. */
  key: string;
  text: string;
  tokens: number;
  sha256: string;
  /** Each block's slice of `text`, in order. */
  blocks: BundlePrefixBlock[];
}

export interface BundlePrefixBlock {
  id: string;
  owner: string;
  category: string;
  /** Workspace-relative source file. */
  file: string;
  required: boolean;
  tokens: number;
  /** Offset and length of this block's text within the prefix text. */
  start: number;
  length: number;
}

export type DispatchEntry = { kind: 'sub_agent'; agent: string; policy: Policy } | { kind: 'tool'; tool: string; envelope: boolean };

export interface BundleDispatch {
  fan_out_cap: number;
  intent_count_failsafe: boolean;
  /**
   * How the user hears sub-agents: `compose` (the orchestrator's model writes the
   * answer from their results) or `relay` (their answers stream to the user in
   * call order; the orchestrator's model is not called again).
   */
  stream: 'relay' | 'compose';
  /** Event → user-visible text; `null` means suppress. Sorted by event. */
  status_rendering: Record<string, string | null>;
  /** Tool name (as the model sees it) → what executing it means. */
  table: Record<string, DispatchEntry>;
  /** The card's query guards, when it declares any. */
  guards?: GuardSpec;
}

/**
 * bundle.json (format "3"): the Bundle with each block rendering's text stored
 * once (`texts`, as lines) and each distinct tool shape once (`toolShapes`);
 * agents refer to them by key. A prefix is its blocks' texts, each followed by
 * "\n\n", in order; its `sha256` is checked once, on first use (or by
 * `verifyBundle`).
 */
export interface StoredBundle extends Omit<Bundle, 'agents'> {
  /** Each agent with its prompts and tools as keys into `texts`, `blocks` and `toolShapes`. */
  agents: Record<string, StoredAgent>;
  /** Per block id: what every use of the block shares. */
  blocks: Record<string, StoredBlockInfo>;
  /** Rendered block text by key, split at "\n": the block id, or `<block>@<agent>[@<cohort>]` for a block that renders differently per agent. */
  texts: Record<string, StoredText>;
  /** Tool shapes by key `<name>~<sha256 prefix of the neutral shape>`. */
  toolShapes: Record<string, StoredToolShape>;
}

/**
 * A stored text: its lines, or (a per-agent variant of a block) `{ base }` — the
 * key of a text stored as lines — followed by runs: a string is a line of its
 * own, a positive integer n copies the base's next n lines, a negative one skips
 * -n of them.
 */
export type StoredText = string[] | [{ base: string }, ...(string | number)[]];

/**
 * A dispatch entry as stored: a sub-agent's `policy` is absent when it is that
 * agent's own policy; a tool's `tool` and `envelope` are absent when it runs the
 * contract of its own name (the entry's key) with that contract's `envelope`.
 */
export type StoredDispatchEntry = { kind: 'sub_agent'; agent: string; policy?: Policy } | { kind: 'tool'; tool?: string; envelope?: boolean };

export interface StoredAgent extends Omit<BundleAgent, 'prefixes' | 'tools' | 'suffix_template' | 'suffix_ast' | 'dispatch'> {
  dispatch: Omit<BundleDispatch, 'table'> & { table: Record<string, StoredDispatchEntry> };
  /** Absent when it is `dynamicContext.template`. */
  suffix_template?: string;
  /** Absent when it is `dynamicContextAst`. */
  suffix_ast?: TemplateNode[];
  prefixes: StoredPrefix[];
  /** Keys into `toolShapes`, in tool order. */
  tools: string[];
}

export interface StoredPrefix {
  cohort: string[];
  key: string;
  tokens: number;
  sha256: string;
  blocks: StoredPrefixBlock[];
}

export interface StoredPrefixBlock {
  id: string;
  tokens: number;
  /** Key into `texts`; absent when it is the block id. */
  text?: string;
}

export interface StoredBlockInfo {
  owner: string;
  category: string;
  file: string;
  required: boolean;
}

export interface StoredToolShape {
  neutral: NeutralTool;
  /**
   * Absent when it is the neutral tool as an OpenAI strict function with the
   * same parameters; `{ parameters }` when only its parameters differ.
   */
  openai?: OpenAITool | { parameters: JsonSchema };
  /** Absent when it is the neutral tool with `input_schema` = `parameters`. */
  anthropic?: AnthropicTool;
}
