/**
 * Program → Bundle: the canonical, provider-ready description of every agent.
 * Pure and deterministic: agents in id order, every object's keys sorted (so the
 * in-memory bundle and one loaded from bundle.json by the runtime's loadBundle
 * are the same value, key order included), no timestamps. bundle.json stores it
 * as a StoredBundle (stored.ts); the hash is over that text.
 *
 * Tolerates an incomplete program (unknown model, unknown sub-agent, no cohorts):
 * `agentc prompt` and `agentc graph` show what there is even while `check` fails.
 * `agentc build` only writes a bundle made from an error-free program.
 */
import { createHash } from 'node:crypto';
import {
  BUNDLE_FORMAT_VERSION,
  type AnthropicTool,
  type Bundle,
  type BundleAgent,
  type BundleDispatch,
  type BundleModel,
  type BundlePrefix,
  type BundleToolContract,
  type DispatchEntry,
  type NeutralTool,
  type OpenAITool,
} from '../bundle/types.js';
import type { TemplateNode } from '../bundle/template/ast.js';
import type { ModelEntry, Tool } from '../parse/types.js';
import { BLOCK_SEPARATOR, handoffSchema } from '../resolve/index.js';
import type { Agent, AgentTool, Cohort, Program } from '../resolve/types.js';
import { hashBundleText, hashChunks } from './bundle-hash.js';
import { agentInputsKey, createEmitCache, useConfig, type EmitCache, type EmitDelta, type LastBundle, type ToolShapes } from './cache.js';
import { compareCodeUnits, sameJson, sha256Hex, sortKeysDeep } from '../bundle/canonical-json.js';
import { bundleJsonChunks, fragmentsOf, jsonKeyOrder, layoutOf, withHash } from './fragments.js';
import { storeBundle, storedJson, type BlockUse } from './stored.js';
import { toAnthropicInputSchema, toOpenAIStrictParameters } from '../contracts/openai-strict.js';

/**
 * With a cache (watch mode), an agent whose inputs are unchanged keeps its entry
 * object, and the hash is streamed over its cached serialization: the work is
 * proportional to what changed plus one pass of hashing. Without one, the same
 * bytes from scratch. A cache made `once` (a build, a diff side, and the default)
 * skips the keys only a next build on it would look up: its entries are never reused.
 * With `only` (and a `once` cache): entries for those agents only, models and tools
 * for all, `hash` "" and no layout — a part of a bundle, for `agentc diff`.
 */
export function createBundle(
  program: Program,
  agentcVersion: string,
  cache: EmitCache = createEmitCache({ once: true }),
  options: { only?: ReadonlySet<string> } = {},
): Bundle {
  const only = options.only;
  if (only !== undefined && !cache.once) throw new Error('agentc bug: a partial bundle needs a one-off EmitCache');
  const config = program.config.data;
  useConfig(cache, config, agentcVersion);
  // The last bundle on this cache was made under the same config (useConfig forgets it otherwise): its
  // config-made fields are the same values, kept as the same objects (later passes compare them by identity).
  const same = cache.once ? undefined : cache.last?.unhashed;
  // One sorted copy of the suffix AST, shared by every entry made now and the bundle's top level.
  const ast = same?.dynamicContextAst ?? sortKeysDeep(suffixAst(program));
  const made = cache.once ? oneOffAgents(program, ast, cache, only) : keptAgents(program, ast, cache);
  const { agents, models, tools } = made;

  // Keys in sorted order (agentcVersion < agents < dispatchDefaults < … < tools), as sortKeysDeep would.
  const unhashed: Bundle = {
    agentcVersion,
    agents,
    dispatchDefaults: same?.dispatchDefaults ?? sortKeysDeep({ toolPrefix: config.dispatch.toolPrefix, fanOutCap: config.dispatch.fanOutCap }),
    dynamicContext: same?.dynamicContext ?? sortKeysDeep({ fields: [...config.dynamicContext.fields], template: config.dynamicContext.template }),
    dynamicContextAst: ast,
    flags: same?.flags ?? [...config.flags],
    formatVersion: BUNDLE_FORMAT_VERSION,
    hash: '',
    models,
    tools,
  };
  // A partial bundle has no layout and no hash (its maker computes the hash if it needs one).
  if (only !== undefined) return unhashed;
  // bundle.json's frame and pieces (stored.ts), hashed with `hash` = ""; the hashed bundle gets the same layout with its hash set.
  // Watch: what this bundle is made of, and its delta, are there for layoutOf (and the next build) to see.
  const last: LastBundle | undefined = made.last === undefined ? undefined : (cache.last = { ...made.last, unhashed, hashed: undefined });
  const layout = layoutOf(unhashed, cache);
  const hash = hashChunks(bundleJsonChunks(unhashed, cache), cache.once ? undefined : cache.hashParts);
  const bundle: Bundle = { ...unhashed, hash };
  cache.frames.set(bundle, { frame: withHash(layout.frame, hash), pieces: layout.pieces });
  if (last !== undefined) last.hashed = bundle;
  return bundle;
}

