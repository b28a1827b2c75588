/**
 * The rule catalog: every diagnostic agentc can report, with its stable code,
 * rule id, default severity, and every message and hint it can produce as a
 * template with named `{key}` placeholders (src/diagnostics/template.ts). A
 * diagnostic names a message id and passes the data its template needs; the
 * types make a wrong or missing key a compile error. Nothing reaches a user as a
 * ready-made string: `agentc rules` and SARIF list these templates.
 *
 * Invariant: codes and rule ids never change meaning once released; new rules
 * take the next free code in their group.
 */
import { fillTemplate, type DataField } from './template.js';

export type Severity = 'error' | 'warning';

export interface CatalogEntry {
  readonly code: string;
  readonly group: string;
  readonly severity: Severity;
  /** One-line statement of the invariant the rule enforces (printed by `agentc rules`). */
  readonly summary: string;
  /** Every message the rule can report: message id → template. */
  readonly messages: Readonly<Record<string, string>>;
  /** Every hint the rule can attach: hint id → template. */
  readonly hints?: Readonly<Record<string, string>>;
  /**
   * false: `rules:` in the config cannot lower or silence it (a finding that
   * changes what `build` would emit is an error whatever the settings).
   */
  readonly configurable?: false;
  /** true: reported only when `rules:` in the config sets a severity for it (opt-in rules). */
  readonly defaultOff?: true;
}

/** The one did-you-mean hint; `{suggestions}` comes from did-you-mean.ts (up to three, quoted). */
const DID_YOU_MEAN = 'Did you mean {suggestions}?';

/** YAML problems, shared by yaml-syntax (cards, tools) and frontmatter (blocks). */
export const YAML_MESSAGES = {
  syntax: 'YAML syntax error: {reason}.',
  duplicateKey: 'Duplicate key: {reason}.',
  nestedTooDeep: 'YAML syntax error: the document is nested too deeply.',
  flowTooDeep: 'YAML syntax error: "[" and "{" are nested more than {max} levels deep here.',
  blockTooDeep: 'YAML syntax error: collections are nested more than {max} levels deep here.',
  neverClosed: 'YAML syntax error: this "{open}" is never closed: end the {what} with "{close}" (or indent its continuation lines further).',
  quoteNeverClosed: 'YAML syntax error: the string that starts with this {quote} is never closed: end it with a matching {quote}.',
  aliasBomb: 'YAML aliases expand to too much data (more than {max} alias expansions): this looks like an alias bomb.',
  notConvertible: 'YAML could not be converted to data: {reason}.',
  unreadable: 'Cannot read {file}: {code}.',
  binary: '{file} contains a NUL byte: it looks like a binary file, not text (first bad byte at offset {offset}).',
  notUtf8: '{file} is not valid UTF-8 text (first bad byte at offset {offset}).',
  notRegularFile: '{file} is not a regular file ({kind}): agentc reads workspace files only from regular files.',
} as const;

const NOT_TEXT_HINT = 'Save the file as UTF-8 text, or remove it from the workspace.';
const NOT_A_FILE_HINT = 'Replace it with a file, or remove it.';

