/**
 * Claude Code subagents: `.claude/agents/*.md`, YAML front matter (`name`,
 * `description`, optional `tools` — comma-separated or a list; absent means the
 * agent inherits every tool of the main thread —, `model`) and a Markdown body
 * that is the system prompt. Invariant: every other front-matter key is reported.
 */
import { collectFiles, readText, splitFrontMatter } from '../read.js';
import { emptySource, isRecord, stringField, uniqueKey, type ImportSource } from '../types.js';

const DROPPED_REASONS: Record<string, string> = {
  disallowedTools: 'agentc lists the tools a card may use; a deny list has no equivalent',
  permissionMode: 'Claude Code permission modes are a client setting, not part of an agent contract',
  skills: 'Claude Code skills are loaded by the client; agentc has no skills',
  hooks: 'hooks run client-side code; agentc never executes user code from a card',
  mcpServers: 'MCP server wiring is deployment configuration; declare the tools you need as contracts',
  memory: 'persistent memory is a client feature with no agentc equivalent',
  color: 'display colour of the Claude Code UI',
  maxTurns: 'use policy.max_tool_calls / time_budget_ms in the card instead (not converted automatically)',
  background: 'background execution is a client setting',
  isolation: 'worktree isolation is a client setting',
  effort: 'not converted: set tuning.reasoning_effort in the card if wanted',
};

export function importClaudeCode(cwd: string, paths: readonly string[]): ImportSource {
  const src = emptySource();
  for (const file of collectFiles(cwd, paths, (n) => n.endsWith('.md'), src.problems)) {
    const text = readText(file, src.problems);
    if (text === undefined) continue;
    src.files.push(file.shown);
    const fm = splitFrontMatter(text, file.shown, src.problems, file.walked ? src.skipped : src.problems);
    if (!fm) continue;
    if (!isRecord(fm.data)) {
      // undefined: the YAML did not parse, already reported.
      if (fm.data !== undefined) src.problems.push({ file: file.shown, message: 'the front matter is not a mapping' });
      continue;
    }
    const d = fm.data;
    // Claude Code requires name and description: other Markdown met while walking a directory (docs) is not an agent.
    if (file.walked && (typeof d.name !== 'string' || typeof d.description !== 'string')) {
      src.skipped.push({ file: file.shown, message: 'front matter without name and description: not a Claude Code subagent' });
      continue;
    }
    const stem = file.shown.split('/').pop()!.replace(/\.md$/, '');
    const name = typeof d.name === 'string' && d.name.trim() !== '' ? d.name.trim() : stem;
    if (typeof d.name !== 'string')
      src.dropped.push({ file: file.shown, field: 'name', reason: `${d.name === undefined ? 'missing' : 'not a string'}: used the file name "${stem}"` });
    const tools: string[] = [];
    if (d.tools === undefined) {
      src.dropped.push({
        file: file.shown,
        field: 'tools',
        reason:
          'absent: Claude Code gives the agent every tool of the main thread; agentc has no "all tools", so the card has none — add the contracts it needs',
      });
    } else {
      const list = Array.isArray(d.tools) ? d.tools.map(String) : String(d.tools).split(',');
      for (const t of list.map((s) => s.trim()).filter((s) => s !== '')) {
        if (!tools.includes(t)) tools.push(t);
        if (!src.tools.some((x) => x.name === t)) src.tools.push({ name: t, description: `Claude Code tool ${t}`, file: file.shown });
      }
    }
    let model = stringField(src, file.shown, 'model', d.model)?.trim();
    if (model === 'inherit') {
      src.dropped.push({
        file: file.shown,
        field: 'model',
        reason: '"inherit" (use the main conversation\'s model) has no equivalent: a card names its model',
      });
      model = undefined;
    }
    for (const key of Object.keys(d).sort()) {
      if (['name', 'description', 'tools', 'model'].includes(key)) continue;
      src.dropped.push({ file: file.shown, field: key, reason: DROPPED_REASONS[key] ?? "not part of agentc's card format" });
    }
    src.agents.push({
      key: uniqueKey(src, name, file.shown),
      name,
      file: file.shown,
      description: stringField(src, file.shown, 'description', d.description),
      instructions: fm.body,
      model,
      tools,
      subAgents: [],
    });
  }
  return src;
}
