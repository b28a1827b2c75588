/**
 * docker cagent (docker agent) YAML: `agents:` maps a name to `model`,
 * `description`, `instruction`, `toolsets`, `sub_agents` and `handoffs`;
 * `models:` maps a name to `{ provider, model, … }`. Invariant: sub_agents and
 * handoffs both become sub_agents (a handoff cycle stays a cycle, for check to
 * report); every other key is reported.
 */
import { collectFiles, parseYaml, readText } from '../read.js';
import { emptySource, isRecord, positiveInt, stringField, uniqueKey, type ImportSource } from '../types.js';

const AGENT_KEYS = new Set(['model', 'description', 'instruction', 'toolsets', 'sub_agents', 'handoffs']);
const AGENT_DROPPED: Record<string, string> = {
  add_date: 'a per-request value: agentc renders dates in the dynamic context (config.dynamicContext), never in the cached prefix',
  add_environment_info: 'environment details are per-request context; add them to config.dynamicContext',
  add_prompt_files: 'prompt files are read by cagent at run time; copy their text into a block',
  max_iterations: 'use policy.max_tool_calls in the card instead (not converted automatically)',
  num_history_items: 'history windowing is a runtime setting',
  welcome_message: 'UI text, not part of the agent contract',
  commands: 'cagent slash commands are a client feature',
  structured_output: "not converted: describe the result with the card's `output` JSON Schema",
  skills: 'cagent skills have no agentc equivalent',
  code_mode_tools: 'a cagent execution mode',
  fallback: 'not converted: set fallback_model in the card',
};

export function importCagent(cwd: string, paths: readonly string[]): ImportSource {
  const src = emptySource();
  for (const file of collectFiles(cwd, paths, (n) => /\.ya?ml$/.test(n), src.problems)) {
    const text = readText(file, src.problems);
    if (text === undefined) continue;
    src.files.push(file.shown);
    const doc = parseYaml(text, file.shown, src.problems);
    if (!isRecord(doc) || !isRecord(doc.agents)) {
      if (doc !== undefined) (file.walked ? src.skipped : src.problems).push({ file: file.shown, message: 'not a cagent file: no `agents:` mapping' });
      continue;
    }
    const models = isRecord(doc.models) ? doc.models : {};
    for (const key of Object.keys(doc).sort()) {
      if (key === 'agents' || key === 'models') continue;
      src.dropped.push({
        file: file.shown,
        field: key,
        reason: key === 'version' ? 'the cagent file format version' : 'a cagent top-level section with no agentc equivalent',
      });
    }
    for (const [mname, m] of Object.entries(models)) {
      if (!isRecord(m)) continue;
      for (const k of Object.keys(m).sort()) {
        if (k === 'provider' || k === 'model' || (k === 'max_tokens' && positiveInt(m.max_tokens) !== undefined)) continue;
        src.dropped.push({ file: file.shown, field: `models.${mname}.${k}`, reason: 'a model parameter with no agentc equivalent in the registry' });
      }
    }
    // Keys of this file's agents, so that references resolve within the file.
    const keys = new Map<string, string>();
    for (const name of Object.keys(doc.agents)) keys.set(name, uniqueKey(src, name, file.shown));
    for (const [name, raw] of Object.entries(doc.agents)) {
      const key = keys.get(name)!;
      if (!isRecord(raw)) src.problems.push({ file: file.shown, message: `agents.${name} is not a mapping` });
      const a = isRecord(raw) ? raw : {};
      const at = (f: string) => `agents.${name}.${f}`;
      const tools: string[] = [];
      for (const f of ['toolsets', 'sub_agents', 'handoffs'])
        if (a[f] !== undefined && !Array.isArray(a[f])) src.dropped.push({ file: file.shown, field: at(f), reason: 'not a list' });
      for (const [i, ts] of (Array.isArray(a.toolsets) ? a.toolsets : []).entries()) {
        if (!isRecord(ts) || typeof ts.type !== 'string') {
          src.dropped.push({ file: file.shown, field: at(`toolsets[${i}]`), reason: 'a toolset without a type' });
          continue;
        }
        for (const t of toolsetTools(ts, file.shown, at(`toolsets[${i}]`), src)) if (!tools.includes(t)) tools.push(t);
      }
      const subAgents: string[] = [];
      for (const f of ['sub_agents', 'handoffs'] as const) {
        const list = Array.isArray(a[f]) ? (a[f] as unknown[]) : [];
        for (const s of list) {
          const target = keys.get(String(s)) ?? String(s);
          if (!subAgents.includes(target)) subAgents.push(target);
        }
        if (f === 'handoffs' && list.length > 0) {
          src.dropped.push({
            file: file.shown,
            field: at('handoffs'),
            reason: 'a handoff passes the whole conversation on; agentc calls a sub-agent as a tool and gets its answer back (imported as sub_agents)',
          });
        }
      }
      let model = stringField(src, file.shown, at('model'), a.model);
      if (model !== undefined && model.includes(',')) {
        src.dropped.push({ file: file.shown, field: at('model'), reason: `an alloy of models ("${model}"): agentc uses one model per card (took the first)` });
        model = model.split(',')[0]!.trim();
      }
      const m = model !== undefined ? models[model] : undefined;
      const maxOutputTokens = isRecord(m) ? positiveInt(m.max_tokens) : undefined;
      if (isRecord(m) && typeof m.model === 'string') model = typeof m.provider === 'string' ? `${m.provider}/${m.model}` : m.model;
      for (const k of Object.keys(a).sort()) {
        if (AGENT_KEYS.has(k)) continue;
        src.dropped.push({ file: file.shown, field: at(k), reason: AGENT_DROPPED[k] ?? 'a cagent agent setting with no agentc equivalent' });
      }
      src.agents.push({
        key,
        name,
        file: file.shown,
        description: stringField(src, file.shown, at('description'), a.description),
        instructions: stringField(src, file.shown, at('instruction'), a.instruction),
        model,
        tools,
        subAgents,
        ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
      });
    }
  }
  return src;
}