export const CATALOG = {
  // Parsing and shape (AGC1xxx)
  'yaml-syntax': {
    code: 'AGC1001',
    group: 'parsing',
    severity: 'error',
    summary: 'Every YAML file parses (no duplicate keys, no alias bombs, text not binary).',
    messages: { ...YAML_MESSAGES, jsonSyntax: 'JSON syntax error: {reason}.' },
    hints: { notText: NOT_TEXT_HINT, notAFile: NOT_A_FILE_HINT },
  },
  frontmatter: {
    code: 'AGC1002',
    group: 'parsing',
    severity: 'error',
    summary: 'Every block starts with parsable YAML front matter between --- lines.',
    messages: {
      ...YAML_MESSAGES,
      empty: 'Block {file} is empty.',
      missing: 'Block {file} has no front matter: it must start with a line "---".',
      unclosed: 'The front matter of {file} is never closed: add a line "---" after it.',
      notMapping: 'The front matter of {file} must be a mapping with at least category and owner.',
      unreadableFolder: 'Cannot read the folder {folder}/ ({code}): the blocks in it are not checked.',
    },
    hints: {
      notText: NOT_TEXT_HINT,
      notAFile: NOT_A_FILE_HINT,
      makeReadable: 'Make the folder readable, or remove it.',
      start: 'Start the file with:\n---\ncategory: instructions\nowner: <your team>\n---',
    },
  },
  schema: {
    code: 'AGC1003',
    group: 'parsing',
    severity: 'error',
    summary: 'Cards, blocks, tools, eval suites and the config match their JSON Schemas.',
    messages: {
      cardEmpty: 'Card file {file} is empty.',
      suiteEmpty: 'Eval suite {file} is empty.',
      suiteNotMapping: 'Eval suite {file} must hold a mapping with agent and cases, not {what}.',
      cardNotMapping: 'Card file {file} must hold a mapping of fields, not {what}.',
      toolEmpty: 'Tool contract {file} is empty.',
      toolNotMapping: 'Tool contract {file} must hold a mapping with name, description and parameters, not {what}.',
      unknownField: 'Unknown field "{field}" in {subject}.',
      missingField: '{target} is missing required field "{field}".',
      wrongType: '{target} must be {expected}, not {actual}.',
      notInEnum: '{target} must be one of {allowed}.',
      notConst: '{target} must be {value}.',
      patternNamed: '{target} must be {meaning}.',
      pattern: '{target} must match {pattern}.',
      keyPatternNamed: '{target} has an invalid key {key}: keys must be {meaning}.',
      keyPattern: '{target} has an invalid key {key}: keys must match {pattern}.',
      duplicateEntry: '{target} lists the same entry twice (items {first} and {second}).',
      outOfRange: '{target} must be {comparison} {limit}.',
      empty: '{target} must not be empty.',
      tooLong: '{target} must be at most {limit} characters long.',
      tooFewItems: '{target} must have at least {limit} entries.',
      tooManyItems: '{target} must have at most {limit} entries.',
      tooFewFields: '{target} must have at least {limit} fields.',
      invalid: '{target} does not satisfy the schema keyword "{keyword}".',
      protoKey: 'Field "{field}" of {subject} uses the reserved name "__proto__".',
      notFinite: 'Field "{field}" of {subject} must be a finite number, not {value}.',
      unknownRule: 'The config sets rule "{rule}", which is not an agentc rule (run `agentc rules` for the list).',
      notConfigurable:
        'The config sets rule "{rule}", which cannot be configured: it reports what would make the emitted bundle wrong (a prompt missing a block, an invalid schema), so it is always an error.',
    },
    hints: {
      didYouMean: DID_YOU_MEAN,
      knownFields: 'Known fields: {fields}.',
      startCard: 'Start from the example in README.md, or run `agentc init` to see a complete card.',
      renameProto: 'Rename it: "__proto__" cannot be a property name in generated code or tool schemas.',
      finiteNumber: 'Use a finite number; leave a budget out to leave it unchecked.',
      removeRule: 'Remove "{rule}" from rules, and fix what it reports.',
    },
  },
  'id-mismatch': {
    code: 'AGC1004',
    group: 'parsing',
    severity: 'error',
    summary: "A card's id (a tool's name) equals its file's stem.",
    messages: { mismatch: '{kind} "{id}" is declared in {file}; its {field} must equal the file name "{stem}".' },
    hints: { rename: 'Rename the file to {renameTo}, or set {field}: {stem}.' },
  },
  'duplicate-id': {
    code: 'AGC1005',
    group: 'parsing',
    severity: 'error',
    summary: 'No two cards, two blocks or two tools share an id.',
    messages: { duplicate: '{kind} id "{id}" is declared more than once.' },
    hints: { rename: 'Ids must be unique across {dir}: rename this one, or delete one of the two files.' },
  },
  'file-too-large': {
    code: 'AGC1007',
    group: 'parsing',
    severity: 'error',
    summary: 'Workspace files are at most 1 MiB (no prompt source is legitimately larger).',
    messages: { tooLarge: '{file} is {size}, over the {max} limit for workspace files.' },
  },
  'json-schema': {
    code: 'AGC1008',
    group: 'parsing',
    severity: 'error',
    configurable: false,
    summary:
      'Tool parameters and card input/output are valid JSON Schema 2020-12, and required entries name declared properties (not configurable: build never writes an invalid schema).',
    messages: {
      notAType: 'Invalid JSON Schema in {subject} at {where}: "{value}" is not a JSON Schema type (types: {types}).',
      notASchema: 'Invalid JSON Schema in {subject} at {where}: "{keyword}" must be a schema (a mapping, or true/false), not {actual}.',
      wrongType: 'Invalid JSON Schema in {subject} at {where}: "{keyword}" must be {expected}, not {actual}.',
      negative: 'Invalid JSON Schema in {subject} at {where}: "{keyword}" must be a non-negative integer, not {actual}.',
      emptyList: 'Invalid JSON Schema in {subject} at {where}: "{keyword}" must not be an empty list.',
      duplicateValue: 'Invalid JSON Schema in {subject} at {where}: "{keyword}" lists the same value twice.',
      invalid: 'Invalid JSON Schema in {subject} at {where}: "{keyword}" {reason}.',
      badPattern: 'Invalid JSON Schema in {subject} at {where}: the pattern is not a valid regular expression ({reason}).',
      refNotLocal:
        'Invalid JSON Schema in {subject} at {where}: "{ref}" is not a local reference; agentc, providers and the runtime resolve only references inside the contract ("#/$defs/…").',
      refDangling: 'Invalid JSON Schema in {subject} at {where}: "{ref}" points to nothing in the contract.',
      refNoAnchor: 'Invalid JSON Schema in {subject} at {where}: "{ref}" names no $anchor in the contract.',
      undeclaredRequired: '{kind} "{id}" requires "{name}" at {where}, but declares no property "{name}" there.',
      undeclaredInput: 'Card "{card}" lists "{name}" in input_required, but input declares no field "{name}".',
    },
    hints: {
      didYouMean: DID_YOU_MEAN,
      useType: 'Use one of {types}, or a list of them.',
      schemaMapping: 'Write {keyword} as a schema mapping, e.g. {keyword}: { type: string }.',
      nonNegative: 'Use 0 or a positive whole number for {keyword}.',
      regex: 'JSON Schema patterns are ECMA-262 regular expressions (Unicode mode); escape literal characters such as ( [ { with \\.',
      useDefs: 'Define the shared schema under $defs and refer to it as "#/$defs/<name>".',
      declaredProperties: 'Declared properties: {names}.',
      declareProperty: 'Declare it under properties, or remove it from required.',
      declaredInputs: 'Declared input fields: {names}.',
      declareInput: 'Declare it under input, or remove it from input_required.',
    },
  },
  'provider-schema': {
    code: 'AGC1009',
    group: 'parsing',
    severity: 'warning',
    summary: 'Tool-shaped contracts are expressed exactly by every provider shape (OpenAI strict mode approximates open objects, some keywords and formats).',
    messages: {
      openObject:
        'Open object at {where} in {subject}: OpenAI strict mode requires additionalProperties: false; the emitted OpenAI tool closes it, so the model cannot send extra fields.',
      unknownKeyword:
        'Keyword "{keyword}" at {where} in {subject} is not a JSON Schema keyword; the emitted OpenAI tool drops it, and no provider or validator enforces it.',
      droppedKeyword:
        'Keyword "{keyword}" at {where} in {subject} is dropped in OpenAI strict mode; the model is not held to it (the runtime still rejects calls that break it).',
      droppedFormat: 'Format "{format}" at {where} in {subject} is dropped in OpenAI strict mode, which supports only {formats}.',
      oneOf: 'oneOf at {where} in {subject} is emitted as anyOf in OpenAI strict mode: the model is not held to exactly one branch (the runtime still is).',
      tuple: 'Tuple items at {where} in {subject} are emitted as items: { anyOf: [...] } in OpenAI strict mode: positions are not enforced on the model.',
      trueSchema: 'Boolean schema true at {where} in {subject} has no OpenAI strict mode form; the emitted OpenAI tool accepts any value there.',
      falseSchema: 'Boolean schema false at {where} in {subject} has no OpenAI strict mode form; the emitted OpenAI tool accepts any value there.',
      rootMergedOpenAI:
        '{keyword} at the root of {where} in {subject}: OpenAI strict mode requires a plain object at the root; the emitted OpenAI tool merges it into the root.',
      rootDroppedOpenAI:
        '{keyword} at the root of {where} in {subject}: OpenAI strict mode requires a plain object at the root; the emitted OpenAI tool drops it (the runtime still rejects calls that break it).',
      rootMergedAnthropic:
        "{keyword} at the root of {where} in {subject}: Anthropic's input_schema does not accept oneOf, allOf or anyOf at the top level; the emitted Anthropic tool merges it into the root.",
      rootDroppedAnthropic:
        "{keyword} at the root of {where} in {subject}: Anthropic's input_schema does not accept oneOf, allOf or anyOf at the top level; the emitted Anthropic tool drops it (the runtime still rejects calls that break it).",
      tooDeep:
        'Schema at {where} in {subject} nests deeper than the OpenAI strict transformation follows; it is emitted as written and strict mode may reject it.',
    },
    hints: {
      didYouMean: DID_YOU_MEAN,
      closeObject: 'Declare every field under properties and set additionalProperties: false.',
      removeKeyword: 'Remove it, or put the constraint in the description.',
      lengthAsPattern: 'Write the length limit as a pattern, e.g. pattern: "^[\\s\\S]{0,500}$" (strict mode keeps pattern), and state it in the description.',
      supportedKeyword: 'Express the constraint with a supported keyword (enum, pattern, minimum/maximum, minItems/maxItems) or state it in the description.',
      supportedFormat: 'Use a supported format or a pattern.',
      useAnyOf: 'Use anyOf when the branches cannot overlap.',
      namedFields: 'Use an object with named fields instead of a tuple.',
      giveType: 'Give the value a type.',
      removeProperty: 'Remove the property instead of forbidding it with false.',
      flattenRoot: 'Declare every field under properties and state the combinations in the description (or split the tool in two).',
    },
  },
  'config-load': {
    code: 'AGC1006',
    group: 'parsing',
    severity: 'error',
    summary: 'agentc.config.ts loads and evaluates to a config object.',
    messages: {
      binary: '{file} contains a NUL byte: it looks like a binary file, not text.',
      notUtf8: '{file} is not valid UTF-8 text.',
      unreadable: 'Cannot read {file}: {reason}.',
      loadFailed: '{file} could not be loaded: {reason}.',
      noDefaultExport: '{file} has no default export: agentc reads the config from `export default`.',
      notObject: '{file} must export a config object as its default export (export default defineConfig({ … })).',
      notFound:
        'No config found: the workspace has no agentc.config.ts (or .mts, .js, .mjs), so config.models, the platform blocks and the budgets are unknown.',
      unsupportedName: 'No config found: {file} is not a name agentc reads; the config must be agentc.config.ts (or .mts, .js, .mjs).',
      notRegularFile: '{file} is not a regular file ({kind}): agentc reads the config only from a file.',
      tooLarge: '{file} is {size} KiB, more than the {max} KiB a config may have.',
      timedOut: '{file} did not finish loading within {ms} ms (a top-level await that never settles, an endless loop, or a getter that never returns).',
      keepsRunning: '{file} keeps running after it was loaded (a timer, an interval or an open handle) for more than {ms} ms.',
      neverSettled: '{file} did not finish loading: its top-level await never settled (nothing was left that could settle it).',
      stopped: '{file} did not finish loading: it stopped with exit code {code}.',
      exitWhileLoading: '{file} called {call} while loading: a config must not end the process.',
      exitAfterLoad: '{file} called {call} after it was loaded: a config must not end the process.',
      thrownLater: '{file} could not be loaded: {reason} (thrown later, from a timer or callback).',
      unhandledRejection: '{file} could not be loaded: {reason} (a promise rejected and nothing handled it).',
      lateStdout: "{file} wrote to stdout after it was loaded (from a timer or callback): that output would corrupt agentc's report.",
      valueTooDeep: '{file} could not be loaded: its value is too deeply nested ({reason}).',
    },
    hints: {
      defaultExport: 'Write: export default defineConfig({ … });',
      install: 'Install "{module}" in the workspace, or remove the import.',
      rename: 'Rename {file} to agentc.config.ts (ESM: export default defineConfig({ … })).',
      create: 'Run `agentc init` in an empty directory to see a complete agentc.config.ts, and add one here.',
      finishQuickly: 'Make the config compute its value quickly; AGENTC_CONFIG_TIMEOUT_MS raises the limit.',
      closeHandles: 'A config should only compute and export a value; close what it opens.',
      noExit: 'Remove the call; throw an Error to report a problem.',
      useStderr: 'Log to stderr (console.error), or only while the config loads.',
    },
  },
  'file-name': {
    code: 'AGC1010',
    group: 'parsing',
    severity: 'error',
    summary: 'Every file agentc reads or writes has a portable name: at most 200 bytes, never a name Windows reserves (con, nul, com1…).',
    messages: {
      reserved: '{kind} id "{id}" is a name Windows reserves for a device: {files} cannot be checked out on Windows.',
      tooLong: 'Agent "{agent}" needs the prompt file {path}, whose name is {bytes} bytes long; file names are limited to {max} bytes.',
    },
    hints: {
      renameCard: 'Rename the card (and its file).',
      renameBlock: 'Rename the block (and its file).',
      renameTool: 'Rename the tool (and its file).',
      shorten: "The name joins the agent id and the feature flags its blocks use ({flags}): shorten them, or use fewer flags in this agent's blocks.",
    },
  },

  // References (AGC2xxx)
  'unknown-tool': {
    code: 'AGC2001',
    group: 'references',
    severity: 'error',
    summary: 'Every tools / tool_whitelist entry names a tool contract.',
    messages: { unknown: 'Card "{card}" uses tool "{name}", which is not declared in schemas/tools/.' },
    hints: {
      didYouMean: DID_YOU_MEAN,
      addContract: 'Add a contract schemas/tools/{name}.yaml, or remove the entry.',
      notAName: 'This cannot be a tool name (1-64 letters, digits, _ or -): remove the entry.',
    },
  },
  'unknown-model': {
    code: 'AGC2002',
    group: 'references',
    severity: 'error',
    summary: 'model, fallback_model and history.summary_model name an entry of config.models.',
    messages: { unknown: 'Card "{card}" uses {field} "{name}", which is not in config.models.' },
    hints: {
      didYouMean: DID_YOU_MEAN,
      known: 'Models in config.models: {models}.',
      noModels: 'config.models is empty: declare the model in agentc.config.ts.',
    },
  },
  'unknown-block': {
    code: 'AGC2003',
    group: 'references',
    severity: 'error',
    summary: 'Every prompt_blocks and requiredBlocks entry names a block.',
    messages: {
      card: 'Card "{card}" uses prompt block "{name}", which does not exist under blocks/.',
      platform: 'The platform config (platform.requiredBlocks) uses prompt block "{name}", which does not exist under blocks/.',
    },
    hints: {
      didYouMean: DID_YOU_MEAN,
      add: 'Add blocks/{name}.md, or remove the entry.',
      notAnId: 'This cannot be a block id (lowercase letters, digits, _, . or -): remove the entry.',
    },
  },
  'unknown-sub-agent': {
    code: 'AGC2004',
    group: 'references',
    severity: 'error',
    summary: 'Every sub_agents entry names a card.',
    messages: { unknown: 'Card "{card}" lists sub-agent "{name}", which has no card in cards/.' },
    hints: {
      didYouMean: DID_YOU_MEAN,
      add: 'Add cards/{name}.yaml, or remove the entry.',
      notAnId: 'This cannot be a card id (a lowercase identifier): remove the entry.',
    },
  },
  'unknown-flag': {
    code: 'AGC2005',
    group: 'references',
    severity: 'error',
    summary: "A block's feature_flag is declared in config.flags.",
    messages: { unknown: 'Block "{block}" is gated by feature flag "{name}", which is not in config.flags.' },
    hints: { didYouMean: DID_YOU_MEAN, declare: 'Add "{name}" to flags in agentc.config.ts, or remove feature_flag.' },
  },
  'unknown-status-event': {
    code: 'AGC2006',
    group: 'references',
    severity: 'error',
    summary: 'Every status_rendering key is an event some sub-agent (or its tools) can emit.',
    messages: { unknown: 'Card "{card}" renders status event "{name}", which none of its sub-agents or their tools emit.' },
    hints: {
      didYouMean: DID_YOU_MEAN,
      known: "Its sub-agents emit: {events}. Remove the entry, or declare the event in a sub-agent's status_events.",
      none: "None of its sub-agents declare status events: remove the entry, or declare it in a sub-agent's status_events.",
    },
  },

  // Platform contract (AGC3xxx)
  'platform-block-declared': {
    code: 'AGC3001',
    group: 'platform',
    severity: 'error',
    summary: 'Cards do not list required platform blocks (they are injected).',
    messages: { declared: 'Card "{card}" lists required platform block "{name}", which is injected automatically; listing it would include it twice.' },
    hints: { remove: 'Remove "{name}" from prompt_blocks: config.platform.requiredBlocks injects it into every prompt.' },
  },
  'block-ownership': {
    code: 'AGC3002',
    group: 'platform',
    severity: 'error',
    summary: "A card uses only its own team's, platform-owned or reusable blocks.",
    messages: { foreign: 'Card "{card}" (owner "{cardOwner}") uses block "{name}", owned by "{blockOwner}" and not reusable.' },
    hints: { own: 'Write a block owned by "{cardOwner}", or ask team "{blockOwner}" to mark "{name}" reusable: true.' },
  },
  'platform-block-owner': {
    code: 'AGC3003',
    group: 'platform',
    severity: 'error',
    summary: 'Every required block is owned by the platform.',
    messages: { notPlatform: 'Required block "{name}" is owned by "{owner}", not by the platform ("{platform}").' },
    hints: { fix: 'Set owner: {platform} in its front matter, or remove "{name}" from platform.requiredBlocks.' },
  },

  // Orchestration (AGC4xxx)
  'sub-agent-cycle': {
    code: 'AGC4001',
    group: 'orchestration',
    severity: 'error',
    summary: 'The sub-agent graph is acyclic.',
    messages: { cycle: 'Sub-agents form a cycle: {path}.' },
    hints: {
      self: 'Remove "{card}" from its own sub_agents: an agent cannot call itself.',
      cycle: 'Remove one of these sub_agents entries: an agent cannot (indirectly) call its own caller.',
    },
  },
  'recursion-depth': {
    code: 'AGC4002',
    group: 'orchestration',
    severity: 'error',
    summary: 'The sub-agent tree below a card is no deeper than its max_recursion_depth.',
    messages: { tooDeep: 'Card "{card}" has sub-agents {depth} level(s) deep ({path}), but policy.max_recursion_depth is {max}.' },
    hints: { flatten: 'Raise policy.max_recursion_depth to {depth}, or flatten the tree so that fewer levels sit below "{card}".' },
  },
  'role-shape': {
    code: 'AGC4003',
    group: 'orchestration',
    severity: 'warning',
    summary: 'Orchestrators have sub-agents and only orchestrators do.',
    messages: {
      emptyOrchestrator: 'Card "{card}" has role orchestrator but no sub_agents, so it has nothing to route to.',
      notOrchestrator: 'Card "{card}" has sub_agents but role {role}; only orchestrators dispatch to sub-agents.',
    },
    hints: {
      addSubAgents: 'Add the cards it routes to under sub_agents, or change role to native.',
      setRole: 'Set role: orchestrator, or remove sub_agents.',
    },
  },
  'tool-name': {
    code: 'AGC4004',
    group: 'orchestration',
    severity: 'error',
    summary: 'Tool names match ^[a-zA-Z0-9_-]{1,64}$ and are unique within an agent.',
    messages: {
      tooLong:
        'Card "{card}" exposes sub-agent "{agent}" as tool "{name}", which is {length} characters long; providers require tool names to match ^[a-zA-Z0-9_-]{1,64}$.',
      badChars:
        'Card "{card}" exposes sub-agent "{agent}" as tool "{name}", which contains characters other than letters, digits, _ and -; providers require tool names to match ^[a-zA-Z0-9_-]{1,64}$.',
      collision: 'Card "{card}" has two tools named "{name}": its own tool "{tool}" and the tool for sub-agent "{agent}" ({prefix} + id).',
    },
    hints: {
      shorten: 'Shorten the sub-agent\'s id or config.dispatch.toolPrefix ("{prefix}").',
      rename: 'Rename the tool contract "{tool}" so that it does not look like a sub-agent tool, or rename the sub-agent.',
    },
  },
  'tool-not-whitelisted': {
    code: 'AGC4005',
    group: 'orchestration',
    severity: 'error',
    summary: "A card's tools are all in its own policy.tool_whitelist.",
    messages: { missing: 'Card "{card}" uses tool "{name}", which is missing from its policy.tool_whitelist.' },
    hints: { add: 'Add "{name}" to policy.tool_whitelist, or remove it from tools: the runtime denies calls to tools outside the whitelist.' },
  },
  'too-many-tools': {
    code: 'AGC4006',
    group: 'orchestration',
    severity: 'error',
    summary: 'An agent exposes at most 128 tools.',
    messages: { tooMany: 'Agent "{card}" exposes {count} tools; providers accept at most {max}.' },
    hints: {
      split: 'Split the agent into narrower agents, each with the tools its requests need.',
      group: 'It has {own} own tool(s) and {subs} sub-agent tool(s): split the agent, or group sub-agents under an intermediate orchestrator.',
    },
  },
  'too-many-sub-agents': {
    code: 'AGC4007',
    group: 'orchestration',
    severity: 'warning',
    summary: 'An orchestrator has at most budgets.maxSubAgents sub-agents.',
    messages: { tooMany: 'Orchestrator "{card}" has {count} sub-agents, more than budgets.maxSubAgents ({max}); routing accuracy drops as the choice widens.' },
    hints: { group: 'Group related sub-agents under an intermediate orchestrator (hierarchical routing), or raise budgets.maxSubAgents.' },
  },
  'fan-out-cap': {
    code: 'AGC4008',
    group: 'orchestration',
    severity: 'error',
    summary: 'fan_out_cap is at least 1 and at most the number of sub-agents.',
    messages: {
      belowOne: 'Card "{card}" has dispatch.fan_out_cap {cap}; it must be at least 1, or no sub-agent call could ever run.',
      unreachableOwn: 'Card "{card}" has a dispatch.fan_out_cap of {cap} but only {subs}, so the cap can never be reached.',
      unreachableDefault: 'Card "{card}" has a fan-out cap (config.dispatch.fanOutCap) of {cap} but only {subs}, so the cap can never be reached.',
    },
    hints: {
      range: 'Set dispatch.fan_out_cap to a value from 1 to {max}.',
      atLeastOne: 'Set dispatch.fan_out_cap to 1 or more.',
      lower: 'Set dispatch.fan_out_cap: {max}.',
    },
  },
  'model-capability': {
    code: 'AGC4009',
    group: 'orchestration',
    severity: 'error',
    summary: "An agent's model supports the tools and parallel calls the agent needs.",
    messages: {
      noTools: 'Card "{card}" has {tools}, but its {field} "{model}" cannot call tools (tools: false in config.models).',
      noParallel:
        'Card "{card}" may run up to {cap} sub-agent calls per turn, but its {field} "{model}" cannot emit parallel tool calls (parallelToolCalls: false in config.models).',
    },
    hints: {
      toolModel: 'Choose a model with tools: true.',
      parallel: 'Set dispatch.fan_out_cap: 1, or choose a model with parallelToolCalls: true.',
    },
  },
  'status-event-unrendered': {
    code: 'AGC4010',
    group: 'orchestration',
    severity: 'warning',
    summary: 'Every status event a sub-agent can emit has a status_rendering entry.',
    messages: { unrendered: 'Sub-agent "{agent}" can emit status event "{name}", but orchestrator "{card}" has no status_rendering entry for it.' },
    hints: { render: 'Add `{name}: "<what the user sees>"` (or `{name}: suppress`) under dispatch.status_rendering of "{card}".' },
  },
  'unreachable-agent': {
    code: 'AGC4011',
    group: 'orchestration',
    severity: 'warning',
    summary: 'Every non-orchestrator card is reachable from some orchestrator.',
    messages: { unreachable: 'Card "{card}" is not a sub-agent of any orchestrator, so no user request can reach it.' },
    hints: { list: 'List "{card}" in an orchestrator\'s sub_agents, or delete {file} if it is no longer needed.' },
  },
  'relay-structured-answer': {
    code: 'AGC4012',
    group: 'orchestration',
    severity: 'warning',
    summary: 'An orchestrator in relay mode has no sub-agent with an output schema.',
    messages: {
      jsonToUser:
        'Orchestrator "{card}" relays its sub-agents\' answers to the user (dispatch.stream: relay), but "{agent}" answers with JSON (it has an output schema).',
    },
    hints: { compose: 'Use dispatch.stream: compose in "{card}" (its model then words the result), or drop the output schema of "{agent}".' },
  },

  // Budgets (AGC5xxx)
  'prompt-budget': {
    code: 'AGC5001',
    group: 'budgets',
    severity: 'error',
    summary: "An assembled prefix stays under the config's share of the model's context window.",
    messages: {
      overBudget: 'Prompt of "{card}" is {tokens} tokens, {percent}% of {model}\'s {window}-token context window (limit {limitPercent}%).',
      cohortOverBudget:
        'Prompt of "{card}" (cohort {cohort}) is {tokens} tokens, {percent}% of {model}\'s {window}-token context window (limit {limitPercent}%).',
    },
    hints: {
      shortenLargest: 'Shorten or split its blocks (the largest, "{block}", is {tokens} tokens), or use a model with a larger context window.',
      shorten: 'Shorten or split its blocks, or use a model with a larger context window.',
    },
  },
  'token-budget': {
    code: 'AGC5002',
    group: 'budgets',
    severity: 'error',
    summary: 'Prefix + largest handoff fits policy.token_budget.input; max_output_tokens fits .output.',
    messages: {
      input: 'Card "{card}" needs {total} input tokens (prompt {prompt}), over its policy.token_budget.input of {budget}.',
      inputHandoff: 'Card "{card}" needs {total} input tokens (prompt {prompt} + largest handoff {handoff}), over its policy.token_budget.input of {budget}.',
      cohortInput: 'Card "{card}" (cohort {cohort}) needs {total} input tokens (prompt {prompt}), over its policy.token_budget.input of {budget}.',
      cohortInputHandoff:
        'Card "{card}" (cohort {cohort}) needs {total} input tokens (prompt {prompt} + largest handoff {handoff}), over its policy.token_budget.input of {budget}.',
      output: 'Card "{card}" allows {max} output tokens (tuning.max_output_tokens), over its policy.token_budget.output of {budget}.',
    },
    hints: {
      raiseInput: 'Raise policy.token_budget.input to at least {total}, or shorten its prompt blocks.',
      lowerOutput: 'Lower tuning.max_output_tokens to {budget}, or raise policy.token_budget.output to {max}.',
    },
  },
  'block-budget': {
    code: 'AGC5003',
    group: 'budgets',
    severity: 'error',
    summary: 'A rendered block stays within its max_tokens.',
    messages: { overBudget: 'Block "{block}" renders to {tokens} tokens for "{card}", over its max_tokens of {max}.' },
    hints: { shorten: 'Shorten the block by {over} tokens, or raise max_tokens to {tokens}.' },
  },
  'description-budget': {
    code: 'AGC5004',
    group: 'budgets',
    severity: 'warning',
    summary: "A sub-agent's routing description is between 8 tokens and budgets.descriptionMaxTokens.",
    messages: {
      tooLong:
        'Card "{card}"\'s description is {tokens} tokens, over budgets.descriptionMaxTokens ({max}); {parent} reads every sub-agent description on every turn.',
      tooLongShared:
        'Card "{card}"\'s description is {tokens} tokens, over budgets.descriptionMaxTokens ({max}); {parents} read every sub-agent description on every turn.',
      tooShort: 'Card "{card}"\'s description is only {size}; {parent} routes on it, and under {min} tokens is too vague to route on.',
      tooShortShared: 'Card "{card}"\'s description is only {size}; {parents} route on it, and under {min} tokens is too vague to route on.',
    },
    hints: {
      trim: 'Keep what the sub-agent owns and what it does not; move instructions into its own prompt blocks.',
      expand: 'Say what it owns: the requests it answers, the data it holds, and what it does not do.',
    },
  },
  'history-budget': {
    code: 'AGC5005',
    group: 'budgets',
    severity: 'error',
    summary: 'history.max_tokens leaves room in policy.token_budget.input for the prompt and the largest handoff.',
    messages: {
      overBudget:
        'Card "{card}" lets its history grow to {history} tokens (history.max_tokens), but its prompt ({prompt} tokens) leaves only {room} of its policy.token_budget.input of {input}.',
      overBudgetHandoff:
        'Card "{card}" lets its history grow to {history} tokens (history.max_tokens), but its prompt ({prompt} tokens + largest handoff {handoff}) leaves only {room} of its policy.token_budget.input of {input}.',
      cohortOverBudget:
        'Card "{card}" lets its history grow to {history} tokens (history.max_tokens), but its prompt (cohort {cohort}: {prompt} tokens) leaves only {room} of its policy.token_budget.input of {input}.',
      cohortOverBudgetHandoff:
        'Card "{card}" lets its history grow to {history} tokens (history.max_tokens), but its prompt (cohort {cohort}: {prompt} tokens + largest handoff {handoff}) leaves only {room} of its policy.token_budget.input of {input}.',
    },
    hints: {
      lower: 'Lower history.max_tokens to {room} or less, or raise policy.token_budget.input to at least {total}.',
      raise: 'Raise policy.token_budget.input to at least {total}.',
    },
  },

  // Templates and caching (AGC6xxx)
  'template-syntax': {
    code: 'AGC6001',
    group: 'templates',
    severity: 'error',
    summary: "A block's Handlebars body parses.",
    messages: {
      syntax: 'Block "{block}" has a template syntax error: {reason}.',
      unexpected: 'Block "{block}" has a template syntax error: unexpected {found}.',
      mismatch: 'Block "{block}" has a template syntax error: "{open}" is closed by "{close}"; close it with "{fix}".',
      neverClosed: 'Block "{block}" has a template syntax error: "{open}" on line {line} is never closed: add "{close}".',
      tooDeep: 'Block "{block}" has a template syntax error: blocks or subexpressions are nested more than {max} levels deep here; flatten the template.',
    },
  },
  'template-unknown-variable': {
    code: 'AGC6002',
    group: 'templates',
    severity: 'error',
    summary: 'A block reads only variables of the compile-time context.',
    messages: {
      eachDataOutside: 'Block "{block}" reads {ref} outside {{#each}}; @{name} is only defined inside an {{#each}} block.',
      unknownData: 'Block "{block}" reads {ref}, which is not a data variable agentc provides (@root, and @index, @key, @first, @last inside {{#each}}).',
      climbsTooFar: 'Block "{block}" reads {ref}, which climbs {depth} scope(s) up but only {frames} enclosing {{#each}}/{{#with}} block(s) surround it.',
      notInScope: 'Block "{block}" reads {ref} inside {opener}, but {what} has no "{name}"; Handlebars does not look up outer scopes.',
      notInContext: 'Block "{block}" reads {ref}, which is not in the compile-time context (blocks can read {fields}).',
      noField: 'Block "{block}" reads {ref}, but {owner} has no field "{name}" (it has {fields}).',
      listHasNoField: 'Block "{block}" reads {ref}, but "{parent}" is a list: it has no field "{name}".',
      scalarHasNoField: 'Block "{block}" reads {ref}, but "{parent}" is {kind}, which has no field "{name}".',
      unknownHelper: 'Block "{block}" calls helper "{name}", which agentc does not provide (helpers: {helpers}).',
      partial: 'Block "{block}" uses a partial or decorator; agentc does not support partials in blocks.',
      unsupported: 'Block "{block}" uses {what}, which is outside the template language (paths, #if, #unless, #each, #with, else, lookup, comments).',
      renderFailed: 'Block "{block}" failed to render for "{card}": {reason}.',
      printsObject: 'Block "{block}" renders {ref}, which is an object: it would print "[object Object]".',
      printsList: 'Block "{block}" renders {ref}, which is a list: it would print its items joined by commas.',
      eachScalar: 'Block "{block}" iterates {{#each {path}}}, which is {kind}: it would render nothing.',
    },
    hints: {
      didYouMean: DID_YOU_MEAN,
      useRoot: 'Use @root.{path} to read from the top of the context.',
      outerScope: 'Inside {opener}, use {fix}',
      outerScopeOrRoot: 'Inside {opener}, use {fix} or @root.{path}',
      loop: 'Loop over it: {{#each {parent}}}{{{name}}}{{/each}}',
      noHelper: 'Compute the value in the card or config and read it as a variable, or branch with {{#if}}.',
      noPartials: 'Put the shared text in its own block and list it in prompt_blocks.',
      renderField: 'Render one of its fields, e.g. {{{path}.{field}}}, or iterate it with {{#each {path}}}.',
      iterateObject: 'Iterate it with {{#each {path}}}.',
      iterateList: 'Iterate it: {{#each {path}}}…{{/each}}',
      printValue: '{{#each}} iterates a list or a mapping; to print the value, use {{{path}}}.',
    },
  },
  'dynamic-in-prefix': {
    code: 'AGC6003',
    group: 'templates',
    severity: 'error',
    summary: 'Blocks never read per-request fields (they would fragment the prompt cache).',
    messages: {
      dynamic: 'Block "{block}" reads per-request field "{name}"; per-request values belong in the dynamic-context suffix, not in the cached prefix.',
    },
    hints: { remove: 'Remove {ref} from the block: config.dynamicContext.template renders "{name}" into the per-request suffix.' },
  },
  'volatile-in-prefix': {
    code: 'AGC6004',
    group: 'templates',
    severity: 'warning',
    summary: 'Block text holds no volatile literals (dates, timestamps, UUIDs).',
    messages: {
      volatile: 'Block "{block}" contains {kind} "{text}"; a volatile literal in the cached prefix goes stale and splits the cache when it changes.',
    },
    hints: {
      id: 'Remove the id, or pass it per request through config.dynamicContext (rendered into the suffix, not the cached prefix).',
      value: 'Remove the value, or pass it per request through config.dynamicContext (rendered into the suffix, not the cached prefix).',
    },
  },
  'cohort-explosion': {
    code: 'AGC6005',
    group: 'templates',
    severity: 'error',
    summary: "An agent's blocks use at most 6 feature flags (64 cohorts).",
    messages: { tooMany: 'Agent "{card}" uses {count} feature flags ({flags}), i.e. {cohorts} prompt cohorts; the limit is {max} flags.' },
    hints: { prune: 'Remove the flags of features that have fully rolled out, or split the agent.' },
  },
  'template-render': {
    code: 'AGC6006',
    group: 'templates',
    severity: 'error',
    configurable: false,
    summary: 'Every block renders for every agent and cohort that uses it (not configurable: a block that cannot render would be missing from the prompt).',
    messages: { cannotRender: 'Block "{block}" cannot render for "{card}": {reason}.' },
    hints: { fix: 'Fix the read or the construct: a block that cannot render is an error whatever the rules settings (it would be missing from the prompt).' },
  },
  'render-size': {
    code: 'AGC6007',
    group: 'templates',
    severity: 'error',
    configurable: false,
    summary: 'A block renders to at most 1 MiB (1,048,576 characters); rendering stops at the limit (not configurable).',
    messages: { tooLarge: 'Block "{block}" renders to more than 1 MiB ({limit} characters) for "{card}"; rendering stopped there.' },
    hints: { nestedEach: 'Nested {{#each}} multiplies the output: iterate one level, or keep large data out of the prompt (read it through a tool).' },
  },
  'suffix-template': {
    code: 'AGC6008',
    group: 'templates',
    severity: 'error',
    summary: "The config's dynamicContext.template parses, stays inside the template language and reads only dynamicContext.fields.",
    messages: {
      syntax: 'dynamicContext.template has a template syntax error: {reason}.',
      unexpected: 'dynamicContext.template has a template syntax error: unexpected {found}.',
      mismatch: 'dynamicContext.template has a template syntax error: "{open}" is closed by "{close}"; close it with "{fix}".',
      neverClosed: 'dynamicContext.template has a template syntax error: "{open}" on line {line} of the template is never closed: add "{close}".',
      tooDeep: 'dynamicContext.template has a template syntax error: blocks or subexpressions are nested more than {max} levels deep; flatten the template.',
      unknownField: 'dynamicContext.template reads "{ref}", which is not one of dynamicContext.fields ({fields}).',
      badRead:
        'dynamicContext.template reads "{ref}", which the per-request context cannot provide: it holds one string per dynamicContext.fields entry ({fields}).',
      unknownHelper: 'dynamicContext.template calls helper "{name}", which the template language does not have (helpers: {helpers}).',
      partial: 'dynamicContext.template uses a partial or decorator; the template language has none.',
      unsupported: 'dynamicContext.template uses {what}, which is outside the template language.',
    },
    hints: {
      didYouMean: DID_YOU_MEAN,
      declare: 'Add "{name}" to dynamicContext.fields, or remove the read.',
      noHelper: 'Compute the value in the service and pass it as a dynamicContext field, or branch with {{#if}}.',
    },
  },

  // Hygiene (AGC7xxx)
  'unused-block': {
    code: 'AGC7001',
    group: 'hygiene',
    severity: 'warning',
    summary: 'Every block is used by some card or required by the platform.',
    messages: { unused: 'Block "{name}" is not used by any card.' },
    hints: { use: 'List "{name}" in a card\'s prompt_blocks, or delete {file}.' },
  },
  'unused-tool': {
    code: 'AGC7002',
    group: 'hygiene',
    severity: 'warning',
    summary: 'Every tool contract is used by some card.',
    messages: { unused: 'Tool "{name}" is not used by any card.' },
    hints: { use: 'List "{name}" in a card\'s tools, or delete {file}.' },
  },
  'unused-model': {
    code: 'AGC7003',
    group: 'hygiene',
    severity: 'warning',
    summary: 'Every model in config.models is used by some card.',
    messages: { unused: 'Model "{name}" is not used by any card.' },
    hints: { use: 'Use "{name}" as a card\'s model, fallback_model or history.summary_model, or remove it from config.models.' },
  },

  // Eval suites: evals/*.yaml against the workspace (AGC8xxx)
  'eval-agent': {
    code: 'AGC8001',
    group: 'eval-suites',
    severity: 'error',
    summary: "An eval suite's agent is an orchestrator of the workspace (a card with sub-agents).",
    messages: {
      unknown: 'Eval suite {file} tests agent "{name}", which no card defines.',
      notOrchestrator: 'Eval suite {file} tests agent "{name}", which has no sub-agents: it routes nothing.',
    },
    hints: {
      didYouMean: DID_YOU_MEAN,
      orchestrators: 'Orchestrators in this workspace: {names}.',
      noOrchestrator: 'This workspace has no orchestrator: give a card sub_agents first.',
    },
  },
  'eval-expect': {
    code: 'AGC8002',
    group: 'eval-suites',
    severity: 'error',
    summary: "Every name a case's expectations use is a sub-agent or an own tool of the suite's orchestrator.",
    messages: {
      notSubAgent: 'Case {case} of {file} expects "{name}" to be asked, but it is not a sub-agent of "{agent}".',
      notTool: 'Case {case} of {file} expects tool "{name}" to be called, but it is not a tool of "{agent}".',
      handoffNotExpected: 'Case {case} of {file} checks the handoff to "{name}", which its expect.agents does not list.',
      fieldNotDeclared:
        'Case {case} of {file} checks the {field} that "{name}" receives, but "{name}" declares no {field} in its input: the check can never pass.',
    },
    hints: {
      didYouMean: DID_YOU_MEAN,
      subAgents: 'Sub-agents of "{agent}": {names}.',
      tools: 'Tools of "{agent}": {names}.',
      noTools: '"{agent}" has no tools of its own; sub-agents go in expect.agents.',
      addExpected: 'Add "{name}" to expect.agents, or remove its handoff check.',
      declared: 'The handoff fields of "{name}": {fields}. Remove the check, or declare {field} in the input of "{name}".',
    },
  },
  'eval-unknown-flag': {
    code: 'AGC8003',
    group: 'eval-suites',
    severity: 'error',
    summary: 'Every feature flag an eval suite switches on is declared in config.flags.',
    messages: { unknown: 'Eval suite {file} switches on feature flag "{name}", which is not in config.flags.' },
    hints: { didYouMean: DID_YOU_MEAN, declare: 'Add "{name}" to flags in agentc.config.ts, or remove it from the suite.' },
  },
  'eval-history': {
    code: 'AGC8004',
    group: 'eval-suites',
    severity: 'error',
    summary: "A case's history is whole earlier turns: user and assistant alternate, from a user turn to an assistant turn.",
    messages: {
      firstNotUser: 'Case {case} of {file}: its history starts with an assistant turn; a conversation starts with the user.',
      repeatedRole: 'Case {case} of {file}: history turn {index} is a second {role} turn in a row; user and assistant turns alternate.',
      endsWithUser: 'Case {case} of {file}: its history ends with a user turn, so the case message would be a second user turn in a row.',
    },
    hints: { pair: "Write each earlier turn as a user message followed by the assistant's answer." },
  },
  'eval-coverage': {
    code: 'AGC8005',
    group: 'eval-suites',
    severity: 'warning',
    defaultOff: true,
    summary: "Off by default: an orchestrator's suites have a single-intent case per sub-agent and a mixed-intent case per pair of sub-agents.",
    messages: {
      noSingle: 'The eval suites of "{agent}" have no single-intent case for sub-agent "{name}".',
      noPair: 'The eval suites of "{agent}" have no mixed-intent case for "{first}" and "{second}".',
    },
    hints: {
      addSingle: 'Add a case with expect: { agents: [{name}] } (agentc eval --scaffold {agent} writes placeholders for every case).',
      addPair: 'Add a case with expect: { agents: [{first}, {second}] } (agentc eval --scaffold {agent} writes placeholders for every pair).',
    },
  },
} as const satisfies Record<string, CatalogEntry>;