interface MadeAgents {
  agents: Record<string, BundleAgent>;
  models: Record<string, BundleModel>;
  tools: Record<string, BundleToolContract>;
  /** What a next build on the cache starts from (its bundles set once they exist). */
  last?: Omit<LastBundle, 'unhashed' | 'hashed'>;
}

/** A one-off cache: every entry made (for the agents in `only`, when given), models and tools for all. */
function oneOffAgents(program: Program, ast: TemplateNode[], cache: EmitCache, only: ReadonlySet<string> | undefined): MadeAgents {
  const agents: Record<string, BundleAgent> = {};
  const uses = new Map<string, readonly unknown[]>();
  const ids = [...program.agents.keys()].sort(compareCodeUnits);
  for (const id of ids) {
    const agent = program.agents.get(id)!;
    uses.set(id, agentUses(agent, program));
    // `only` (agentc diff's partial side, src/diff/partial-side.ts): the other agents' entries are not made.
    if (only === undefined || only.has(id)) setOwn(agents, id, createAgent(program, id, agent, ast, cache));
  }
  return { agents, ...usedTables(program, ids, uses, cache) };
}

/**
 * A cache kept between builds (watch): an agent whose resolved Agent is the one of the last build
 * (CompileCache.agents hands it out again while its inputs are unchanged) keeps its entry without
 * being looked at again, one whose inputs key is the same keeps it too; the others are made. The
 * id order and the models and tools tables are the last build's while the ids and what each agent
 * uses are the same. The differences go to the next passes as an EmitDelta.
 */
function keptAgents(program: Program, ast: TemplateNode[], cache: EmitCache): MadeAgents {
  const last = cache.last;
  // Set again once this bundle is made: should making it throw, the entries updated on the way are not taken for the last bundle's.
  cache.last = undefined;
  // The cache's own tables, updated in place: an entry per id of this program.
  const entries = cache.entries;
  const uses = last?.uses ?? new Map<string, readonly unknown[]>();
  const changed = new Map<string, BundleAgent | undefined>();
  const removed = new Map<string, BundleAgent>();
  let usesMoved = last === undefined;
  let added = false;
  let policyMoved = false;
  // The agents whose resolved object may differ from the last bundle's: those the compile lists as changed since
  // the one the last bundle was made from (Program.revision), else every agent.
  const changedSince = program.revision?.changed;
  const candidates = last !== undefined && changedSince !== undefined && changedSince.since === last.revision ? changedSince.agent : program.agents.keys();
  for (const id of candidates) {
    const agent = program.agents.get(id);
    if (agent === undefined) continue;
    const hit = entries.get(id);
    if (hit !== undefined && hit.agent === agent && last !== undefined) continue;
    const key = agentInputsKey(cache, agent);
    const entry = hit !== undefined && hit.key === key ? hit.entry : createAgent(program, id, agent, ast, cache);
    entries.set(id, { key, entry, agent });
    const now = agentUses(agent, program);
    if (!sameItems(uses.get(id), now)) usesMoved = true;
    uses.set(id, now);
    if (hit !== undefined && hit.entry === entry) continue;
    changed.set(id, hit?.entry);
    if (hit === undefined) added = true;
    else if (hit.entry.policy !== entry.policy && !sameJson(hit.entry.policy, entry.policy)) policyMoved = true;
  }
  if (entries.size !== program.agents.size) {
    for (const [id, hit] of entries) {
      if (program.agents.has(id)) continue;
      entries.delete(id);
      uses.delete(id);
      removed.set(id, hit.entry);
    }
    usesMoved = true;
  }
  const sameIds = last !== undefined && !added && removed.size === 0;
  const ids = sameIds ? last.ids : [...program.agents.keys()].sort(compareCodeUnits);
  const order = sameIds ? last.order : jsonKeyOrder(ids);
  // Made afresh in id order (the last bundle's table is never changed; copying a table of a thousand keys costs more than this).
  const agents: Record<string, BundleAgent> = {};
  for (const id of ids) setOwn(agents, id, entries.get(id)!.entry);
  const tables = !usesMoved && last !== undefined ? { models: last.unhashed.models, tools: last.unhashed.tools } : usedTables(program, ids, uses, cache);
  const delta: EmitDelta | undefined =
    last === undefined
      ? undefined
      : {
          previous: { unhashed: last.unhashed, hashed: last.hashed },
          ids,
          order,
          sameIds,
          changed,
          removed,
          factsMoved: !sameIds || policyMoved || tables.tools !== last.unhashed.tools,
        };
  return { agents, ...tables, last: { uses, ids, order, delta, revision: program.revision?.self } };
}

