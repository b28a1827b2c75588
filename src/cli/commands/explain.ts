/**
 * `agentc explain <rule|code>`: prints a rule's documentation page
 * (docs/rules/<rule-id>.md, shipped in the package) for a terminal.
 * Invariant: an unknown name is a usage error (exit 2) with a did-you-mean over
 * rule ids and codes; a known rule whose page is missing is an agentc bug.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { CATALOG, RULE_IDS, isRuleId, type RuleId } from '../../diagnostics/catalog.js';
import { didYouMean } from '../../diagnostics/did-you-mean.js';
import { EXIT, useColor, type CliIO } from '../io.js';
import { renderMarkdownForTerminal } from '../terminal-markdown.js';

export interface ExplainOptions {
  name: string;
  /** Print the page's markdown unchanged. */
  raw?: boolean;
}

/** docs/ at the package root: three levels up from src/cli/commands or dist/cli/commands. */
export const DOCS_DIR = fileURLToPath(new URL('../../../docs/', import.meta.url));

export function rulePagePath(id: RuleId): string {
  return `${DOCS_DIR}rules/${id}.md`;
}

/** A rule id (any case) or a code (`AGC2001`, `agc2001`) → the rule id. */
export function findRule(name: string): RuleId | undefined {
  const wanted = name.trim().toLowerCase();
  if (isRuleId(wanted)) return wanted;
  return RULE_IDS.find((id) => CATALOG[id].code.toLowerCase() === wanted);
}

export async function explainCommand(opts: ExplainOptions, io: CliIO): Promise<number> {
  const id = findRule(opts.name);
  if (id === undefined) {
    const hint = didYouMean(opts.name, [...RULE_IDS, ...RULE_IDS.map((r) => CATALOG[r].code)]);
    io.stderr(`agentc explain: no rule or code "${opts.name}".${hint === undefined ? '' : ` ${hint}`}\nRun agentc rules for the list.\n`);
    return EXIT.failure;
  }
  const page = await readFile(rulePagePath(id), 'utf8');
  io.stdout(opts.raw === true ? page : renderMarkdownForTerminal(page, useColor(io)));
  return EXIT.ok;
}
