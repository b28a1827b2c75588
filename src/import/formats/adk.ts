/**
 * Google ADK agent config (`root_agent.yaml`): one agent per file — `name`,
 * `description`, `model`, `instruction`, `tools` (`- name: …`), and `sub_agents`
 * as `- config_path: other.yaml` (relative to the file) or `- code: module.attr`.
 * `agent_class` is LlmAgent (default) or a workflow agent (SequentialAgent,
 * ParallelAgent, LoopAgent); a tool `AgentTool` with `args.agent.config_path` is
 * an agent used as a tool, i.e. a sub-agent. Invariant: config paths are followed to any depth,
 * each file read once (a path cycle is reported, not looped); every key agentc
 * does not carry over is reported.
 */
import { dirname, join } from 'node:path';
import { collectFiles, parseYaml, readText, shownPath, type InputFile } from '../read.js';
import { emptySource, isRecord, stringField, takeMaxTokens, uniqueKey, type ImportSource } from '../types.js';

const KEPT = new Set(['name', 'description', 'model', 'instruction', 'tools', 'sub_agents', 'agent_class']);
const DROPPED: Record<string, string> = {
  input_schema: "not converted: declare the handoff fields as the card's `input`",
  output_schema: "not converted: declare the result as the card's `output`",
  output_key: 'ADK session state has no agentc equivalent',
  include_contents: 'history inclusion is a runtime setting',
  disallow_transfer_to_parent: 'agentc sub-agents always answer their caller',
  disallow_transfer_to_peers: 'agentc sub-agents never transfer to peers',
  max_iterations: 'LoopAgent iteration count: agentc has no loop agent',
  static_instruction: 'not merged: copy it into a block if the agent needs it',
  global_instruction: 'applies to the whole tree in ADK; make it a required platform block instead',
  model_code: 'a model built by code cannot be read statically',
};