/** What of the config and the contracts an agent's bundle puts in the models and tools tables: its models (those the config has), then its tools. */
function agentUses(agent: Agent, program: Program): unknown[] {
  const card = agent.card.data;
  const out: unknown[] = [];
  for (const m of [card.model, card.fallback_model, card.history?.summary_model]) {
    if (m !== undefined && Object.hasOwn(program.config.data.models, m)) out.push(m);
  }
  for (const t of agent.tools) if (t.kind === 'tool' && t.tool !== undefined) out.push(t.tool);
  return out;
}

/** The models and tools tables from every agent's uses (agentUses), in id order. */
function usedTables(
  program: Program,
  ids: readonly string[],
  uses: ReadonlyMap<string, readonly unknown[]>,
  cache: EmitCache,
): { models: Record<string, BundleModel>; tools: Record<string, BundleToolContract> } {
  const config = program.config.data;
  const usedModels = new Set<string>();
  const usedTools = new Map<string, Tool>();
  for (const id of ids) {
    for (const u of uses.get(id)!) {
      if (typeof u === 'string') usedModels.add(u);
      else usedTools.set((u as Tool).data.name, u as Tool);
    }
  }
  const models: Record<string, BundleModel> = {};
  for (const id of [...usedModels].sort(compareCodeUnits)) {
    let model = cache.models.get(id);
    if (model === undefined) cache.models.set(id, (model = sortKeysDeep(bundleModel(config.models[id]!))));
    setOwn(models, id, model);
  }
  const tools: Record<string, BundleToolContract> = {};
  for (const name of [...usedTools.keys()].sort(compareCodeUnits)) {
    const tool = usedTools.get(name)!;
    let contract = cache.contracts.get(tool);
    if (contract === undefined) cache.contracts.set(tool, (contract = sortKeysDeep(toolContract(tool))));
    setOwn(tools, name, contract);
  }
  return { models, tools };
}