/**
 * Labels of related locations (a diagnostic's secondary places), shared by all
 * rules: where a thing is declared, where a limit is set, each edge of a cycle.
 */
export const RELATED = {
  declaredHere: 'declared here',
  nameDeclaredHere: '"{name}" declared here',
  firstDeclaredHere: 'first declared here',
  limitSetHere: 'limit set here',
  ownedHere: 'owned by "{owner}" here',
  deepestChain: 'the deepest chain starts here ({path})',
  injectedInto: 'injected into "{card}" (required block)',
  usedBy: 'used by "{card}"',
  gatedBy: '"{block}" is gated by {flag}',
  role: 'role {role}',
  flagsDeclared: 'config.flags is declared here',
  fanOutCap: 'fan_out_cap {cap}',
  requiredByPlatform: 'required by the platform here',
  dynamicFields: 'per-request fields declared here',
  outputBudget: 'output budget {budget}',
  inputBudget: 'input budget {budget}',
  whitelistDeclared: 'whitelist declared here',
  edge: '{from} → {to}',
  becomesTool: 'sub-agent "{agent}" becomes tool "{tool}"',
  answersWithSchema: '"{agent}" answers with this schema',
} as const;

export type RelatedId = keyof typeof RELATED;

/** One related-location label with exactly the data its template names. */
export type RelatedRef = { [K in RelatedId]: { message: K } & DataField<(typeof RELATED)[K]> }[RelatedId];

