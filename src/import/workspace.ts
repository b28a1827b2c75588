/**
 * ImportSource → workspace files (cards, blocks, tool contracts, config models)
 * and the report's data. Invariants: pure (reads nothing, writes nothing); the
 * output depends only on the source and options, never on time or machine;
 * every id change, guessed model, placeholder and filled-in default is recorded.
 */
import { stringify } from 'yaml';
import { AGENT_ID, IdMap, TOOL_ID } from './ids.js';
import { escapeHandlebars, splitAtHeadings } from './instructions.js';
import { blockPath, cardPath, toolPath } from '../load/layout.js';
import { guessModel, type GuessedModel } from './models.js';
import type { Dropped, ImportFormat, ImportSource, ImportedTool } from './types.js';

export interface WorkspaceFile {
  path: string;
  content: string;
  /** Merged from the existing file (the config's models): an update, never a conflict. */
  merged?: true;
}

export interface IdChange {
  kind: 'agent' | 'tool';
  source: string;
  id: string;
  /** The file the name comes from. */
  file: string;
}

export interface Note {
  file: string;
  field: string;
  message: string;
}

export interface AgentSummary {
  id: string;
  source: string;
  file: string;
  role: 'orchestrator' | 'native';
  blocks: string[];
  tools: string[];
  subAgents: string[];
}

export interface PlannedWorkspace {
  files: WorkspaceFile[];
  agents: AgentSummary[];
  ids: IdChange[];
  models: GuessedModel[];
  /** Tool contracts written as placeholders (the source only names them). */
  placeholders: string[];
  /** Tool contracts written with parameters from the source. */
  contracts: string[];
  dropped: Dropped[];
  notes: Note[];
}

export interface PlanOptions {
  format: ImportFormat;
  owner: string;
  /** Text of the target's agentc.config.ts, when it has one (models are merged into it). */
  existingConfig?: string;
  /** The model used when the source names none. */
  defaultModel: string;
}

export function planWorkspace(src: ImportSource, opts: PlanOptions): PlannedWorkspace {
  const agentIds = new IdMap(AGENT_ID);
  const toolIds = new IdMap(TOOL_ID);
  const ids: IdChange[] = [];
  const notes: Note[] = [];
  const dropped = [...src.dropped];
  const files: WorkspaceFile[] = [];
  const agents: AgentSummary[] = [];
  const models = new Map<string, GuessedModel>();
  const byKey = new Map(src.agents.map((a) => [a.key, a]));
  // Ids come from names; a name shared by agents of different files is qualified by its file's stem.
  const nameCount = new Map<string, number>();
  for (const a of src.agents) nameCount.set(a.name, (nameCount.get(a.name) ?? 0) + 1);
  const idSource = new Map(src.agents.map((a) => [a.key, nameCount.get(a.name)! > 1 ? `${fileStem(a.file)}_${a.name}` : a.name]));
  const agentId = (key: string) => agentIds.id(idSource.get(key) ?? key);
  // Names that are already valid ids claim them first, so they keep their spelling.
  for (const valid of [true, false]) for (const a of src.agents) if (AGENT_ID.valid.test(idSource.get(a.key)!) === valid) agentId(a.key);
  const fanOutCap = defaultFanOutCap(opts.existingConfig);
  const toolsByName = new Map<string, ImportedTool>();
  for (const t of src.tools) if (!toolsByName.has(t.name)) toolsByName.set(t.name, t);
  for (const valid of [true, false]) for (const t of toolsByName.values()) if (TOOL_ID.valid.test(t.name) === valid) toolIds.id(t.name);

  for (const a of src.agents) {
    const id = agentId(a.key);
    if (a.name !== id) ids.push({ kind: 'agent', source: a.name, id, file: a.file });
    const modelFrom = a.model ?? opts.defaultModel;
    if (a.model === undefined) notes.push({ file: a.file, field: `${a.name}.model`, message: `no model in the source; used "${opts.defaultModel}"` });
    const model = guessModel(modelFrom);
    models.set(model.key, model);

    let description = a.description?.trim();
    if (!description) {
      description = `Imported ${opts.format} agent "${a.name}" (the source gives no description).`;
      notes.push({
        file: a.file,
        field: `${a.name}.description`,
        message: 'no description in the source; wrote a placeholder (the orchestrator routes on it: replace it)',
      });
    }

    const blocks: string[] = [];
    if (a.instructions !== undefined && a.instructions.trim() !== '') {
      const { body, lostBackslashLines } = escapeHandlebars(a.instructions);
      for (const line of lostBackslashLines) {
        dropped.push({
          file: a.file,
          field: `${a.name}.instructions`,
          reason: `a backslash directly before "{{" (instruction line ${line}) cannot be written in a prompt block; it was removed`,
        });
      }
      if (body.includes('\\{{'))
        notes.push({ file: a.file, field: `${a.name}.instructions`, message: 'literal "{{" escaped as "\\{{" so the model reads it unchanged' });
      const parts = splitAtHeadings(body);
      parts.forEach((part, i) => {
        const blockId = parts.length === 1 ? `${id}-instructions` : `${id}-instructions-${i + 1}`;
        blocks.push(blockId);
        const fm = stringify({ category: 'instructions', owner: opts.owner }, { lineWidth: 0 });
        files.push({ path: blockPath(id, blockId), content: `---\n${fm}---\n${part}\n` });
      });
    } else {
      notes.push({ file: a.file, field: `${a.name}.instructions`, message: 'no instructions in the source: the card has no prompt blocks of its own' });
    }

    const tools = a.tools.map((t) => toolIds.id(t));
    const subAgents: string[] = [];
    for (const k of a.subAgents) {
      if (!byKey.has(k)) {
        dropped.push({ file: a.file, field: `${a.name}.sub_agents`, reason: `"${k}" is not an agent found in the imported files` });
        continue;
      }
      const sid = agentId(k);
      if (!subAgents.includes(sid)) subAgents.push(sid);
    }
    const role = subAgents.length > 0 ? 'orchestrator' : 'native';
    const card: Record<string, unknown> = { id, description, role, owner: opts.owner, model: model.key };
    if (tools.length > 0) card.tools = [...new Set(tools)];
    card.prompt_blocks = blocks;
    if (subAgents.length > 0) card.sub_agents = subAgents;
    if (a.output !== undefined) card.output = a.output;
    if (a.maxOutputTokens !== undefined) card.tuning = { max_output_tokens: a.maxOutputTokens };
    // A cap above the number of sub-agents can never be reached (fan-out-cap).
    if (subAgents.length > 0 && subAgents.length < fanOutCap) card.dispatch = { fan_out_cap: subAgents.length };
    const header = `# yaml-language-server: $schema=../schemas/agent-card.schema.json\n# Imported by \`agentc import ${opts.format}\` from ${oneLine(a.file)} (${oneLine(a.name)}).\n`;
    files.push({ path: cardPath(id), content: header + stringify(card, { lineWidth: 0 }) });
    agents.push({ id, source: a.name, file: a.file, role, blocks, tools: [...new Set(tools)], subAgents });
  }

  const placeholders: string[] = [];
  const contracts: string[] = [];
  for (const t of toolsByName.values()) {
    const name = toolIds.id(t.name);
    if (t.name !== name) ids.push({ kind: 'tool', source: t.name, id: name, file: t.file });
    const placeholder = t.parameters === undefined;
    (placeholder ? placeholders : contracts).push(name);
    const description = placeholder
      ? `PLACEHOLDER: the ${opts.format} source names the tool "${t.name}"${t.description ? ` (${t.description})` : ''} but does not define its parameters. Replace this description and the parameters with the tool's real contract.`
      : t.description?.trim() || `Tool "${t.name}" imported from ${t.file}.`;
    if (!placeholder && !t.description?.trim())
      notes.push({ file: t.file, field: `${t.name}.description`, message: 'no tool description in the source; wrote a placeholder' });
    const contract = { name, description, parameters: t.parameters ?? { type: 'object', properties: {}, additionalProperties: true } };
    const header = `# yaml-language-server: $schema=../tool-contract.schema.json\n# Imported by \`agentc import ${opts.format}\` from ${oneLine(t.file)}${placeholder ? ' (placeholder: parameters unknown)' : ''}.\n`;
    files.push({ path: toolPath(name), content: header + stringify(contract, { lineWidth: 0 }) });
  }

  const guessed = [...models.values()].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  const config = opts.existingConfig === undefined ? newConfig(opts.format, guessed) : mergeConfig(opts.existingConfig, guessed, notes);
  if (config !== undefined)
    files.push(opts.existingConfig !== undefined ? { path: 'agentc.config.ts', content: config, merged: true } : { path: 'agentc.config.ts', content: config });
  files.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  return { files, agents, ids, models: guessed, placeholders, contracts, dropped, notes };
}

