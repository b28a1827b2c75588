/**
 * The parsed model: what the parse phase makes of each workspace file. Data is
 * normalized (absent lists are empty) so later phases never re-check shapes; the
 * `locate` function maps a data path back to its exact source range.
 */
import type { TemplateAnalysis } from './template.js';
import type { Finder, Locator } from './yaml.js';
import type { SourceFile } from '../load/source.js';
import type { GuardSpec, HistoryPolicy, JsonSchema, ModelEntry, Policy, Role, Tuning } from '../bundle/types.js';

/** Shared with the bundle (and so the runtime package): defined in src/bundle/types.ts. */
export type { GuardSpec, HistoryPolicy, JsonSchema, ModelEntry, Policy, Role, Tuning };

export type BlockCategory = 'persona' | 'instructions' | 'capabilities' | 'safety' | 'format' | 'context';

/** `suppress` hides an event from the user; a string is shown as is. */
export type StatusRendering = Record<string, string>;

export interface DispatchSpec {
  fan_out_cap?: number;
  intent_count_failsafe?: boolean;
  /** `relay`: sub-agents' answers stream to the user in call order; default `compose`. */
  stream?: 'relay' | 'compose';
  status_rendering?: StatusRendering;
  guards?: GuardSpec;
}

export interface CardData {
  id: string;
  description: string;
  role: Role;
  owner: string;
  model?: string;
  fallback_model?: string;
  tools: string[];
  prompt_blocks: string[];
  sub_agents: string[];
  tuning: Tuning;
  /** Handoff fields (JSON Schema properties); defaults to query + prior_context. */
  input: Record<string, JsonSchema>;
  input_required: string[];
  output?: JsonSchema;
  status_events: string[];
  policy: Policy;
  dispatch?: DispatchSpec;
  history?: HistoryPolicy;
}

export interface Card {
  kind: 'card';
  file: SourceFile;
  /** The file's stem, the id other files refer to. */
  stem: string;
  data: CardData;
  /** Whether the card declared `input` itself (else the default handoff applies). */
  explicitInput: boolean;
  /** Where a path is written in the card, or undefined ("not written"). */
  find: Finder;
  /** `find`, else the card's `id` key (else its first line). */
  locate: Locator;
}

export interface BlockData {
  id: string;
  category: BlockCategory;
  owner: string;
  reusable: boolean;
  feature_flag?: string;
  max_tokens?: number;
}

export interface Block {
  kind: 'block';
  file: SourceFile;
  data: BlockData;
  /** Body text (after the closing `---` line) and its offset in `file.text`. */
  body: string;
  bodyOffset: number;
  /** Static analysis of the Handlebars body; `undefined` when it does not parse. */
  template: TemplateAnalysis | undefined;
  /** Where a front-matter path is written, or undefined ("not written"). */
  find: Finder;
  /** `find`, else the first front-matter line. */
  locate: Locator;
}

export interface ToolData {
  name: string;
  description: string;
  parameters: JsonSchema;
  envelope: boolean;
  status_events: string[];
}

export interface Tool {
  kind: 'tool';
  file: SourceFile;
  stem: string;
  data: ToolData;
  /** Where a path is written in the contract, or undefined ("not written"). */
  find: Finder;
  /** `find`, else the contract's `name` key (else its first line). */
  locate: Locator;
}

export type RuleSetting = 'error' | 'warning' | 'off';

/** The config with every default applied. */
export interface ResolvedConfig {
  models: Record<string, ModelEntry>;
  platform: { owner: string; requiredBlocks: string[] };
  budgets: {
    promptWarnRatio: number;
    promptErrorRatio: number;
    descriptionMaxTokens: number;
    maxSubAgents: number;
  };
  dispatch: { toolPrefix: string; fanOutCap: number };
  flags: string[];
  dynamicContext: { fields: string[]; template: string };
  rules: Record<string, RuleSetting>;
}

export interface ConfigFile {
  kind: 'config';
  /** Absent when the workspace has no config file, or it did not load (see Program.configStatus). */
  file: SourceFile | undefined;
  data: ResolvedConfig;
  /** Where a key path is written in the config (TypeScript parser, loaded on first use), or undefined. */
  find: Finder;
  /** `find`, else the line that exports the config. */
  locate: Locator;
  /**
   * Names of config.models entries that are written but failed validation (already
   * reported as `schema`): they are left out of `data.models`, and references to
   * them are not reported again as unknown. 'all' when `models` itself is invalid.
   */
  invalidModels?: ReadonlySet<string> | 'all';
}