function sameItems(a: readonly unknown[] | undefined, b: readonly unknown[]): boolean {
  return a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The bundle hash (bundle-hash.ts) of bundle.json's text (the stored bundle) with `hash` = "". */
export function bundleHash(bundle: Bundle): string {
  return hashBundleText(storedJson(storeBundle({ ...bundle, hash: '' })));
}

export function bundleModel(entry: ModelEntry): BundleModel {
  return {
    ...entry,
    encoding: entry.encoding ?? 'o200k_base',
    approximateTokens: entry.provider !== 'openai' || entry.encoding === undefined,
  };
}

/**
 * The agent's entry, keys sorted at every depth. Its prefixes and tools are made
 * in canonical order (and tool shapes shared between agents, see `toolShapes`),
 * so only the small card-derived fields are sorted here.
 */
function createAgent(program: Program, id: string, agent: Agent, ast: TemplateNode[], cache: EmitCache): BundleAgent {
  const card = agent.card.data;
  const shapes = agent.tools.map((t) => toolShapes(t, cache));
  const tools = {
    anthropic: shapes.map((s) => s.anthropic),
    neutral: shapes.map((s) => s.neutral),
    openai: shapes.map((s) => s.openai),
  };
  const prefixes = agent.cohorts.map(prefix);
  const out: BundleAgent = {
    id: card.id,
    description: card.description,
    role: card.role,
    owner: card.owner,
    model: agent.modelId ?? card.model ?? '',
    tuning: card.tuning,
    policy: card.policy,
    input: handoffSchema(agent.card, false),
    status_events: statusEvents(agent),
    sub_agents: agent.subAgents.map((c) => c.data.id),
    tools,
    flags: [...agent.flags],
    prefixes,
    suffix_template: program.config.data.dynamicContext.template,
    suffix_ast: ast,
    dispatch: dispatch(agent),
  };
  if (card.fallback_model !== undefined) out.fallback_model = card.fallback_model;
  if (card.output !== undefined) out.output = card.output;
  if (card.history !== undefined) out.history = card.history;
  // `tools`, `prefixes` and the AST are canonical already (keys written in order, shapes sorted once).
  const entry = sortKeysDeep(out, new Set<object>([tools, prefixes, ast]));
  // Its block uses (stored.ts agentBlockUses) from the rendered blocks: each text is the slice of
  // the prefix at the block's place, and a block rendered alike for many agents is one string, which
  // the stored bundle's tables then look up by identity instead of by content.
  const fragments = fragmentsOf(cache, id, entry);
  fragments.canonical = true;
  fragments.uses = programBlockUses(agent);
  return entry;
}

/** The agent's block uses (stored.ts agentBlockUses) from the resolved program: per cohort, per rendered block. */
export function programBlockUses(agent: Agent): BlockUse[][] {
  return agent.cohorts.map((c) =>
    c.blocks.map((b) => ({
      id: b.block.data.id,
      text: b.text,
      info: { category: b.block.data.category, file: b.block.file.path, owner: b.block.data.owner, required: b.required },
    })),
  );
}

function statusEvents(agent: Agent): string[] {
  const events = new Set(agent.card.data.status_events);
  for (const t of agent.tools) {
    if (t.kind === 'tool' && t.tool !== undefined) for (const e of t.tool.data.status_events) events.add(e);
  }
  return [...events].sort(compareCodeUnits);
}

/**
 * A tool's three shapes, canonical, made once per name, description and
 * parameters object and shared by every agent that has the tool. Tool parameters
 * come from resolve as the model sees them (an ask_* tool's already carry
 * intent_count). Keys are sorted first, so the provider shapes derived from them
 * (e.g. OpenAI's `required`, which lists every property) follow the same
 * canonical order as bundle.json.
 */
function toolShapes(tool: AgentTool, cache: EmitCache): ToolShapes {
  let byTool = cache.toolShapes.get(tool.parameters);
  if (byTool === undefined) cache.toolShapes.set(tool.parameters, (byTool = new Map<string, ToolShapes>()));
  const key = `${tool.name}\u0000${tool.description}`;
  let shapes = byTool.get(key);
  if (shapes === undefined) {
    const neutral: NeutralTool = { description: tool.description, name: tool.name, parameters: sortKeysDeep(tool.parameters) };
    shapes = {
      neutral,
      openai: sortKeysDeep(openaiTool(neutral)),
      // Its input_schema is a shallow copy of the sorted parameters: their members are canonical already, not copied again.
      anthropic: sortKeysDeep(anthropicTool(neutral), canonicalMembers(neutral.parameters)),
    };
    byTool.set(key, shapes);
  }
  return shapes;
}

/** The object members of a canonical object (subtrees sortKeysDeep may take as they are). */
function canonicalMembers(value: object): Set<object> {
  const members = new Set<object>();
  for (const v of Object.values(value)) if (v !== null && typeof v === 'object') members.add(v as object);
  return members;
}

function openaiTool(tool: NeutralTool): OpenAITool {
  return {
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: toOpenAIStrictParameters(tool.parameters),
      strict: true,
    },
  };
}

