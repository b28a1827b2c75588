/**
 * Resolve phase: link cards, blocks and tools by id, then assemble every
 * agent's prompt per feature-flag cohort (docs/formats/prompt-block.md#assembly):
 *
 *   prefix = required platform blocks (config order) ++ card.prompt_blocks (declared order)
 *            each rendered, trimmed, followed by "\n\n"; empty renders are left out;
 *            a flagged block only in cohorts where its flag is on.
 *
 * Token counts are exact. A prefix's count is the sum of its blocks' counts
 * (block text + separator), which equals counting the whole text because every
 * block boundary is a pre-tokenizer boundary (see isSafeBoundary); when one is
 * not, the whole prefix is counted instead. Renders and counts are memoized, so
 * a block shared by a thousand agents is rendered and counted once.
 */
import type { ParsedWorkspace } from '../parse/index.js';
import type { Block, Card, JsonSchema, ModelEntry } from '../parse/types.js';
import { isEncoding, isSafeBoundary, type Encoding } from '../tokenize/index.js';
import { TokenCounter } from '../tokenize/counter.js';
import { buildRenderContext, CONTEXT_ROOTS } from './context.js';
import { contextDependencies, renderBlock } from './render.js';
import { runBlockMemos, type BlockDerived, type BlockMemos, type StableRender } from './block-memo.js';
import { RunMemo, type LastingMemos } from './run-memo.js';
import type { CardOrder, PersistentAgentMemos } from './agent-memo.js';
import { indexTable } from './tables.js';
import { effectiveDispatch } from './dispatch.js';
import { resolveSuffix } from './suffix.js';
import type { Agent, AgentBlockRef, AgentTool, Cohort, ConfigStatus, EffectiveDispatch, Program, RenderedBlock, RenderError } from './types.js';
import { WORKSPACE_LAYOUT } from '../load/layout.js';
import type { SourceFile } from '../load/source.js';

/**
 * The cohort limit, defined once: an agent whose blocks use more known flags
 * (`Agent.flags`, i.e. flags in config.flags) than this gets no cohorts and a
 * `cohort-explosion` error (2^6 = 64 cohorts at the limit). Unknown flags are
 * `unknown-flag`'s and never switch on, so they do not count.
 */
export const MAX_COHORT_FLAGS = 6;

/** Whether `flags` (an agent's known flags) are too many to assemble every cohort. */
export function exceedsCohortLimit(flags: readonly string[]): boolean {
  return flags.length > MAX_COHORT_FLAGS;
}
export const BLOCK_SEPARATOR = '\n\n';

/** What a resolve may reuse; every part is optional and a fresh one gives the same Program. */
export interface ResolveMemos {
  /** The run's token counter (memo + persistent cache). */
  tokens?: TokenCounter;
  /** Per-block derived data (CompileCache keeps it across compiles). */
  blocks?: BlockMemos;
  /** Resolved agents (CompileCache keeps them across compiles, src/resolve/agent-memo.ts). */
  agents?: PersistentAgentMemos;
  /** Derived data of single parsed objects (CompileCache keeps it across compiles, src/resolve/run-memo.ts). */
  lasting?: LastingMemos;
}

