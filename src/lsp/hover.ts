/** Hover text (markdown) for a symbol: what it costs in tokens and who uses it. */
import { buildRenderContext } from '../resolve/context.js';
import { countTokens, ENCODINGS } from '../tokenize/index.js';
import type { Program } from '../resolve/types.js';
import type { SymbolRef } from './symbols.js';

export function hoverText(program: Program, ref: SymbolRef): string | undefined {
  if (ref.kind === 'block') return blockHover(program, ref.id);
  if (ref.kind === 'card') return cardHover(program, ref.id);
  if (ref.kind === 'tool') return toolHover(program, ref.id);
  if (ref.kind === 'model') return `**model** \`${ref.id}\` (agentc.config.ts)\n\n${JSON.stringify(program.config.data.models[ref.id])}`;
  if (ref.kind === 'flag') return `**feature flag** \`${ref.id}\``;
  return `**status event** \`${ref.id}\``;
}

function blockHover(program: Program, id: string): string | undefined {
  const b = program.blocks.get(id);
  if (!b) return undefined;
  const lines = [`**block** \`${id}\` — ${b.data.category}, owner \`${b.data.owner}\`${b.data.feature_flag ? `, flag \`${b.data.feature_flag}\`` : ''}`, ''];
  lines.push(`Source tokens: ${ENCODINGS.map((e) => `${countTokens(b.body.trim(), e)} tokens (${e})`).join(', ')}`);
  const users: string[] = [];
  for (const [agentId, agent] of program.agents) {
    const rendered = agent.cohorts[0]?.blocks.find((r) => r.block === b);
    if (agent.blocks.some((r) => r.block === b)) users.push(`- \`${agentId}\`${rendered ? `: ${rendered.tokens} tokens rendered (${agent.encoding})` : ''}`);
  }
  lines.push('', users.length ? `Used by:\n${users.join('\n')}` : 'Used by no agent.');
  return lines.join('\n');
}

function cardHover(program: Program, id: string): string | undefined {
  const agent = program.agents.get(id);
  if (!agent) return undefined;
  const budget = agent.card.data.policy?.token_budget?.input;
  const window = agent.model?.contextWindow;
  const lines = [`**agent** \`${id}\` — model \`${agent.modelId ?? '?'}\` (${agent.encoding})`, '', 'Prefix tokens per cohort:'];
  for (const c of agent.cohorts)
    lines.push(`- ${c.key || 'default'}: ${c.tokens}${budget !== undefined ? ` / budget ${budget}` : ''}${window !== undefined ? ` / window ${window}` : ''}`);
  for (const parentId of program.parents.get(id) ?? []) {
    const tool = program.agents.get(parentId)?.tools.find((t) => t.agent === agent.card);
    if (tool) lines.push('', `As \`${parentId}\`'s model sees it: \`${tool.name}\` — ${tool.description}`);
  }
  return lines.join('\n');
}

function toolHover(program: Program, id: string): string | undefined {
  const t = program.tools.get(id);
  if (!t) return undefined;
  return [`**tool** \`${id}\``, '', t.data.description, '', '```json', JSON.stringify(t.data.parameters, null, 2), '```'].join('\n');
}

/**
 * `{{path}}` in a block: the value it renders for each agent that uses the block
 * (default cohort). Only root paths: a read inside `#each`/`#with` depends on the
 * iteration and is described as such.
 */
export function templateHover(program: Program, blockPath: string, expression: string): string | undefined {
  const block = [...program.blocks.values()].find((b) => b.file.path === blockPath);
  const path = /^[#/^]?\s*(?:\w+\s+)?([A-Za-z_][\w.]*)\s*$/.exec(expression.trim())?.[1];
  if (!block || !path || /^(this|else)\b/.test(path)) return undefined;
  const lines = [`\`{{${path}}}\` renders:`];
  for (const [id, agent] of program.agents) {
    if (!agent.blocks.some((r) => r.block === block)) continue;
    const ctx = buildRenderContext({
      card: agent.card.data,
      subAgents: agent.subAgents.map((c) => c.data),
      tools: agent.tools.flatMap((t) => (t.tool ? [t.tool.data] : [])),
      config: program.config.data,
      modelId: agent.modelId,
      model: agent.model,
      encoding: agent.encoding,
      flagsOn: [],
      dispatch: agent.dispatch,
    });
    let value: unknown = ctx;
    for (const part of path.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
    const shown = value === undefined ? '(empty)' : typeof value === 'string' ? value : JSON.stringify(value);
    lines.push(`- \`${id}\`: ${shown.length > 200 ? `${shown.slice(0, 200)}…` : shown}`);
  }
  if (lines.length === 1) lines.push('(no agent uses this block)');
  if (program.config.data.dynamicContext.fields.includes(path.split('.')[0]!)) lines.push('', 'A per-request field: filled at run time.');
  return lines.join('\n');
}
