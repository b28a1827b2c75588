/**
 * Renders a documentation page (CommonMark as written in docs/) for a terminal:
 * headings bold, code fences dropped and their lines indented, block quotes
 * indented, inline backticks and emphasis markers removed, link targets kept in
 * parentheses. Invariant: without colour the output is plain text
 * that keeps every word of the page; nothing is reflowed.
 */
import { paint } from '../diagnostics/render/ansi.js';

export function renderMarkdownForTerminal(markdown: string, color: boolean): string {
  const p = paint(color);
  const out: string[] = [];
  let inFence = false;
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) {
      out.push(line === '' ? '' : `    ${p.cyan(line)}`);
      continue;
    }
    if (/^<!--.*-->\s*$/.test(line)) continue;
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const text = inline(heading[2]!);
      out.push(p.bold(heading[1]!.length === 1 ? text.toUpperCase() : text));
      continue;
    }
    const quote = /^>\s?(.*)$/.exec(line);
    out.push(quote ? `  ${inline(quote[1]!)}` : inline(line));
  }
  return (
    out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .replace(/\n+$/, '') + '\n'
  );
}

/** `code` → code, [text](target) → text (target), **b** → b. */
function inline(line: string): string {
  return line
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, (_, text: string, target: string) => (target.startsWith('#') || text === target ? text : `${text} (${target})`))
    .replace(/`([^`]+)`/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1');
}