/** `onAgent` is called after each agent (progress). */
export function resolveProgram(root: string, parsed: ParsedWorkspace, files: Map<string, SourceFile>, memos: ResolveMemos = {}, onAgent?: () => void): Program {
  const tokens = memos.tokens ?? new TokenCounter();
  const blockMemos = memos.blocks ?? runBlockMemos();
  const agentMemo = memos.agents?.forRun(parsed, cardOrder);
  const tables = agentMemo?.tables ?? {
    card: indexTable('card', parsed.cards),
    block: indexTable('block', parsed.blocks),
    tool: indexTable('tool', parsed.tools),
  };
  const cards = tables.card.map;
  const blocks = tables.block.map;
  const tools = tables.tool.map;
  const duplicates = [...tables.card.duplicates, ...tables.block.duplicates, ...tables.tool.duplicates];
  const { sorted: sortedCards, parents } = agentMemo?.order ?? cardOrder(cards);

  const program: Program = {
    root,
    config: parsed.config,
    configStatus: configStatusOf(parsed),
    layout: WORKSPACE_LAYOUT,
    cards,
    blocks,
    tools,
    duplicates,
    files,
    agents: new Map(),
    parents,
    unparsed: parsed.unparsed,
    evals: parsed.evals,
    memo: new RunMemo(memos.lasting),
    suffix: resolveSuffix(parsed.config, memos.lasting),
  };
  const renderCache = new Map<string, { text: string } | RenderError>();
  const changed = agentMemo?.changed;
  // An agent differs from the last run's when it is resolved again, or its card is gone.
  const agentsChanged = new Set(changed?.card);
  for (const card of sortedCards) {
    let agent = agentMemo?.get(card);
    if (agent === undefined) {
      agent = resolveAgent(program, card, renderCache, tokens, blockMemos);
      agentsChanged.add(card.data.id);
    }
    agentMemo?.set(card, agent);
    program.agents.set(card.data.id, agent);
    onAgent?.();
  }
  if (agentMemo) {
    agentMemo.retain();
    program.revision = { self: agentMemo.self, ...(changed ? { changed: { ...changed, agent: agentsChanged } } : {}) };
  }
  return program;
}

/** `absent` without a config file; `failed` when it did not load (parse then keeps no file); else `loaded`. */
function configStatusOf(parsed: ParsedWorkspace): ConfigStatus {
  if (parsed.configPath === undefined) return 'absent';
  return parsed.config.file === undefined ? 'failed' : 'loaded';
}

/** The cards in id order, and each card's parents (the cards listing it in sub_agents) in id order. */
function cardOrder(cards: ReadonlyMap<string, Card>): CardOrder {
  const sorted = [...cards.values()].sort(byId);
  const parents = new Map<string, string[]>();
  for (const card of sorted) {
    for (const sub of card.data.sub_agents) {
      const list = parents.get(sub) ?? [];
      list.push(card.data.id);
      parents.set(sub, list);
    }
  }
  return { sorted, parents };
}

function byId(a: Card, b: Card): number {
  return a.data.id < b.data.id ? -1 : a.data.id > b.data.id ? 1 : 0;
}