export function importAdk(cwd: string, paths: readonly string[]): ImportSource {
  const src = emptySource();
  const given = collectFiles(cwd, paths, (n) => /\.ya?ml$/.test(n), src.problems);
  // root_agent.yaml files first, so that agents are met through their parents (each file is read once).
  const isRoot = (f: InputFile) => (f.abs.endsWith('/root_agent.yaml') || f.abs.endsWith('/root_agent.yml') ? 0 : 1);
  const roots = [...given].sort((a, b) => isRoot(a) - isRoot(b));
  const keyByPath = new Map<string, string | null>();

  const visit = (file: InputFile, from: string | undefined): string | undefined => {
    const known = keyByPath.get(file.abs);
    if (known === null) {
      src.problems.push({ file: from ?? file.shown, message: `sub_agents config paths form a cycle through ${file.shown}` });
      return undefined;
    }
    if (known !== undefined) return known;
    const text = readText(file, src.problems);
    if (text === undefined) return undefined;
    src.files.push(file.shown);
    keyByPath.set(file.abs, null);
    const d = parseYaml(text, file.shown, src.problems);
    if (!isRecord(d)) {
      if (d !== undefined) src.problems.push({ file: file.shown, message: 'not an ADK agent config: the file is not a mapping' });
      keyByPath.delete(file.abs);
      return undefined;
    }
    const stem = file.shown
      .split('/')
      .pop()!
      .replace(/\.ya?ml$/, '');
    const name = typeof d.name === 'string' && d.name !== '' ? d.name : stem;
    if (name === stem && d.name !== stem)
      src.dropped.push({ file: file.shown, field: 'name', reason: `${d.name === undefined ? 'missing' : 'not a name'}: used the file name "${stem}"` });
    const key = uniqueKey(src, name, file.shown);
    const agentClass = typeof d.agent_class === 'string' ? d.agent_class : 'LlmAgent';
    if (agentClass !== 'LlmAgent' && agentClass !== 'Agent') {
      src.dropped.push({
        file: file.shown,
        field: 'agent_class',
        reason: `${agentClass} runs its sub-agents in a fixed order or loop; agentc's orchestrator lets its model route (imported as an orchestrator over the same sub-agents)`,
      });
    }
    for (const f of ['tools', 'sub_agents'])
      if (d[f] !== undefined && !Array.isArray(d[f])) src.dropped.push({ file: file.shown, field: f, reason: 'not a list' });
    const tools: string[] = [];
    const agentToolSubs: string[] = [];
    for (const [i, t] of (Array.isArray(d.tools) ? d.tools : []).entries()) {
      const tname = isRecord(t) && typeof t.name === 'string' ? t.name : typeof t === 'string' ? t : undefined;
      if (!tname) {
        src.dropped.push({ file: file.shown, field: `tools[${i}]`, reason: 'a tool entry without a name' });
        continue;
      }
      const short = tname.split('.').pop()!;
      // AgentTool wraps another agent config: in agentc that is a sub-agent.
      const agentArg = isRecord(t) && isRecord(t.args) && isRecord(t.args.agent) ? t.args.agent : undefined;
      if (short === 'AgentTool' && agentArg && typeof agentArg.config_path === 'string') {
        const abs = join(dirname(file.abs), agentArg.config_path);
        const sub = visit({ abs, shown: shownPath(cwd, abs) }, file.shown);
        if (sub !== undefined && !agentToolSubs.includes(sub)) agentToolSubs.push(sub);
        for (const k of Object.keys((t as { args: Record<string, unknown> }).args).sort()) {
          if (k !== 'agent') src.dropped.push({ file: file.shown, field: `tools[${i}].args.${k}`, reason: 'an AgentTool option with no agentc equivalent' });
        }
        continue;
      }
      tools.push(short);
      if (!src.tools.some((x) => x.name === short)) src.tools.push({ name: short, description: `ADK tool ${tname}`, file: file.shown });
      if (isRecord(t) && t.args !== undefined)
        src.dropped.push({ file: file.shown, field: `tools[${i}].args`, reason: 'arguments that construct the tool are implementation detail' });
    }
    const subAgents: string[] = [];
    for (const [i, s] of (Array.isArray(d.sub_agents) ? d.sub_agents : []).entries()) {
      if (isRecord(s) && typeof s.config_path === 'string') {
        const abs = join(dirname(file.abs), s.config_path);
        const sub = visit({ abs, shown: shownPath(cwd, abs) }, file.shown);
        if (sub !== undefined && !subAgents.includes(sub)) subAgents.push(sub);
      } else {
        const what = isRecord(s) && typeof s.code === 'string' ? `code reference "${s.code}"` : 'entry';
        src.dropped.push({ file: file.shown, field: `sub_agents[${i}]`, reason: `a ${what} is defined in Python and cannot be read statically` });
      }
    }
    if (subAgents.length > 0 && (agentClass === 'LlmAgent' || agentClass === 'Agent')) {
      src.dropped.push({
        file: file.shown,
        field: 'sub_agents',
        reason:
          'an ADK LlmAgent transfers the conversation to a sub-agent (transfer_to_agent); agentc calls a sub-agent as a tool and gets its answer back (imported as sub_agents)',
      });
    }
    for (const sub of agentToolSubs) if (!subAgents.includes(sub)) subAgents.push(sub);
    // ADK fills {state_key}, {app:key}, {artifact.name} and {key?} from session state at run time.
    const instruction = typeof d.instruction === 'string' ? d.instruction : '';
    for (const v of new Set(instruction.match(/(?<!\{)\{[A-Za-z_][\w.:]*\??\}(?!\})/g) ?? [])) {
      src.dropped.push({
        file: file.shown,
        field: 'instruction',
        reason: `ADK fills ${v} from session state at run time; agentc keeps it as literal text (per-request values belong in config.dynamicContext)`,
      });
    }
    let model: string | undefined;
    if (typeof d.model === 'string') model = d.model;
    else if (d.model !== undefined) src.dropped.push({ file: file.shown, field: 'model', reason: 'not a model name' });
    const maxOutputTokens = takeMaxTokens(src, file.shown, 'generate_content_config', d.generate_content_config, 'max_output_tokens');
    for (const k of Object.keys(d).sort()) {
      if (KEPT.has(k) || k === 'generate_content_config') continue;
      src.dropped.push({
        file: file.shown,
        field: k,
        reason:
          DROPPED[k] ?? (k.endsWith('_callbacks') ? 'callbacks run Python code; agentc never executes user code' : 'an ADK setting with no agentc equivalent'),
      });
    }
    src.agents.push({
      key,
      name,
      file: file.shown,
      description: stringField(src, file.shown, 'description', d.description),
      instructions: stringField(src, file.shown, 'instruction', d.instruction),
      model,
      tools,
      subAgents,
      ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
    });
    keyByPath.set(file.abs, key);
    return key;
  };
  for (const f of roots) visit(f, undefined);
  return src;
}
