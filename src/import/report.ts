/**
 * The import report: per source file, what became what and what was dropped
 * (with the reason); id changes; guessed models; the check summary. Invariant:
 * every Dropped entry and every problem of the import appears in both the text
 * and the JSON form, grouped by file in reading order.
 */
import type { PlannedWorkspace } from './workspace.js';
import type { ImportFormat, ImportSource } from './types.js';

export interface WrittenFile {
  path: string;
  action: 'create' | 'overwrite' | 'update' | 'unchanged';
}

export interface CheckSummary {
  valid: boolean;
  errorCount: number;
  warningCount: number;
  /** The diagnostics in agentc's text format (one per line), then the count line. */
  text: string;
  diagnostics: unknown[];
}

export interface ImportReport {
  formatVersion: 1;
  format: ImportFormat;
  out: string;
  counts: {
    files: number;
    agents: number;
    blocks: number;
    tools: number;
    contracts: number;
    placeholders: number;
    models: number;
    dropped: number;
    renamedIds: number;
    problems: number;
    skipped: number;
    written: number;
  };
  files: {
    file: string;
    agents: string[];
    dropped: { field: string; reason: string }[];
    notes: { field: string; message: string }[];
    problems: string[];
    skipped: string[];
  }[];
  ids: { kind: 'agent' | 'tool'; source: string; id: string; file: string }[];
  models: { key: string; from: string; provider: string; model: string; contextWindow: number; encoding: string; guessed: true }[];
  written: WrittenFile[];
  check: CheckSummary | null;
}

export function buildReport(
  format: ImportFormat,
  out: string,
  src: ImportSource,
  plan: PlannedWorkspace,
  written: WrittenFile[],
  check: CheckSummary | null,
): ImportReport {
  const order = [...src.files];
  const touch = (f: string) => {
    if (!order.includes(f)) order.push(f);
  };
  for (const d of plan.dropped) touch(d.file);
  for (const n of plan.notes) touch(n.file);
  for (const p of [...src.problems, ...src.skipped]) touch(p.file);
  const files = order.map((file) => ({
    file,
    agents: plan.agents.filter((a) => a.file === file).map((a) => a.id),
    dropped: plan.dropped.filter((d) => d.file === file).map(({ field, reason }) => ({ field, reason })),
    notes: plan.notes.filter((n) => n.file === file).map(({ field, message }) => ({ field, message })),
    problems: src.problems.filter((p) => p.file === file).map((p) => p.message),
    skipped: src.skipped.filter((p) => p.file === file).map((p) => p.message),
  }));
  return {
    formatVersion: 1,
    format,
    out,
    counts: {
      files: src.files.length,
      agents: plan.agents.length,
      blocks: plan.agents.reduce((n, a) => n + a.blocks.length, 0),
      tools: plan.contracts.length + plan.placeholders.length,
      contracts: plan.contracts.length,
      placeholders: plan.placeholders.length,
      models: plan.models.length,
      dropped: plan.dropped.length,
      renamedIds: plan.ids.length,
      problems: src.problems.length,
      skipped: src.skipped.length,
      written: written.filter((w) => w.action !== 'unchanged').length,
    },
    files,
    ids: plan.ids,
    models: plan.models.map((m) => ({
      key: m.key,
      from: m.from,
      provider: m.provider,
      model: m.model,
      contextWindow: m.contextWindow,
      encoding: m.encoding,
      guessed: true as const,
    })),
    written,
    check,
  };
}

export function renderReportText(r: ImportReport): string {
  const c = r.counts;
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  const lines: string[] = [];
  lines.push(
    `agentc import ${r.format}: ${plural(c.files, 'file')} read → ${plural(c.agents, 'agent')}, ${plural(c.blocks, 'block')}, ${plural(c.tools, 'tool contract')} (${c.contracts} with parameters, ${c.placeholders} ${c.placeholders === 1 ? 'placeholder' : 'placeholders'}), ${plural(c.models, 'model')} (guessed); ${plural(c.dropped, 'dropped field')}, ${plural(c.renamedIds, 'renamed id')}, ${plural(c.problems, 'problem')}${c.skipped > 0 ? `, ${c.skipped} skipped` : ''}.`,
  );
  if (r.written.length > 0) {
    lines.push('', `Workspace ${r.out} (${c.written} file${c.written === 1 ? '' : 's'} written):`);
    const note = { create: '', overwrite: '  (overwritten)', update: '  (updated)', unchanged: '  (unchanged)' } as const;
    for (const w of r.written) lines.push(`  ${w.path}${note[w.action]}`);
  }
  if (r.ids.length > 0) {
    lines.push('', "Ids normalized to agentc's rules:");
    for (const i of r.ids) lines.push(`  ${i.kind} ${JSON.stringify(i.source)} (${i.file}) → ${i.id}`);
  }
  if (r.models.length > 0) {
    lines.push('', 'Models added to the registry, GUESSED from the name (check them in agentc.config.ts):');
    for (const m of r.models)
      lines.push(
        `  ${m.key} (from ${JSON.stringify(m.from)}) → ${m.provider} ${m.model}, ${m.contextWindow.toLocaleString('en-US')}-token window, ${m.encoding}`,
      );
  }
  for (const f of r.files) {
    if (f.dropped.length + f.notes.length + f.problems.length + f.skipped.length === 0 && f.agents.length === 0) continue;
    lines.push('', `${f.file}${f.agents.length > 0 ? ` → ${f.agents.join(', ')}` : ''}`);
    for (const p of f.problems) lines.push(`  problem: ${p}`);
    for (const p of f.skipped) lines.push(`  skipped: ${p}`);
    for (const d of f.dropped) lines.push(`  dropped ${d.field}: ${d.reason}`);
    for (const n of f.notes) lines.push(`  note ${n.field}: ${n.message}`);
  }
  if (r.check) lines.push('', 'agentc check on the result:', r.check.text.trimEnd());
  return lines.join('\n') + '\n';
}