function resolveAgent(p: Program, card: Card, renderCache: Map<string, { text: string } | RenderError>, tokens: TokenCounter, memos: BlockMemos): Agent {
  const config = p.config.data;
  const d = card.data;
  const modelId = d.model;
  const model = modelId !== undefined && Object.prototype.hasOwnProperty.call(config.models, modelId) ? config.models[modelId] : undefined;
  const encoding: Encoding = isEncoding(model?.encoding) ? model.encoding : 'o200k_base';

  const blocks: AgentBlockRef[] = [];
  for (const id of config.platform.requiredBlocks) {
    const block = p.blocks.get(id);
    if (block) blocks.push({ block, required: true });
  }
  d.prompt_blocks.forEach((id, i) => {
    const block = p.blocks.get(id);
    // A required block listed again is reported (platform-block-declared), not included twice.
    if (block && !config.platform.requiredBlocks.includes(id))
      blocks.push({
        block,
        required: false,
        get declaredAt() {
          return card.locate(['prompt_blocks', i]);
        },
      });
  });
  const usedFlags = [...new Set(blocks.map((b) => b.block.data.feature_flag).filter((f): f is string => f !== undefined))].sort();
  const flags = usedFlags.filter((f) => config.flags.includes(f));

  const subAgents = d.sub_agents.map((id) => p.cards.get(id)).filter((c): c is Card => c !== undefined);
  const dispatch = effectiveDispatch(d, config);
  const tools = agentTools(p, card, dispatch);
  const ownTools = tools.filter((t) => t.kind === 'tool' && t.tool).map((t) => t.tool!.data);

  const renderErrors: RenderError[] = [];
  const cohorts: Cohort[] = [];
  const renderedCohorts: { on: string[]; rendered: RenderedBlock[] }[] = [];
  const cohortLimitExceeded = exceedsCohortLimit(flags);
  const subsets = cohortLimitExceeded ? [] : flagSubsets(flags);
  for (const on of subsets) {
    // Built only when some block of this cohort reads the context and is not rendered yet.
    let ctx: Record<string, unknown> | undefined;
    const context = () =>
      (ctx ??= buildRenderContext({
        card: d,
        subAgents: subAgents.map((s) => s.data),
        tools: ownTools,
        config,
        modelId,
        model,
        encoding,
        flagsOn: on,
        dispatch,
      }));
    const rendered: RenderedBlock[] = [];
    for (const ref of blocks) {
      const flag = ref.block.data.feature_flag;
      if (flag !== undefined && !on.includes(flag)) continue;
      // A body that did not parse has its template-syntax error; rendering it would only fail again (slowly).
      if (!ref.block.template) continue;
      const derived = memos.of(ref.block);
      const stable = contextDependencies(ref.block, derived).length === 0;
      let r: { text: string } | RenderError | undefined;
      if (stable) {
        const s = stableRender(ref.block, derived);
        r = 'text' in s ? s : { block: ref.block, ...s };
      } else {
        const key = renderKey(ref.block, card, modelId, on, derived);
        r = renderCache.get(key);
        if (!r) {
          const res = renderBlock(ref.block, context());
          r = res.ok ? { text: res.text.trim() } : { block: ref.block, message: res.message, range: res.range, kind: res.kind };
          renderCache.set(key, r);
        }
      }
      if (!('text' in r)) {
        if (!renderErrors.some((e) => e.block === ref.block && e.message === r.message)) renderErrors.push(r);
        continue;
      }
      if (r.text === '') continue;
      rendered.push({ block: ref.block, required: ref.required, text: r.text, tokens: 0, start: 0 });
    }
    renderedCohorts.push({ on, rendered });
  }
  const descriptionEncoding = encodingOf(descriptionModel(p, d.id), encoding);
  for (const { on, rendered } of renderedCohorts) cohorts.push(assemble(on, rendered, encoding, tokens, memos));

  const parentIds = p.parents.get(d.id) ?? [];
  const parentCards = parentIds.map((id) => p.cards.get(id)).filter((c): c is Card => c !== undefined);
  const handoffTokens = Math.max(0, ...parentCards.map((c) => c.data.tuning.max_output_tokens ?? 0));

  return {
    card,
    model,
    modelId,
    encoding,
    blocks,
    flags,
    cohorts,
    cohortLimitExceeded,
    dispatch,
    tools,
    subAgents,
    handoffTokens,
    descriptionTokens: tokens.count(d.description, descriptionEncoding),
    renderErrors,
  };
}

/** The model a sub-agent's description is sent to: its first parent's (by id) that is configured. */
function descriptionModel(p: Program, id: string): ModelEntry | undefined {
  const config = p.config.data;
  const parentCards = (p.parents.get(id) ?? []).map((pid) => p.cards.get(pid)).filter((c): c is Card => c !== undefined);
  return parentCards.map((c) => config.models[c.data.model ?? '']).find((m) => m !== undefined);
}

function encodingOf(model: ModelEntry | undefined, fallback: Encoding): Encoding {
  return isEncoding(model?.encoding) ? model.encoding : fallback;
}

/**
 * A body that reads nothing renders the same for everyone: rendered once per
 * block text (kept across compiles with the block's derived data), against an
 * empty context — it reads none.
 */
export function stableRender(block: Block, derived: BlockDerived): StableRender {
  if (!derived.stableRender) {
    const res = renderBlock(block, {});
    derived.stableRender = res.ok ? { text: res.text.trim() } : { message: res.message, range: res.range, kind: res.kind };
  }
  return derived.stableRender;
}

/** Tokens of a block that reads nothing from the context: once per block text and encoding (kept across compiles with the block's derived data). */
function stableTokens(derived: BlockDerived, text: string, encoding: Encoding, tokens: TokenCounter): number {
  const byEncoding = (derived.stableCounts ??= new Map<Encoding, number>());
  let n = byEncoding.get(encoding);
  if (n === undefined) byEncoding.set(encoding, (n = tokens.count(text + BLOCK_SEPARATOR, encoding)));
  return n;
}

