import type { ReportInput } from '../../diagnostics/diagnostic.js';
import { itemPass, reportFound } from '../item-findings.js';
import type { Rule } from '../rule.js';

interface Pattern {
  kind: string;
  re: RegExp;
  /** Cheap test that must pass for `re` to be able to match (most prose has no candidates). */
  maybe: RegExp;
}

const DATE = String.raw`\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])`;
const TIME = String.raw`(?:[01]\d|2[0-3]):[0-5]\d`;

/** In priority order: a match overlapping an earlier pattern's match is not reported again. */
const PATTERNS: readonly Pattern[] = [
  { kind: 'a UUID', re: /\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/g, maybe: /-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-/ },
  { kind: 'a timestamp', re: new RegExp(String.raw`\b${DATE}[T ]${TIME}(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?(?!\w)`, 'g'), maybe: /\d-[01]\d-/ },
  { kind: 'a date', re: new RegExp(String.raw`\b${DATE}\b`, 'g'), maybe: /\d-[01]\d-/ },
  { kind: 'a time of day', re: new RegExp(String.raw`\b${TIME}:[0-5]\d\b`, 'g'), maybe: /\d:[0-5]\d:/ },
  { kind: 'a Unix timestamp', re: /\b1[5-9]\d{8}(?:\d{3})?\b/g, maybe: /1[5-9]\d{8}/ },
];

/** Handlebars comments are not rendered, so literals inside them are harmless. */
const COMMENT = /\{\{!--[\s\S]*?--\}\}|\{\{![\s\S]*?\}\}/g;

/**
 * A block's body holds no volatile literals (ISO dates and timestamps, times of
 * day, UUIDs, Unix timestamps): they go stale in the cached prefix. Reported at
 * the literal's exact range; Handlebars comments are ignored.
 */
export const volatileInPrefix: Rule<'volatile-in-prefix'> = {
  id: 'volatile-in-prefix',
  run(program, report, items) {
    reportFound(items.findings(BY_BLOCK), report);
  },
};

/** The block's reports (reads the block's body only). */
const BY_BLOCK = itemPass<'block', ReportInput<'volatile-in-prefix'>>('block', (_program, block, report) => {
  for (const f of scan(block.body)) {
    const offset = block.bodyOffset + f.start;
    report({
      file: block.file.path,
      range: block.file.rangeAt(offset, block.bodyOffset + f.end),
      message: 'volatile',
      data: { block: block.data.id, kind: f.kind, text: f.text },
      hint: { id: f.kind === 'a UUID' ? 'id' : 'value' },
    });
  }
});

interface Found {
  start: number;
  end: number;
  kind: string;
  text: string;
}
function scan(body: string): Found[] {
  const taken: [number, number][] = body.includes('{{!') ? [...body.matchAll(COMMENT)].map((m) => [m.index!, m.index! + m[0].length]) : [];
  const found: Found[] = [];
  for (const { kind, re, maybe } of PATTERNS) {
    if (!maybe.test(body)) continue;
    for (const m of body.matchAll(re)) {
      const start = m.index!;
      const end = start + m[0].length;
      if (taken.some(([s, e]) => start < e && s < end)) continue;
      taken.push([start, end]);
      found.push({ start, end, kind, text: m[0] });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}
