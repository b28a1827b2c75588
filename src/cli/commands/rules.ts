/**
 * `agentc rules`: the rule catalog, grouped as in docs/rules/README.md — code, rule id,
 * default severity, the invariant each rule enforces, and every message and
 * hint template it can produce (`{key}` is filled from the diagnostic's data).
 */
import { CATALOG, isDefaultOff, RULE_IDS, type RuleId, ruleTemplates } from '../../diagnostics/catalog.js';
import { paint } from '../../diagnostics/render/ansi.js';
import { EXIT, useColor, type CliIO } from '../io.js';
import { workspaceRuleSettings, type RuleSettings } from '../workspace-rules.js';

export type RulesFormat = 'text' | 'json' | 'markdown';
export const RULES_FORMATS: readonly RulesFormat[] = ['text', 'json', 'markdown'];

export interface RulesOptions {
  format: RulesFormat;
  /** A workspace root: show the severities its config puts in effect (marked `*`). */
  root?: string;
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
  'eval-suites': 'Eval suites',
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
  let settings: RuleSettings = {};
  if (opts.root !== undefined) {
    const ws = await workspaceRuleSettings(opts.root);
    if (ws.problem !== undefined) io.stderr(`agentc rules: ${ws.configPath} could not be read (${ws.problem}); showing the default severities.\n`);
    settings = ws.settings;
  }
  switch (opts.format) {
    case 'text':
      io.stdout(renderRulesText(useColor(io), settings));
      return EXIT.ok;
    case 'json':
      io.stdout(renderRulesJson(settings));
      return EXIT.ok;
    case 'markdown':
      io.stdout(renderRulesMarkdown(settings));
      return EXIT.ok;
    default:
      io.stderr(`agentc rules: unknown format "${String(opts.format)}"; use one of ${RULES_FORMATS.join(', ')}.\n`);
      return EXIT.failure;
  }
}

/** The severity in effect and whether the workspace's config set it (a rule off by default shows `off` until a config turns it on). */
function effective(id: RuleId, settings: RuleSettings): { severity: string; configured: boolean } {
  const set = settings[id];
  if (set !== undefined) return { severity: set, configured: true };
  return { severity: isDefaultOff(id) ? 'off' : CATALOG[id].severity, configured: false };
}

function severityNote(settings: RuleSettings): string {
  return Object.keys(settings).length === 0
    ? `Severities are defaults. ${CONFIG_NOTE}`
    : 'Severities in effect for this workspace; * marks one its agentc.config.ts sets (the rest are defaults).';
}

export function renderRulesText(color: boolean, settings: RuleSettings = {}): string {
  const p = paint(color);
  const ruleWidth = Math.max(...RULE_IDS.map((id) => id.length));
  const out: string[] = [];
  for (const g of groupedRules()) {
    out.push(p.bold(g.title));
    for (const id of g.rules) {
      const e = CATALOG[id];
      const now = effective(id, settings);
      const sev = `${now.severity}${now.configured ? '*' : ''}`.padEnd(8);
      const shown = now.severity === 'error' ? p.red(sev) : now.severity === 'warning' ? p.yellow(sev) : p.grey(sev);
      out.push(`  ${p.grey(e.code)}  ${id.padEnd(ruleWidth)}  ${shown}  ${e.summary}`);
      const t = ruleTemplates(id);
      const indent = ' '.repeat(ruleWidth + 22);
      for (const m of Object.values(t.messages)) out.push(`${indent}${p.grey('message')} ${oneLine(m)}`);
      for (const h of Object.values(t.hints)) out.push(`${indent}${p.grey('hint')}    ${oneLine(h)}`);
    }
    out.push('');
  }
  out.push(`${RULE_IDS.length} rules. ${severityNote(settings)}`);
  return out.join('\n') + '\n';
}

export function renderRulesJson(settings: RuleSettings = {}): string {
  const rules = groupedRules().flatMap((g) =>
    g.rules.map((id) => {
      const e = CATALOG[id];
      const now = effective(id, settings);
      const t = ruleTemplates(id);
      return {
        code: e.code,
        rule: id,
        group: g.group,
        groupTitle: g.title,
        severity: now.severity,
        defaultSeverity: e.severity,
        configured: now.configured,
        summary: e.summary,
        messages: t.messages,
        hints: t.hints,
      };
    }),
  );
  return JSON.stringify({ formatVersion: '1', rules }, null, 2) + '\n';
}

export function renderRulesMarkdown(settings: RuleSettings = {}): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const note = severityNote(settings)
    .replace("rules: { 'volatile-in-prefix': 'off' }", "`rules: { 'volatile-in-prefix': 'off' }`")
    .replace('* marks', '\\* marks');
  const out = ['# agentc rules', '', note, ''];
  for (const g of groupedRules()) {
    out.push(`## ${g.title}`, '', '| Code | Rule | Severity | Enforces | Messages | Hints |', '| --- | --- | --- | --- | --- | --- |');
    for (const id of g.rules) {
      const e = CATALOG[id];
      const now = effective(id, settings);
      const t = ruleTemplates(id);
      const list = (xs: string[]) => xs.map((x) => cell(oneLine(x))).join('<br>');
      out.push(
        `| ${e.code} | \`${id}\` | ${now.severity}${now.configured ? '\\*' : ''} | ${cell(e.summary)} | ${list(Object.values(t.messages))} | ${list(Object.values(t.hints))} |`,
      );
    }
    out.push('');
  }
  return out.join('\n').replace(/\n+$/, '') + '\n';
}

/** A template on one line (multi-line hints show their breaks as ⏎). */
function oneLine(s: string): string {
  return s.replace(/\n/g, ' ⏎ ');
}
