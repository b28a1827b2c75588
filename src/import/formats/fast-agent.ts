/**
 * fast-agent AgentCards: Markdown with YAML front matter (the body is the
 * instruction) or YAML with `instruction:`. `type` is agent (default), chain
 * (`sequence`), parallel (`fan_out`, `fan_in`), router / orchestrator /
 * iterative_planner (`agents`), evaluator_optimizer (`generator`, `evaluator`);
 * `agents` on a plain agent exposes child agents as tools; `servers` names MCP
 * servers. Invariant: every agent reference becomes a sub-agent, every other key
 * is reported, and fast-agent's own `{{…}}` template variables are kept literally
 * and reported.
 */
import { collectFiles, parseYaml, readText, splitFrontMatter } from '../read.js';
import { emptySource, isRecord, stringField, takeMaxTokens, uniqueKey, type ImportSource } from '../types.js';

const KEPT = new Set([
  'type',
  'name',
  'description',
  'instruction',
  'model',
  'servers',
  'tools',
  'agents',
  'sequence',
  'fan_out',
  'fan_in',
  'generator',
  'evaluator',
]);
const DROPPED: Record<string, string> = {
  default: 'which agent fast-agent starts with: in agentc, the orchestrator is the card with sub_agents',
  use_history: 'conversation history handling is a runtime setting',
  human_input: 'agentc sub-agents cannot ask the user directly',
  skills: 'fast-agent skills have no agentc equivalent',
  messages: 'seeded conversation history has no agentc equivalent',
  resources: 'MCP resources have no agentc equivalent',
  prompts: 'MCP prompts have no agentc equivalent',
  cumulative: 'chain accumulation is a workflow setting',
  max_refinements: 'evaluator-optimizer loop settings have no equivalent',
  min_rating: 'evaluator-optimizer loop settings have no equivalent',
  plan_type: 'orchestrator planning mode',
  plan_iterations: 'orchestrator planning limit',
  api_key: 'credentials never go in a card',
  shell: 'shell access is a client capability',
};

export function importFastAgent(cwd: string, paths: readonly string[]): ImportSource {
  const src = emptySource();
  const pending: { key: string; refs: string[] }[] = [];
  for (const file of collectFiles(cwd, paths, (n) => /\.(md|markdown|ya?ml)$/.test(n), src.problems)) {
    const text = readText(file, src.problems);
    if (text === undefined) continue;
    src.files.push(file.shown);
    let data: unknown;
    let body: string | undefined;
    if (/\.ya?ml$/.test(file.abs)) data = parseYaml(text, file.shown, src.problems);
    else {
      const fm = splitFrontMatter(text, file.shown, src.problems, file.walked ? src.skipped : src.problems);
      if (!fm) continue;
      data = fm.data;
      body = fm.body;
    }
    if (!isRecord(data)) {
      if (data !== undefined) src.problems.push({ file: file.shown, message: 'not an AgentCard: the card is not a mapping' });
      continue;
    }
    const d = data;
    const type = typeof d.type === 'string' ? d.type : 'agent';
    const stem = file.shown
      .split('/')
      .pop()!
      .replace(/\.[a-z]+$/, '');
    const name = typeof d.name === 'string' && d.name !== '' ? d.name : stem;
    const instruction = stringField(src, file.shown, 'instruction', d.instruction) ?? body;
    if (typeof d.instruction === 'string' && body !== undefined && body.trim() !== '') {
      src.dropped.push({ file: file.shown, field: 'body', reason: 'the card has both an `instruction` field and a body; the field was used' });
    }
    const refs: string[] = [];
    for (const f of ['sequence', 'fan_out', 'fan_in', 'agents', 'generator', 'evaluator']) {
      const v = d[f];
      if (v !== undefined && !Array.isArray(v) && typeof v !== 'string') src.dropped.push({ file: file.shown, field: f, reason: 'not a list of agent names' });
      for (const r of Array.isArray(v) ? v : typeof v === 'string' ? [v] : []) if (!refs.includes(String(r))) refs.push(String(r));
    }
    if (type !== 'agent' && type !== 'custom') {
      src.dropped.push({
        file: file.shown,
        field: 'type',
        reason: `a ${type} workflow fixes how its agents run (order, fan-out, loop); agentc's orchestrator lets its model route (imported as an orchestrator over the same agents)`,
      });
    }
    const tools: string[] = [];
    const addTool = (n: string, description: string) => {
      if (!tools.includes(n)) tools.push(n);
      if (!src.tools.some((t) => t.name === n)) src.tools.push({ name: n, description, file: file.shown });
    };
    const filters = isRecord(d.tools) ? d.tools : {};
    if (d.tools !== undefined && !isRecord(d.tools)) src.dropped.push({ file: file.shown, field: 'tools', reason: 'not a mapping of server → tool names' });
    if (d.servers !== undefined && !Array.isArray(d.servers))
      src.dropped.push({ file: file.shown, field: 'servers', reason: 'not a list of MCP server names' });
    for (const s of Array.isArray(d.servers) ? d.servers.map(String) : []) {
      const only = filters[s];
      if (Array.isArray(only) && only.length > 0) for (const t of only) addTool(String(t), `tool ${String(t)} of MCP server ${s}`);
      else addTool(`mcp_${s}`, `every tool of the MCP server "${s}"`);
    }
    const maxOutputTokens = takeMaxTokens(src, file.shown, 'request_params', d.request_params, 'maxTokens');
    for (const k of Object.keys(d).sort()) {
      if (KEPT.has(k) || k === 'request_params') continue;
      src.dropped.push({ file: file.shown, field: k, reason: DROPPED[k] ?? 'a fast-agent setting with no agentc equivalent' });
    }
    for (const v of new Set((instruction ?? '').match(/\{\{[^{}]*\}\}/g) ?? [])) {
      src.dropped.push({
        file: file.shown,
        field: 'instruction',
        reason: `fast-agent expands ${v} at run time; agentc keeps it as literal text (per-request values belong in config.dynamicContext)`,
      });
    }
    const key = uniqueKey(src, name, file.shown);
    src.agents.push({
      key,
      name,
      file: file.shown,
      description: stringField(src, file.shown, 'description', d.description),
      instructions: instruction,
      model: stringField(src, file.shown, 'model', d.model),
      tools,
      subAgents: [],
      ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
    });
    pending.push({ key, refs });
  }
  // Agents refer to each other by name across files: resolve once all are read.
  for (const { key, refs } of pending) {
    const agent = src.agents.find((a) => a.key === key)!;
    for (const r of refs) agent.subAgents.push(src.agents.find((a) => a.name === r)?.key ?? r);
  }
  return src;
}