export function formatRelated(ref: { message: string; data?: Readonly<Record<string, unknown>> }): string {
  if (!Object.prototype.hasOwnProperty.call(RELATED, ref.message)) throw new Error(`agentc bug: no related label "${ref.message}"`);
  return fillTemplate(RELATED[ref.message as RelatedId], ref.data ?? {});
}

export type RuleId = keyof typeof CATALOG;

export const RULE_IDS = Object.keys(CATALOG) as RuleId[];

/** Whether `rules:` in the config may change the rule's severity. */
export function isConfigurable(id: RuleId): boolean {
  return (CATALOG[id] as CatalogEntry).configurable !== false;
}

/** Whether the rule reports only when `rules:` in the config sets it (opt-in). */
export function isDefaultOff(id: RuleId): boolean {
  return (CATALOG[id] as CatalogEntry).defaultOff === true;
}

export function isRuleId(id: string): id is RuleId {
  return Object.prototype.hasOwnProperty.call(CATALOG, id);
}

type Entry<R extends RuleId> = (typeof CATALOG)[R];
type HintsOf<R extends RuleId> = Entry<R> extends { hints: infer H } ? H : Record<never, string>;

/** The message ids of rule R. */
export type MessageId<R extends RuleId> = keyof Entry<R>['messages'] & string;
/** The hint ids of rule R. */
export type HintId<R extends RuleId> = keyof HintsOf<R> & string;

