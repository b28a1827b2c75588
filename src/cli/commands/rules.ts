/**
 * `agentc rules`: the rule catalog, grouped as in docs/rules/README.md — code, rule id,
 * default severity, and the invariant each rule enforces.
 */
import { CATALOG, RULE_IDS, type RuleId } from '../../diagnostics/catalog.js';
import { paint } from '../../diagnostics/render/ansi.js';
import { EXIT, useColor, type CliIO } from '../io.js';

export type RulesFormat = 'text' | 'json' | 'markdown';
export const RULES_FORMATS: readonly RulesFormat[] = ['text', 'json', 'markdown'];

export interface RulesOptions {
  format: RulesFormat;
}

/** Headings of the catalog's groups, in the order of docs/rules/README.md. */
const GROUP_TITLES: Record<string, string> = {
  parsing: 'Parsing and shape',
  references: 'References',
  platform: 'Platform contract',
  orchestration: 'Orchestration',
  budgets: 'Budgets',
  templates: 'Templates and caching',
  hygiene: 'Hygiene',
};

export interface RuleGroup {
  group: string;
  title: string;
  rules: RuleId[];
}

/** Groups in the order they first appear in the catalog; rules by code within a group. */
export function groupedRules(): RuleGroup[] {
  const groups = new Map<string, RuleGroup>();
  for (const id of RULE_IDS) {
    const group = CATALOG[id].group;
    let g = groups.get(group);
    if (!g) {
      g = { group, title: GROUP_TITLES[group] ?? group.charAt(0).toUpperCase() + group.slice(1), rules: [] };
      groups.set(group, g);
    }
    g.rules.push(id);
  }
  for (const g of groups.values()) g.rules.sort((a, b) => (CATALOG[a].code < CATALOG[b].code ? -1 : 1));
  return [...groups.values()];
}

const CONFIG_NOTE = "A workspace may change a rule's severity or turn it off in agentc.config.ts, e.g. rules: { 'volatile-in-prefix': 'off' }.";

export async function rulesCommand(opts: RulesOptions, io: CliIO): Promise<number> {
  switch (opts.format) {
    case 'text':
      io.stdout(renderRulesText(useColor(io)));
      return EXIT.ok;
    case 'json':
      io.stdout(renderRulesJson());
      return EXIT.ok;
    case 'markdown':
      io.stdout(renderRulesMarkdown());
      return EXIT.ok;
    default:
      io.stderr(`agentc rules: unknown format "${String(opts.format)}"; use one of ${RULES_FORMATS.join(', ')}.\n`);
      return EXIT.failure;
  }
}

export function renderRulesText(color: boolean): string {
  const p = paint(color);
  const ruleWidth = Math.max(...RULE_IDS.map((id) => id.length));
  const out: string[] = [];
  for (const g of groupedRules()) {
    out.push(p.bold(g.title));
    for (const id of g.rules) {
      const e = CATALOG[id];
      const sev = e.severity.padEnd(7);
      out.push(`  ${p.grey(e.code)}  ${id.padEnd(ruleWidth)}  ${e.severity === 'error' ? p.red(sev) : p.yellow(sev)}  ${e.summary}`);
    }
    out.push('');
  }
  out.push(`${RULE_IDS.length} rules. Severities are defaults. ${CONFIG_NOTE}`);
  return out.join('\n') + '\n';
}

export function renderRulesJson(): string {
  const rules = groupedRules().flatMap((g) =>
    g.rules.map((id) => {
      const e = CATALOG[id];
      return { code: e.code, rule: id, group: g.group, groupTitle: g.title, severity: e.severity, summary: e.summary };
    }),
  );
  return JSON.stringify({ formatVersion: '1', rules }, null, 2) + '\n';
}

export function renderRulesMarkdown(): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const out = ['# agentc rules', '', `Severities are defaults. ${CONFIG_NOTE.replace("rules: { 'volatile-in-prefix': 'off' }", "`rules: { 'volatile-in-prefix': 'off' }`")}`, ''];
  for (const g of groupedRules()) {
    out.push(`## ${g.title}`, '', '| Code | Rule | Severity | Enforces |', '| --- | --- | --- | --- |');
    for (const id of g.rules) {
      const e = CATALOG[id];
      out.push(`| ${e.code} | \`${id}\` | ${e.severity} | ${cell(e.summary)} |`);
    }
    out.push('');
  }
  return out.join('\n').replace(/\n+$/, '') + '\n';
}
