/**
 * `--format markdown`: a PR comment, pasted as is. Order: the summary line, the
 * sides compared, changes grouped by severity, a per-agent table of token deltas
 * and prompt-cache impact, then one collapsible ```diff block per changed prompt.
 *
 * Invariants: user-provided text (messages carry names and values from the
 * workspace) is escaped so it cannot break the markup; each diff sits in a fence
 * longer than any backtick run inside it; the whole comment stays under
 * MAX_COMMENT_CHARS (GitHub rejects comments over 65 536 characters) — prompt
 * diffs that do not fit are listed as omitted, never cut in half.
 */
import { formatInt } from '../diagnostics/format-number.js';
import { cohortName, signed, signedTokens } from './prompts.js';
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
import type { BundleDiff, ChangeLevel } from './types.js';

export interface MarkdownOptions extends RenderOptions {
  /** Upper bound on the comment's length in characters (default 60 000). */
  maxChars?: number;
}

export const MAX_COMMENT_CHARS = 60_000;

const HEADINGS: Record<ChangeLevel, string> = {
  breaking: '🔴 Breaking',
  dangerous: '🟡 Dangerous',
  safe: '🟢 Safe',
};

export function renderMarkdown(diff: BundleDiff, options: MarkdownOptions = {}): string {
  const sides = sidesText(options);
  const head: string[] = [];
  if (!hasChanges(diff)) {
    head.push('**agentc diff**: No changes.');
    if (sides) head.push('', `<sub>${escapeMd(sides)}</sub>`);
    return `${head.join('\n')}\n`;
  }
  head.push(`**agentc diff**: ${escapeMd(summaryText(diff))}`);
  if (sides)
    head.push(
      '',
      `<sub>${escapeMd(sides)}${diff.summary.cacheInvalidated > 0 ? ` · prompt cache lost for ${formatInt(diff.summary.cacheInvalidated)} ${diff.summary.cacheInvalidated === 1 ? 'cohort' : 'cohorts'}` : ''}</sub>`,
    );

  for (const level of ['breaking', 'dangerous', 'safe'] as const) {
    const changes = changesAt(diff, level);
    if (changes.length === 0) continue;
    head.push('', `### ${HEADINGS[level]} (${formatInt(changes.length)})`, '');
    for (const c of changes) head.push(`- **${escapeMd(c.agent)}** · ${code(c.path)} — ${escapeMd(c.message)}`);
  }

  head.push('', '### Prompt tokens and cache', '');
  head.push('| agent | status | prompt tokens (default cohort) | Δ tokens | Δ of input budget | cohorts losing prompt cache |');
  head.push('|---|---|---:|---:|---:|---|');
  for (const [id, a] of Object.entries(diff.agents)) {
    const cache = cacheLost(a);
    head.push(`| ${code(id)} | ${a.status} | ${tokenRange(a)} | ${signed(a.tokenDelta)} | ${budgetText(a) || '—'} | ${cache ? escapeCell(cache) : '—'} |`);
  }

  const blocks: string[] = [];
  const omitted: string[] = [];
  const limit = options.maxChars ?? MAX_COMMENT_CHARS;
  let size = head.join('\n').length + 400; // room for the headings and the omitted-note
  for (const { first, same } of promptDiffGroups(diff)) {
    const c = first.cohort;
    const fence = fenceFor(c.unifiedDiff);
    const also =
      same.length === 0
        ? []
        : [
            `Same edit in ${formatInt(same.length)} more ${same.length === 1 ? 'prompt' : 'prompts'}: ${same.map((e) => `${escapeMd(entryLabel(e))} (${signed(e.cohort.tokenDelta)})`).join(', ')}.`,
            '',
          ];
    const block = [
      `<details><summary><code>${escapeHtml(first.agent)}</code> · ${escapeHtml(cohortName(c.key))} cohort · ${entryStatus(first)} · ${signedTokens(c.tokenDelta)}${same.length > 0 ? ` · same edit in ${formatInt(same.length)} more` : ''}</summary>`,
      '',
      ...also,
      `${fence}diff`,
      c.unifiedDiff.replace(/\n$/, ''),
      fence,
      '',
      '</details>',
    ].join('\n');
    if (size + block.length > limit) {
      omitted.push(entryLabel(first), ...same.map(entryLabel));
      continue;
    }
    size += block.length + 1;
    blocks.push(block);
  }
  if (blocks.length > 0 || omitted.length > 0) head.push('', '### Prompt diffs', '');
  const out = [...head, ...blocks.flatMap((b) => [b, ''])];
  if (omitted.length > 0) {
    out.push(
      `<sub>Omitted to fit a PR comment: ${escapeMd(omitted.join(', '))}. Run \`npx agentc diff --format text\` locally or read generated/prompts/.</sub>`,
    );
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

/** A backtick fence longer than any run of backticks in `text` (at least 3). */
function fenceFor(text: string): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** Inline code that survives backticks in its content. */
function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text.replace(/\|/g, '\\|')}${pad}${fence}`;
}

/** Escape characters that markdown (or GitHub's HTML) would interpret. */
export function escapeMd(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|#~])/g, '\\$1')
    .replace(/\r?\n/g, ' ');
}

function escapeCell(text: string): string {
  return escapeMd(text);
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
