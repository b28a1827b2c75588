/**
 * `--format text`: plain lines for a terminal or a log. Summary, then one line
 * per change (most severe first), the token table, then each changed prompt's
 * unified diff. Colour (ANSI) only when asked for; without it, the output is
 * plain ASCII-safe text apart from the arrows and signs.
 */
import {
  budgetText,
  cacheLost,
  changesAt,
  entryLabel,
  entryStatus,
  hasChanges,
  promptDiffGroups,
  sidesText,
  summaryText,
  tokenRange,
  type RenderOptions,
} from './render-common.js';
import { signed, signedTokens } from './prompts.js';
import { CHANGE_LEVELS, type BundleDiff } from './types.js';

export interface TextOptions extends RenderOptions {
  color?: boolean;
}

const ANSI = { red: '\u001b[31m', yellow: '\u001b[33m', green: '\u001b[32m', cyan: '\u001b[36m', bold: '\u001b[1m', reset: '\u001b[0m' };

export function renderText(diff: BundleDiff, options: TextOptions = {}): string {
  const paint = (code: keyof typeof ANSI, s: string) => (options.color ? `${ANSI[code]}${s}${ANSI.reset}` : s);
  const sides = sidesText(options);
  if (!hasChanges(diff)) return `${sides ? `${sides}: ` : ''}No changes.\n`;

  const lines: string[] = [`agentc diff: ${summaryText(diff)}`];
  if (sides) lines.push(sides);
  const levelColor = { breaking: 'red', dangerous: 'yellow', safe: 'green' } as const;
  for (const level of CHANGE_LEVELS) {
    const changes = changesAt(diff, level);
    if (changes.length === 0) continue;
    lines.push('');
    for (const c of changes) lines.push(`${paint(levelColor[level], level.padEnd(9))} ${c.agent}: ${c.path}: ${c.message}`);
  }

  lines.push('', 'Prompt tokens (default cohort) and prompt cache:');
  for (const [id, a] of Object.entries(diff.agents)) {
    const budget = budgetText(a);
    const cache = cacheLost(a);
    lines.push(`  ${id} (${a.status}): ${tokenRange(a)} (${signed(a.tokenDelta)}${budget ? `, ${budget}` : ''})${cache ? `; cache lost: ${cache}` : ''}`);
  }

  for (const { first, same } of promptDiffGroups(diff)) {
    const c = first.cohort;
    lines.push('', paint('bold', `${entryLabel(first)} (${entryStatus(first)}) ${signedTokens(c.tokenDelta)}`));
    if (same.length > 0) lines.push(`same edit in: ${same.map((e) => `${entryLabel(e)} (${signed(e.cohort.tokenDelta)})`).join(', ')}`);
    for (const l of c.unifiedDiff.replace(/\n$/, '').split('\n')) {
      if (l.startsWith('+') && !l.startsWith('+++')) lines.push(paint('green', l));
      else if (l.startsWith('-') && !l.startsWith('---')) lines.push(paint('red', l));
      else if (l.startsWith('@@')) lines.push(paint('cyan', l));
      else lines.push(l);
    }
  }
  return `${lines.join('\n')}\n`;
}