/** A toolset's tools: a `script` toolset defines them (with args); any other is a named placeholder. */
function toolsetTools(ts: Record<string, unknown>, file: string, field: string, src: ImportSource): string[] {
  const type = ts.type as string;
  const names: string[] = [];
  const addTool = (name: string, description?: string, parameters?: Record<string, unknown>) => {
    names.push(name);
    const first = src.tools.find((t) => t.name === name);
    if (!first) src.tools.push({ name, description, parameters, file });
    else if (JSON.stringify(first.parameters) !== JSON.stringify(parameters)) {
      src.dropped.push({ file, field: `${field}.${name}`, reason: `another definition of the tool "${name}" (from ${first.file}) was kept` });
    }
  };
  if (type === 'script' && isRecord(ts.shell)) {
    for (const [name, def] of Object.entries(ts.shell)) {
      const d = isRecord(def) ? def : {};
      const props = isRecord(d.args) ? d.args : {};
      const parameters: Record<string, unknown> = { type: 'object', properties: props, additionalProperties: false };
      if (Array.isArray(d.required) && d.required.length > 0) parameters.required = d.required;
      addTool(name, typeof d.description === 'string' ? d.description : undefined, parameters);
      if (d.cmd !== undefined)
        src.dropped.push({
          file,
          field: `${field}.shell.${name}.cmd`,
          reason: 'the command a tool runs is its implementation: implement the tool in ToolHandlers',
        });
    }
    return names;
  }
  const base = type === 'mcp' ? `mcp_${String(ts.ref ?? ts.command ?? ts.remote ?? 'server').replace(/^docker:/, '')}` : type;
  if (Array.isArray(ts.tools) && ts.tools.length > 0) {
    for (const t of ts.tools) addTool(String(t), `${type} toolset tool`);
  } else {
    addTool(base, `cagent ${type} toolset${ts.ref ? ` ${String(ts.ref)}` : ''}`);
  }
  for (const k of Object.keys(ts).sort()) {
    if (k === 'type' || k === 'tools' || (k === 'ref' && type === 'mcp')) continue;
    src.dropped.push({
      file,
      field: `${field}.${k}`,
      reason: 'toolset configuration (how the tools are provided) is deployment detail, not part of a tool contract',
    });
  }
  return names;
}