type MessageTemplate<R extends RuleId, M extends MessageId<R>> = Entry<R>['messages'][M] & string;
type HintTemplate<R extends RuleId, H extends HintId<R>> = HintsOf<R>[H] & string;

/** One message of rule R with exactly the data its template names. */
export type MessageRef<R extends RuleId> = {
  [M in MessageId<R>]: { message: M } & DataField<MessageTemplate<R, M>>;
}[MessageId<R>];

/** One hint of rule R with exactly the data its template names. */
export type HintRef<R extends RuleId> = {
  [H in HintId<R>]: { id: H } & DataField<HintTemplate<R, H>>;
}[HintId<R>];

/** The template of a message (undefined for an unknown id: a caller bug the tests catch). */
export function messageTemplate(rule: RuleId, message: string): string | undefined {
  const messages: Readonly<Record<string, string>> = CATALOG[rule].messages;
  return Object.prototype.hasOwnProperty.call(messages, message) ? messages[message] : undefined;
}

export function hintTemplate(rule: RuleId, hint: string): string | undefined {
  const hints: Readonly<Record<string, string>> | undefined = (CATALOG[rule] as CatalogEntry).hints;
  return hints && Object.prototype.hasOwnProperty.call(hints, hint) ? hints[hint] : undefined;
}

/** Every message and hint template of a rule, for `agentc rules` and SARIF. */
export function ruleTemplates(rule: RuleId): { messages: Record<string, string>; hints: Record<string, string> } {
  const e: CatalogEntry = CATALOG[rule];
  return { messages: { ...e.messages }, hints: { ...(e.hints ?? {}) } };
}

/** Fills a rule's message template; an unknown message id is an agentc bug. */
export function formatRuleMessage(rule: RuleId, message: string, data: Readonly<Record<string, unknown>> | undefined): string {
  const template = messageTemplate(rule, message);
  if (template === undefined) throw new Error(`agentc bug: rule "${rule}" has no message "${message}"`);
  return fillTemplate(template, data ?? {});
}

export function formatRuleHint(rule: RuleId, hint: string, data: Readonly<Record<string, unknown>> | undefined): string {
  const template = hintTemplate(rule, hint);
  if (template === undefined) throw new Error(`agentc bug: rule "${rule}" has no hint "${hint}"`);
  return fillTemplate(template, data ?? {});
}