function anthropicTool(tool: NeutralTool): AnthropicTool {
  // Anthropic requires an object root; contracts always are, this only fills a missing `type`.
  return { name: tool.name, description: tool.description, input_schema: toAnthropicInputSchema(tool.parameters) };
}

/** A prefix with its keys in canonical order (blocks, cohort, key, sha256, text, tokens; each block's likewise). */
function prefix(cohort: Cohort): BundlePrefix {
  return {
    blocks: cohort.blocks.map((b) => ({
      category: b.block.data.category,
      file: b.block.file.path,
      id: b.block.data.id,
      length: b.text.length,
      owner: b.block.data.owner,
      required: b.required,
      start: b.start,
      tokens: b.tokens,
    })),
    cohort: [...cohort.flags],
    key: cohort.key,
    sha256: prefixSha256(cohort),
    text: cohort.text,
    tokens: cohort.tokens,
  };
}

/**
 * SHA-256 of the prefix text, hashed block by block: by Cohort's contract the text is each
 * block's text followed by BLOCK_SEPARATOR (the block uses below rely on the same), so its
 * 20 MB at 1,000 cards are never flattened into one string per cohort (the prompt files take
 * the block texts too). A cohort whose blocks are not at those offsets is hashed whole.
 */
function prefixSha256(cohort: Cohort): string {
  const hash = createHash('sha256');
  let at = 0;
  for (const b of cohort.blocks) {
    if (b.start !== at) return sha256Hex(cohort.text);
    hash.update(b.text, 'utf8').update(BLOCK_SEPARATOR, 'utf8');
    at += b.text.length + BLOCK_SEPARATOR.length;
  }
  return at === cohort.text.length ? hash.digest('hex') : sha256Hex(cohort.text);
}

/** The agent's effective dispatch settings (computed in resolve) plus its dispatch table. */
function dispatch(agent: Agent): BundleDispatch {
  const effective = agent.dispatch;
  const status_rendering: Record<string, string | null> = {};
  const rendering = effective.statusRendering;
  for (const event of Object.keys(rendering).sort(compareCodeUnits)) {
    const text = rendering[event]!;
    setOwn(status_rendering, event, text === 'suppress' ? null : text);
  }
  const table: Record<string, DispatchEntry> = {};
  for (const t of agent.tools) {
    if (t.kind === 'sub_agent' && t.agent !== undefined) {
      setOwn(table, t.name, { kind: 'sub_agent', agent: t.agent.data.id, policy: t.agent.data.policy });
    } else if (t.kind === 'tool' && t.tool !== undefined) {
      setOwn(table, t.name, { kind: 'tool', tool: t.tool.data.name, envelope: t.tool.data.envelope });
    }
  }
  const out: BundleDispatch = {
    fan_out_cap: effective.fanOutCap,
    intent_count_failsafe: effective.intentCountFailsafe,
    stream: effective.stream,
    status_rendering,
    table,
  };
  if (effective.guards !== undefined) out.guards = effective.guards;
  return out;
}

function toolContract(tool: Tool): BundleToolContract {
  const d = tool.data;
  return {
    name: d.name,
    description: d.description,
    parameters: d.parameters,
    envelope: d.envelope,
    status_events: [...d.status_events].sort(compareCodeUnits),
  };
}

/** `record[key] = value` that also works for the key "__proto__" (an own data property, never the prototype); plain assignment for every other key (much faster). */
function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/** The suffix template's AST; a build stops before emit when it did not parse or is outside the language (suffix-template). */
function suffixAst(program: Program): TemplateNode[] {
  const parsed = program.suffix.parsed;
  return parsed.ok ? (parsed.analysis.nodes ?? []) : [];
}
