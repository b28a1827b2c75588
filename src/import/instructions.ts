/**
 * Source instructions → prompt block bodies. Invariants: rendering the escaped
 * bodies gives back the source text (Handlebars reads `\{{` as a literal `{{`);
 * the blocks, each trimmed and joined by a blank line (as agentc assembles a
 * prefix), equal the trimmed source byte for byte — a split is made only where
 * that holds.
 */
export interface EscapeResult {
  body: string;
  /** 1-based lines where a backslash directly before `{{` had to be removed. */
  lostBackslashLines: number[];
}

/** Escapes every literal `{{` so that Handlebars renders it as written. */
export function escapeHandlebars(text: string): EscapeResult {
  const lostBackslashLines: number[] = [];
  let body = '';
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith('{{', i)) {
      // Handlebars has no way to write a literal backslash right before `{{`
      // (`\\{{` is backslash + expression): such backslashes are dropped and reported.
      while (body.endsWith('\\')) {
        body = body.slice(0, -1);
        lostBackslashLines.push(text.slice(0, i).split('\n').length);
      }
      body += '\\{{';
      i += 1;
      continue;
    }
    body += text[i];
  }
  return { body, lostBackslashLines: [...new Set(lostBackslashLines)] };
}

/**
 * Splits trimmed text at its top-level Markdown headings (the smallest `#` level
 * used outside code fences), where the text before a heading ends in exactly one
 * blank line. Returns one part when no split keeps the text byte-identical.
 */
export function splitAtHeadings(text: string): string[] {
  const src = text.trim();
  if (src === '') return [];
  const lines = src.split('\n');
  const headings: { line: number; level: number }[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === undefined) fence = f[1]![0]!;
      else if (f[1]![0] === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const h = /^(#{1,6})[ \t]/.exec(line);
    if (h) headings.push({ line: i, level: h[1]!.length });
  }
  if (headings.length === 0) return [src];
  const top = Math.min(...headings.map((h) => h.level));
  const cuts = headings.filter((h) => h.level === top && h.line >= 2 && lines[h.line - 1] === '' && /\S$/.test(lines[h.line - 2]!)).map((h) => h.line);
  const parts: string[] = [];
  let start = 0;
  for (const cut of [...cuts, lines.length]) {
    const part = lines.slice(start, cut).join('\n').trim();
    if (part !== '') parts.push(part);
    start = cut;
  }
  return parts.join('\n\n') === src ? parts : [src];
}