function modelEntry(m: GuessedModel, indent: string): string {
  return (
    `${indent}// GUESSED by agentc import from ${oneLine(JSON.stringify(m.from))}: provider, contextWindow and encoding inferred from the name; check them.\n` +
    `${indent}${JSON.stringify(m.key)}: { provider: ${JSON.stringify(m.provider)}, model: ${JSON.stringify(m.model)}, contextWindow: ${m.contextWindow}, encoding: '${m.encoding}', tools: true },\n`
  );
}

function newConfig(format: ImportFormat, models: GuessedModel[]): string {
  return (
    `import { defineConfig } from '@agentc/cli';\n\n` +
    `// Written by \`agentc import ${format}\`. Entries marked GUESSED were inferred from the\n// model's name alone: check provider, contextWindow and encoding.\n` +
    `export default defineConfig({\n  models: {\n${models.map((m) => modelEntry(m, '    ')).join('')}  },\n` +
    `  platform: { owner: 'platform', requiredBlocks: [] },\n});\n`
  );
}

/** Adds the models the existing config lacks right after its `models: {`; undefined when nothing changes. */
function mergeConfig(text: string, models: GuessedModel[], notes: Note[]): string | undefined {
  const missing = models.filter((m) => !new RegExp(`(^|[\\s{,])(['"]?)${escapeRe(m.key)}\\2\\s*:`, 'm').test(text));
  if (missing.length === 0) return undefined;
  const open = /(^[ \t]*)models\s*:\s*\{[ \t]*\n/m.exec(text);
  if (!open) {
    for (const m of missing)
      notes.push({
        file: 'agentc.config.ts',
        field: 'models',
        message: `could not find "models: {" in the existing config: add model "${m.key}" (${m.provider} ${m.model}) by hand`,
      });
    return undefined;
  }
  const at = open.index + open[0].length;
  return text.slice(0, at) + missing.map((m) => modelEntry(m, `${open[1]}  `)).join('') + text.slice(at);
}

/**
 * Text for a comment line: source text never ends a comment (a model name with a
 * line break must not become code in agentc.config.ts, nor a key in a card).
 */
function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ');
}

function fileStem(file: string): string {
  return file
    .split('/')
    .pop()!
    .replace(/\.[^.]*$/, '');
}

/** config.dispatch.fanOutCap of the existing config (a light scan), else agentc's default. */
function defaultFanOutCap(config: string | undefined): number {
  const m = config === undefined ? undefined : /fanOutCap\s*:\s*(\d+)/.exec(config);
  return m ? Number(m[1]) : 3;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