/** Default cohort first, then by size, then lexicographically. */
export function flagSubsets(flags: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let mask = 0; mask < 1 << flags.length; mask++) out.push(flags.filter((_, i) => mask & (1 << i)));
  return out.sort((a, b) => a.length - b.length || (a.join('+') < b.join('+') ? -1 : a.join('+') > b.join('+') ? 1 : 0));
}

/** Two renders of a block are equal when the context roots it reads are equal. */
function renderKey(block: Block, card: Card, modelId: string | undefined, flagsOn: readonly string[], derived: BlockDerived): string {
  const deps = contextDependencies(block, derived);
  const parts = deps.map((dep) => {
    if (dep === 'model') return `model=${modelId ?? ''}`;
    if (dep === 'flags') return `flags=${flagsOn.join('+')}`;
    if ((CONTEXT_ROOTS as readonly string[]).includes(dep)) return `card=${card.data.id}`;
    return `*=${card.data.id}|${modelId ?? ''}|${flagsOn.join('+')}`;
  });
  return `${block.file.path}\u0000${[...new Set(parts)].join('\u0000')}`;
}

function assemble(flags: string[], rendered: RenderedBlock[], encoding: Encoding, tokens: TokenCounter, memos: BlockMemos): Cohort {
  let text = '';
  let sum = 0;
  let safe = true;
  for (let i = 0; i < rendered.length; i++) {
    const r = rendered[i]!;
    r.start = text.length;
    // A block whose render depends on the agent is counted by paragraph, so its
    // many renders share the counts of their unchanged paragraphs; a block that
    // renders the same for everyone is counted once per encoding.
    const derived = memos.of(r.block);
    r.tokens =
      contextDependencies(r.block, derived).length > 0
        ? tokens.countByParagraph(r.text + BLOCK_SEPARATOR, encoding)
        : stableTokens(derived, r.text, encoding, tokens);
    sum += r.tokens;
    if (i > 0 && !isSafeBoundary(r.text)) safe = false;
    text += r.text + BLOCK_SEPARATOR;
  }
  return { flags, key: flags.join('+'), blocks: rendered, text, tokens: safe ? sum : tokens.count(text, encoding) };
}

function agentTools(p: Program, card: Card, dispatch: EffectiveDispatch): AgentTool[] {
  const d = card.data;
  const out: AgentTool[] = [];
  d.tools.forEach((name, i) => {
    const tool = p.tools.get(name);
    if (!tool) return;
    out.push({
      name,
      kind: 'tool',
      description: tool.data.description,
      parameters: tool.data.parameters,
      tool,
      get declaredAt() {
        return card.locate(['tools', i]);
      },
    });
  });
  const prefix = dispatch.toolPrefix;
  const failsafe = dispatch.intentCountFailsafe;
  d.sub_agents.forEach((id, i) => {
    const sub = p.cards.get(id);
    if (!sub) return;
    out.push({
      name: `${prefix}${id}`,
      kind: 'sub_agent',
      description: sub.data.description,
      parameters: handoffSchema(sub, failsafe),
      agent: sub,
      get declaredAt() {
        return card.locate(['sub_agents', i]);
      },
    });
  });
  return out;
}

export const INTENT_COUNT_SCHEMA: JsonSchema = {
  type: 'integer',
  minimum: 1,
  description: 'How many separate requests the user made in this turn (across all specialists).',
};

/** The parameters of `ask_<id>`: the sub-agent's handoff fields, plus intent_count under the failsafe. */
export function handoffSchema(sub: Card, failsafe: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = { ...sub.data.input };
  const required = [...sub.data.input_required];
  if (failsafe) {
    properties.intent_count = INTENT_COUNT_SCHEMA;
    if (!required.includes('intent_count')) required.push('intent_count');
  }
  return { type: 'object', properties, required, additionalProperties: false };
}
