/**
 * The resolved program: the parsed files linked by id, plus each agent's
 * assembled prompt per cohort with exact token counts. The check phase reads only
 * this; the emit phase turns it into a bundle.
 */
import type { Range } from '../diagnostics/diagnostic.js';
import type { SourceFile } from '../load/source.js';
import type { Block, Card, ConfigFile, GuardSpec, JsonSchema, ModelEntry, Tool } from '../parse/types.js';
import type { Encoding } from '../tokenize/index.js';
import type { Unparsed } from '../parse/index.js';
import type { SuffixTemplate } from './suffix.js';
import type { RunMemo } from './run-memo.js';
import type { EvalSuiteFile } from '../parse/eval-suite.js';
import type { WorkspaceLayout } from '../load/layout.js';

/**
 * Whether the workspace's config is in effect: `absent` (no config file: one
 * `config-load` error), `failed` (a config file that did not load or is not an
 * object: its `config-load` error), `loaded`. Unless `loaded`, the config's
 * values are unknown, not the defaults: rules that read it stand down.
 */
export type ConfigStatus = 'absent' | 'loaded' | 'failed';

export interface Program {
  root: string;
  config: ConfigFile;
  configStatus: ConfigStatus;
  /** Where workspace files live (the one layout: src/load/layout.ts). */
  layout: WorkspaceLayout;
  /** By id; on duplicate ids the first file (in path order) wins. */
  cards: Map<string, Card>;
  blocks: Map<string, Block>;
  tools: Map<string, Tool>;
  /** Every duplicate beyond the first, for `duplicate-id`. */
  duplicates: { kind: 'card' | 'block' | 'tool'; id: string; first: SourceFile; file: SourceFile; range: Range }[];
  /** Every loaded file by workspace-relative path (for code frames). */
  files: Map<string, SourceFile>;
  /** One per card, by card id, in id order. */
  agents: Map<string, Agent>;
  /** Card id → ids of the cards that list it in sub_agents. */
  parents: Map<string, string[]>;
  /** Stems of files that did not parse (see ParsedWorkspace.unparsed). */
  unparsed: Unparsed;
  /** The config's `dynamicContext.template`, parsed (./suffix.ts). */
  suffix: SuffixTemplate;
  /** Derived data of this compile (sorted lists, the sub-agent graph, template verdicts…), made on first use. */
  memo: RunMemo;
  /** Eval suites that validated, in path order (their names are checked by src/check/rules/eval-*.ts). */
  evals: EvalSuiteFile[];
  /** This compile among those sharing a CompileCache, and what changed since the last one (absent without a cache). */
  revision?: ProgramRevision;
}

/**
 * A compile's place in a CompileCache's sequence (src/resolve/agent-memo.ts): state kept from the
 * compile named `changed.since` (that compile's `self`) is brought up to date by the ids in `changed`
 * alone; state from any other compile, or no `changed`, needs a full pass.
 */
export interface ProgramRevision {
  /** This compile, compared by identity. */
  self: object;
  /** Per table (by kind; agents by card id), the ids whose object differs from the compile `since`'s (an id in one of them only included). */
  changed?: { since: object; agent: ReadonlySet<string>; card: ReadonlySet<string>; block: ReadonlySet<string>; tool: ReadonlySet<string> };
}

export interface Agent {
  card: Card;
  /** `undefined` when card.model is missing or unknown. */
  model: ModelEntry | undefined;
  modelId: string | undefined;
  encoding: Encoding;
  /** Required platform blocks (config order) then declared blocks; unknown ids are skipped. */
  blocks: AgentBlockRef[];
  /** Known feature flags used by this agent's blocks, sorted. */
  flags: string[];
  /** One per subset of `flags` (default cohort first); empty when `cohortLimitExceeded`. */
  cohorts: Cohort[];
  /** `flags.length` > MAX_COHORT_FLAGS (src/resolve/index.ts): no cohort is assembled (`cohort-explosion`). */
  cohortLimitExceeded: boolean;
  /** Dispatch settings in effect (card, else config, else defaults): src/resolve/dispatch.ts. */
  dispatch: EffectiveDispatch;
  /** Own tools (resolved contracts), then one per resolved sub-agent. */
  tools: AgentTool[];
  subAgents: Card[];
  /** Upper bound of the handoff this agent can receive, in tokens (0 for roots). */
  handoffTokens: number;
  /** Tokens of the card's description in its parent-facing tool (with the agent's encoding). */
  descriptionTokens: number;
  /** Template reads that failed at render time (strict mode), per block. */
  renderErrors: RenderError[];
}

/** An agent's dispatch settings in effect; the bundle's `dispatch` carries the same values. */
export interface EffectiveDispatch {
  /** Most sub-agent calls executed per invocation. */
  fanOutCap: number;
  /** The card sets `dispatch.fan_out_cap` itself (else the config's `dispatch.fanOutCap` applies). */
  fanOutCapExplicit: boolean;
  intentCountFailsafe: boolean;
  stream: 'relay' | 'compose';
  /** The card's `dispatch.status_rendering` as written (`suppress` kept). */
  statusRendering: Record<string, string>;
  /** The card's query guards, when it declares any. */
  guards: GuardSpec | undefined;
  /** `config.dispatch.toolPrefix`: a sub-agent's tool name is this + its id. */
  toolPrefix: string;
}

export interface AgentBlockRef {
  block: Block;
  /** Injected from config.platform.requiredBlocks. */
  required: boolean;
  /** Where the card lists it (prompt_blocks[i]); absent for injected blocks. */
  declaredAt?: Range;
}

export interface Cohort {
  /** Flags on, sorted; [] is the default cohort. */
  flags: string[];
  /** '' or flags joined with '+'. */
  key: string;
  blocks: RenderedBlock[];
  /** The assembled prefix: each rendered block, trimmed, followed by a blank line. */
  text: string;
  tokens: number;
}

export interface RenderedBlock {
  block: Block;
  required: boolean;
  /** Rendered and trimmed text (without the separator). */
  text: string;
  tokens: number;
  /** Offset of `text` in the cohort's prefix. */
  start: number;
}

export interface RenderError {
  block: Block;
  message: string;
  range: Range | undefined;
  /** 'size': stopped at RENDER_LIMIT (render-size); 'failure': cannot render (template-unknown-variable, template-render). */
  kind: 'failure' | 'size';
}

export interface AgentTool {
  /** The name the model sees. */
  name: string;
  kind: 'tool' | 'sub_agent';
  description: string;
  /**
   * Final parameters as the model sees them: a tool's contract parameters, or a
   * sub-agent's handoff schema with `intent_count` already added under the
   * orchestrator's intent_count_failsafe (see resolve/index.ts handoffSchema).
   */
  parameters: JsonSchema;
  /** For kind 'tool'. */
  tool?: Tool;
  /** For kind 'sub_agent'. */
  agent?: Card;
  /** Where the card declares it (tools[i] or sub_agents[i]). */
  declaredAt: Range;
}
