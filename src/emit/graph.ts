/**
 * The orchestration graph (`agentc graph`): one node per agent, one node per tool
 * contract, a solid edge per sub-agent tool (labelled with the tool name the
 * model calls, e.g. ask_rewards) and a dashed edge per tool an agent calls.
 * Envelope-backed tools (context service) are drawn as cylinders.
 * Deterministic: agents in id order, edges in each agent's tool order.
 */
import type { Bundle } from '../bundle/types.js';
import { compareCodeUnits } from '../bundle/canonical-json.js';

export type GraphFormat = 'mermaid' | 'dot';

interface GraphModel {
  agents: { id: string; label: string; role: string }[];
  tools: { name: string; envelope: boolean }[];
  edges: { from: string; to: string; kind: 'sub_agent' | 'tool'; label: string }[];
}

export function renderGraph(bundle: Bundle, format: GraphFormat): string {
  const model = graphModel(bundle);
  return format === 'dot' ? renderDot(model) : renderMermaid(model);
}

function graphModel(bundle: Bundle): GraphModel {
  const ids = Object.keys(bundle.agents).sort(compareCodeUnits);
  const agents = ids.map((id) => {
    const a = bundle.agents[id]!;
    return { id, role: a.role, label: `${a.role} · ${a.model || 'no model'}` };
  });
  const tools = new Map<string, boolean>();
  const edges: GraphModel['edges'] = [];
  for (const id of ids) {
    for (const [toolName, entry] of Object.entries(bundle.agents[id]!.dispatch.table)) {
      if (entry.kind === 'sub_agent') edges.push({ from: id, to: entry.agent, kind: 'sub_agent', label: toolName });
      else {
        tools.set(entry.tool, entry.envelope);
        edges.push({ from: id, to: entry.tool, kind: 'tool', label: toolName });
      }
    }
  }
  // The table's key order is sorted; show edges in the agent's tool order instead.
  const order = new Map<string, number>();
  for (const id of ids) bundle.agents[id]!.tools.neutral.forEach((t, i) => order.set(`${id}\0${t.name}`, i));
  edges.sort((a, b) =>
    a.from !== b.from ? compareCodeUnits(a.from, b.from) : (order.get(`${a.from}\0${a.label}`) ?? 0) - (order.get(`${b.from}\0${b.label}`) ?? 0),
  );
  return {
    agents,
    tools: [...tools].sort((a, b) => compareCodeUnits(a[0], b[0])).map(([name, envelope]) => ({ name, envelope })),
    edges,
  };
}

/** Mermaid node ids: prefixed (agents and tools may share a name; `end` is reserved) and unique. */
function idAllocator(): (kind: 'a' | 't', name: string) => string {
  const ids = new Map<string, string>();
  const used = new Set<string>();
  return (kind, name) => {
    const key = `${kind}:${name}`;
    let id = ids.get(key);
    if (id === undefined) {
      const base = `${kind}_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
      id = base;
      for (let i = 2; used.has(id); i++) id = `${base}_${i}`;
      used.add(id);
      ids.set(key, id);
    }
    return id;
  };
}

function renderMermaid(g: GraphModel): string {
  const id = idAllocator();
  const q = (s: string): string => `"${s.replace(/"/g, '#quot;')}"`;
  const lines = ['flowchart LR'];
  for (const a of g.agents) {
    const text = q(`<b>${a.id}</b><br/>${a.label}`);
    lines.push(a.role === 'orchestrator' ? `  ${id('a', a.id)}[[${text}]]` : `  ${id('a', a.id)}(${text})`);
  }
  for (const t of g.tools) lines.push(t.envelope ? `  ${id('t', t.name)}[(${q(t.name)})]` : `  ${id('t', t.name)}[/${q(t.name)}/]`);
  for (const e of g.edges) {
    lines.push(e.kind === 'sub_agent' ? `  ${id('a', e.from)} -->|${q(e.label)}| ${id('a', e.to)}` : `  ${id('a', e.from)} -.-> ${id('t', e.to)}`);
  }
  return `${lines.join('\n')}\n`;
}

function renderDot(g: GraphModel): string {
  const q = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const lines = ['digraph agentc {', '  rankdir=LR;', '  node [fontname="Helvetica", fontsize=11];', '  edge [fontname="Helvetica", fontsize=10];'];
  for (const a of g.agents) {
    const style = a.role === 'orchestrator' ? 'rounded,bold' : 'rounded';
    lines.push(`  ${q(`agent:${a.id}`)} [label=${q(`${a.id}\n${a.label}`).replace(/\n/g, '\\n')}, shape=box, style=${q(style)}];`);
  }
  for (const t of g.tools) lines.push(`  ${q(`tool:${t.name}`)} [label=${q(t.name)}, shape=${t.envelope ? 'cylinder' : 'ellipse'}];`);
  for (const e of g.edges) {
    lines.push(
      e.kind === 'sub_agent'
        ? `  ${q(`agent:${e.from}`)} -> ${q(`agent:${e.to}`)} [label=${q(e.label)}];`
        : `  ${q(`agent:${e.from}`)} -> ${q(`tool:${e.to}`)} [style=dashed];`,
    );
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
