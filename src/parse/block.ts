/**
 * Parses blocks/**\/<id>.md (docs/formats/prompt-block.md). Grammar:
 *
 *   block       = "---" NL front-matter NL "---" [NL body]
 *   front-matter = YAML mapping (category, owner, …)
 *   body        = Handlebars template
 *
 * Positions of front-matter and template problems are in whole-file lines.
 */
import type { DiagnosticBag, Range } from '../diagnostics/diagnostic.js';
import type { SourceFile } from '../load/source.js';
import type { MessageRef } from '../diagnostics/catalog.js';
import { analyzeTemplate, type TemplateProblem } from './template.js';
import type { Block, BlockData } from './types.js';
import { readMapping } from './mapping-file.js';
import { stemOf } from './util.js';
import { locatorOf } from './yaml.js';

export function parseBlock(file: SourceFile, bag: DiagnosticBag): Block | undefined {
  const text = file.text;
  const stem = stemOf(file.path);
  // Only a reported problem needs it (the line table of the whole file is not built otherwise).
  const firstLine = () => ({ start: { line: 1, column: 1 }, end: { line: 1, column: file.lineText(1).length + 1 } });
  if (!/^---[ \t]*(\n|$)/.test(text)) {
    bag.add({
      rule: 'frontmatter',
      file: file.path,
      range: firstLine(),
      message: text.trim() === '' ? 'empty' : 'missing',
      data: { file: file.path },
      hint: { id: 'start' },
    });
    return undefined;
  }
  const fmStart = text.indexOf('\n') + 1;
  const close = /^(---|\.\.\.)[ \t]*$/m;
  close.lastIndex = 0;
  const rest = text.slice(fmStart);
  const m = close.exec(rest);
  if (!m || fmStart === 0) {
    bag.add({ rule: 'frontmatter', file: file.path, range: firstLine(), message: 'unclosed', data: { file: file.path } });
    return undefined;
  }
  const fmText = rest.slice(0, m.index);
  const closeEnd = fmStart + m.index + m[0].length;
  const bodyOffset = text.charAt(closeEnd) === '\n' ? closeEnd + 1 : closeEnd;
  const fm = readMapping(file, bag, {
    format: 'prompt-block',
    syntaxRule: 'frontmatter',
    text: fmText,
    offset: fmStart,
    shape: () => ({ rule: 'frontmatter', range: firstLine(), message: 'notMapping', data: { file: file.path } }),
    subject: (raw) => `block "${typeof raw.id === 'string' ? raw.id : stem}"`,
  });
  if (!fm) return undefined;
  const { raw, ok } = fm;
  const data: BlockData = {
    id: ok('id') ? (raw.id as string) : stem,
    category: ok('category') ? (raw.category as BlockData['category']) : 'instructions',
    owner: ok('owner') ? (raw.owner as string) : '',
    reusable: ok('reusable') ? (raw.reusable as boolean) : false,
  };
  if (ok('feature_flag')) data.feature_flag = raw.feature_flag as string;
  if (ok('max_tokens')) data.max_tokens = raw.max_tokens as number;
  const body = text.slice(bodyOffset);
  const parsed = analyzeTemplate({ rangeAt: (start, end) => file.rangeAt(bodyOffset + start, bodyOffset + end) }, body);
  if (!parsed.ok) {
    bag.add({ rule: 'template-syntax', file: file.path, range: parsed.range, ...syntaxMessage(data.id, parsed.problem) });
  }
  return {
    kind: 'block',
    file,
    data,
    body,
    bodyOffset,
    template: parsed.ok ? parsed.analysis : undefined,
    find: fm.find,
    // Not written: the front matter's first line (line 1 is the opening `---`).
    locate: locatorOf(fm.find, () => frontMatterLine(file)),
  };
}

/** The front matter's first line, whole (line 1 is the opening `---`). */
function frontMatterLine(file: SourceFile): Range {
  const line = Math.min(2, file.lineCount);
  return { start: { line, column: 1 }, end: { line, column: file.lineText(line).length + 1 } };
}

/** The catalog message of a template parse failure in block `block`. */
function syntaxMessage(block: string, p: TemplateProblem): MessageRef<'template-syntax'> {
  switch (p.message) {
    case 'syntax':
      return { message: 'syntax', data: { block, ...p.data } };
    case 'unexpected':
      return { message: 'unexpected', data: { block, ...p.data } };
    case 'mismatch':
      return { message: 'mismatch', data: { block, ...p.data } };
    case 'neverClosed':
      return { message: 'neverClosed', data: { block, ...p.data } };
    case 'tooDeep':
      return { message: 'tooDeep', data: { block, ...p.data } };
  }
}
