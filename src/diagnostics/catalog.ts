/**
 * The rule catalog: every diagnostic agentc can report, with its stable code,
 * rule id, default severity and message template. Messages are built from
 * structured data: `{name}` placeholders are filled from a diagnostic's `data`.
 *
 * Invariant: codes and rule ids never change meaning once released; new rules
 * take the next free code in their group.
 */
export type Severity = 'error' | 'warning';

export interface CatalogEntry {
  readonly code: string;
  readonly group: string;
  readonly severity: Severity;
  /** One-line statement of the invariant the rule enforces (printed by `agentc rules`). */
  readonly summary: string;
  /** Message template; `{key}` is replaced by `data[key]`. */
  readonly message: string;
}

export const CATALOG = {
  // Parsing and shape (AGC1xxx)
  'yaml-syntax': { code: 'AGC1001', group: 'parsing', severity: 'error', summary: 'Every YAML file parses (no duplicate keys, no alias bombs, text not binary).', message: '{detail}' },
  frontmatter: { code: 'AGC1002', group: 'parsing', severity: 'error', summary: 'Every block starts with parsable YAML front matter between --- lines.', message: '{detail}' },
  schema: { code: 'AGC1003', group: 'parsing', severity: 'error', summary: 'Cards, blocks, tools and the config match their JSON Schemas.', message: '{detail}' },
  'id-mismatch': { code: 'AGC1004', group: 'parsing', severity: 'error', summary: "A card's id (a tool's name) equals its file's stem.", message: '{kind} "{id}" is declared in {file}; its {field} must equal the file name "{stem}".' },
  'duplicate-id': { code: 'AGC1005', group: 'parsing', severity: 'error', summary: 'No two cards, two blocks or two tools share an id.', message: '{kind} id "{id}" is declared more than once.' },
  'file-too-large': { code: 'AGC1007', group: 'parsing', severity: 'error', summary: 'Workspace files are at most 1 MiB (no prompt source is legitimately larger).', message: '{file} is {size}, over the {max} limit for workspace files.' },
  'config-load': { code: 'AGC1006', group: 'parsing', severity: 'error', summary: 'agentc.config.ts loads and evaluates to a config object.', message: '{detail}' },

  // References (AGC2xxx)
  'unknown-tool': { code: 'AGC2001', group: 'references', severity: 'error', summary: 'Every tools / tool_whitelist entry names a tool contract.', message: 'Card "{card}" uses tool "{name}", which is not declared in schemas/tools/.' },
  'unknown-model': { code: 'AGC2002', group: 'references', severity: 'error', summary: 'model, fallback_model and history.summary_model name an entry of config.models.', message: 'Card "{card}" uses {field} "{name}", which is not in config.models.' },
  'unknown-block': { code: 'AGC2003', group: 'references', severity: 'error', summary: 'Every prompt_blocks and requiredBlocks entry names a block.', message: '{owner} uses prompt block "{name}", which does not exist under blocks/.' },
  'unknown-sub-agent': { code: 'AGC2004', group: 'references', severity: 'error', summary: 'Every sub_agents entry names a card.', message: 'Card "{card}" lists sub-agent "{name}", which has no card in cards/.' },
  'unknown-flag': { code: 'AGC2005', group: 'references', severity: 'error', summary: "A block's feature_flag is declared in config.flags.", message: 'Block "{block}" is gated by feature flag "{name}", which is not in config.flags.' },
  'unknown-status-event': { code: 'AGC2006', group: 'references', severity: 'error', summary: 'Every status_rendering key is an event some sub-agent (or its tools) can emit.', message: 'Card "{card}" renders status event "{name}", which none of its sub-agents or their tools emit.' },

  // Platform contract (AGC3xxx)
  'platform-block-declared': { code: 'AGC3001', group: 'platform', severity: 'error', summary: 'Cards do not list required platform blocks (they are injected).', message: 'Card "{card}" lists required platform block "{name}", which is injected automatically; listing it would include it twice.' },
  'block-ownership': { code: 'AGC3002', group: 'platform', severity: 'error', summary: "A card uses only its own team's, platform-owned or reusable blocks.", message: 'Card "{card}" (owner "{cardOwner}") uses block "{name}", owned by "{blockOwner}" and not reusable.' },
  'platform-block-owner': { code: 'AGC3003', group: 'platform', severity: 'error', summary: 'Every required block is owned by the platform.', message: 'Required block "{name}" is owned by "{owner}", not by the platform ("{platform}").' },

  // Orchestration (AGC4xxx)
  'sub-agent-cycle': { code: 'AGC4001', group: 'orchestration', severity: 'error', summary: 'The sub-agent graph is acyclic.', message: 'Sub-agents form a cycle: {path}.' },
  'recursion-depth': { code: 'AGC4002', group: 'orchestration', severity: 'error', summary: "The sub-agent tree below a card is no deeper than its max_recursion_depth.", message: 'Card "{card}" has sub-agents {depth} level(s) deep ({path}), but policy.max_recursion_depth is {max}.' },
  'role-shape': { code: 'AGC4003', group: 'orchestration', severity: 'warning', summary: 'Orchestrators have sub-agents and only orchestrators do.', message: '{detail}' },
  'tool-name': { code: 'AGC4004', group: 'orchestration', severity: 'error', summary: "Tool names match ^[a-zA-Z0-9_-]{1,64}$ and are unique within an agent.", message: '{detail}' },
  'tool-not-whitelisted': { code: 'AGC4005', group: 'orchestration', severity: 'error', summary: "A card's tools are all in its own policy.tool_whitelist.", message: 'Card "{card}" uses tool "{name}", which is missing from its policy.tool_whitelist.' },
  'too-many-tools': { code: 'AGC4006', group: 'orchestration', severity: 'error', summary: 'An agent exposes at most 128 tools.', message: 'Agent "{card}" exposes {count} tools; providers accept at most {max}.' },
  'too-many-sub-agents': { code: 'AGC4007', group: 'orchestration', severity: 'warning', summary: 'An orchestrator has at most budgets.maxSubAgents sub-agents.', message: 'Orchestrator "{card}" has {count} sub-agents, more than budgets.maxSubAgents ({max}); routing accuracy drops as the choice widens.' },
  'fan-out-cap': { code: 'AGC4008', group: 'orchestration', severity: 'error', summary: 'fan_out_cap is at least 1 and at most the number of sub-agents.', message: '{detail}' },
  'model-capability': { code: 'AGC4009', group: 'orchestration', severity: 'error', summary: "An agent's model supports the tools and parallel calls the agent needs.", message: '{detail}' },
  'status-event-unrendered': { code: 'AGC4010', group: 'orchestration', severity: 'warning', summary: 'Every status event a sub-agent can emit has a status_rendering entry.', message: 'Sub-agent "{agent}" can emit status event "{name}", but orchestrator "{card}" has no status_rendering entry for it.' },
  'unreachable-agent': { code: 'AGC4011', group: 'orchestration', severity: 'warning', summary: 'Every non-orchestrator card is reachable from some orchestrator.', message: 'Card "{card}" is not a sub-agent of any orchestrator, so no user request can reach it.' },

  // Budgets (AGC5xxx)
  'prompt-budget': { code: 'AGC5001', group: 'budgets', severity: 'error', summary: "An assembled prefix stays under the config's share of the model's context window.", message: 'Prompt of "{card}"{cohort} is {tokens} tokens, {percent}% of {model}\'s {window}-token context window (limit {limitPercent}%).' },
  'token-budget': { code: 'AGC5002', group: 'budgets', severity: 'error', summary: "Prefix + largest handoff fits policy.token_budget.input; max_output_tokens fits .output.", message: '{detail}' },
  'block-budget': { code: 'AGC5003', group: 'budgets', severity: 'error', summary: 'A rendered block stays within its max_tokens.', message: 'Block "{block}" renders to {tokens} tokens for "{card}", over its max_tokens of {max}.' },
  'description-budget': { code: 'AGC5004', group: 'budgets', severity: 'warning', summary: "A sub-agent's routing description is between 8 tokens and budgets.descriptionMaxTokens.", message: '{detail}' },
  'history-budget': { code: 'AGC5005', group: 'budgets', severity: 'error', summary: 'history.max_tokens leaves room in policy.token_budget.input for the prompt and the largest handoff.', message: 'Card "{card}" lets its history grow to {history} tokens (history.max_tokens), but its prompt{cohort} ({prompt}{handoff}) leaves only {room} of its policy.token_budget.input of {input}.' },

  // Templates and caching (AGC6xxx)
  'template-syntax': { code: 'AGC6001', group: 'templates', severity: 'error', summary: "A block's Handlebars body parses.", message: 'Block "{block}" has a template syntax error: {detail}' },
  'template-unknown-variable': { code: 'AGC6002', group: 'templates', severity: 'error', summary: 'A block reads only variables of the compile-time context.', message: '{detail}' },
  'dynamic-in-prefix': { code: 'AGC6003', group: 'templates', severity: 'error', summary: 'Blocks never read per-request fields (they would fragment the prompt cache).', message: 'Block "{block}" reads per-request field "{name}"; per-request values belong in the dynamic-context suffix, not in the cached prefix.' },
  'volatile-in-prefix': { code: 'AGC6004', group: 'templates', severity: 'warning', summary: 'Block text holds no volatile literals (dates, timestamps, UUIDs).', message: 'Block "{block}" contains {kind} "{text}"; a volatile literal in the cached prefix goes stale and splits the cache when it changes.' },
  'cohort-explosion': { code: 'AGC6005', group: 'templates', severity: 'error', summary: "An agent's blocks use at most 6 feature flags (64 cohorts).", message: 'Agent "{card}" uses {count} feature flags ({flags}), i.e. {cohorts} prompt cohorts; the limit is {max} flags.' },

  // Hygiene (AGC7xxx)
  'unused-block': { code: 'AGC7001', group: 'hygiene', severity: 'warning', summary: 'Every block is used by some card or required by the platform.', message: 'Block "{name}" is not used by any card.' },
  'unused-tool': { code: 'AGC7002', group: 'hygiene', severity: 'warning', summary: 'Every tool contract is used by some card.', message: 'Tool "{name}" is not used by any card.' },
  'unused-model': { code: 'AGC7003', group: 'hygiene', severity: 'warning', summary: 'Every model in config.models is used by some card.', message: 'Model "{name}" is not used by any card.' },
} as const satisfies Record<string, CatalogEntry>;

export type RuleId = keyof typeof CATALOG;

export const RULE_IDS = Object.keys(CATALOG) as RuleId[];

export function isRuleId(id: string): id is RuleId {
  return Object.prototype.hasOwnProperty.call(CATALOG, id);
}

/** Fill `{key}` placeholders from data; unknown keys stay visible so a bad template is noticed. */
export function formatMessage(template: string, data: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    Object.prototype.hasOwnProperty.call(data, key) ? String(data[key]) : whole,
  );
}
