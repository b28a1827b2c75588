import { createRequire } from 'node:module';
import type { Document, Node as YamlNode } from 'yaml';
import { YAML_MESSAGES, type MessageRef } from '../diagnostics/catalog.js';
import type { Range } from '../diagnostics/diagnostic.js';
import { fillTemplate } from '../diagnostics/template.js';
import { fastYaml } from './fast-yaml.js';
import type { SourceFile } from '../load/source.js';

const require = createRequire(import.meta.url);
/** The `yaml` module, loaded on first use: a clean file takes the fast path (./fast-yaml.ts) and never needs it. */
let yamlModule: typeof import('yaml') | undefined;
function yaml(): typeof import('yaml') {
  return (yamlModule ??= require('yaml') as typeof import('yaml'));
}

export type PathSegment = string | number;
/** Range of the node at a path (its key with part 'key'); where the path is not written, a fallback its builder chose and documents. */
export type Locator = (path: readonly PathSegment[], part?: 'key' | 'value') => Range;
/** Range of the node at a path, or undefined when the path is not written ("not written" is an answer, never an ancestor). */
export type Finder = (path: readonly PathSegment[], part?: 'key' | 'value') => Range | undefined;

/** A Locator answering `find`, else `fallback` (chosen explicitly by the caller). */
export function locatorOf(find: Finder, fallback: (path: readonly PathSegment[], part: 'key' | 'value') => Range): Locator {
  return (path, part = 'value') => find(path, part) ?? fallback(path, part);
}

/** Fallback for generic documents: the key of the deepest written ancestor, else `last`. */
export function nearestWritten(find: Finder, last: () => Range): (path: readonly PathSegment[]) => Range {
  return (path) => {
    for (let n = path.length - 1; n > 0; n--) {
      const r = find(path.slice(0, n), 'key');
      if (r) return r;
    }
    return find([]) ?? last();
  };
}

/** A YAML problem as catalog data (the same message ids under yaml-syntax and frontmatter). */
export type YamlProblem = Extract<MessageRef<'yaml-syntax'>, { message: keyof typeof YAML_MESSAGES }>;

export interface YamlError {
  problem: YamlProblem;
  /** The problem as text, for reports that are not diagnostics (e.g. `agentc run --script`). */
  message: string;
  range: Range;
}

function yamlError(problem: YamlProblem, range: Range): YamlError {
  return { problem, message: fillTemplate(YAML_MESSAGES[problem.message], problem.data ?? {}), range };
}

export interface YamlResult {
  /** Plain JS data; `undefined` when the text did not parse. */
  value: unknown;
  errors: YamlError[];
  /** Range of the node at `path` (its key with part 'key'), or undefined when not written. */
  find: Finder;
  /** `find`, else (explicitly) the key of the nearest written ancestor: for generic documents (eval suites, schema errors). */
  locate: Locator;
}

const PARSE_OPTIONS = {
  uniqueKeys: true,
  prettyErrors: false,
  strict: true,
  version: '1.2',
  // Problems are diagnostics; the library must not print process warnings of its own.
  logLevel: 'error',
} as const;

/** Most aliases a document may expand: an alias bomb is a diagnostic, not an OOM. */
const MAX_ALIAS_COUNT = 100;

/**
 * Parses YAML text that sits at `baseOffset` inside `file` (front matter sits
 * after the opening `---`), so every range is in whole-file coordinates.
 */
export function parseYaml(file: SourceFile, text: string = file.text, baseOffset = 0): YamlResult {
  const at = rangeMapper(file, baseOffset);
  const tooDeep = flowDepthExceeded(text);
  if (tooDeep !== undefined) {
    const range = at(tooDeep, tooDeep + 1);
    return { value: undefined, errors: [yamlError({ message: 'flowTooDeep', data: { max: MAX_FLOW_DEPTH } }, range)], ...unparsed(range) };
  }
  const tooDeepBlock = blockDepthExceeded(text);
  if (tooDeepBlock !== undefined) {
    const range = at(tooDeepBlock, tooDeepBlock + 1);
    return { value: undefined, errors: [yamlError({ message: 'blockTooDeep', data: { max: MAX_FLOW_DEPTH } }, range)], ...unparsed(range) };
  }
  // Clean text in the subset both parsers agree on: plain data without a syntax tree (./fast-yaml.ts).
  const fast = fastYaml(text);
  if (fast) return { value: fast.value, errors: [], ...treeLocator(undefined, text, at) };
  // No closure created here may reference `doc`: a clean file's locator must not
  // keep its syntax tree alive (see treeLocator).
  const doc = yaml().parseDocument(text, PARSE_OPTIONS);
  const errors = collectErrors(doc, at);
  if (errors.length > 0) return { value: undefined, errors, ...treeLocator(doc, text, at) };
  const converted = toPlain(doc, text, at);
  if (!converted.ok) return { value: undefined, errors: [converted.error], ...treeLocator(doc, text, at) };
  return { value: converted.value, errors, ...treeLocator(undefined, text, at) };
}

/** A document refused before parsing: nothing is written, everything is at `range`. */
function unparsed(range: Range): { find: Finder; locate: Locator } {
  return { find: () => undefined, locate: () => range };
}

type At = (start: number, end: number) => Range;

function rangeMapper(file: SourceFile, baseOffset: number): At {
  return (start, end) => file.rangeAt(baseOffset + start, baseOffset + end);
}

/**
 * Finder over `text`. Without a tree (a clean file), the tree is rebuilt on
 * the first call — only files that get a diagnostic pay for it — so a large
 * workspace does not keep thousands of syntax trees on the heap.
 */
function treeLocator(doc: Document | undefined, text: string, at: At): { find: Finder; locate: Locator } {
  let tree = doc;
  const find: Finder = (path, part = 'value') => findIn((tree ??= yaml().parseDocument(text, PARSE_OPTIONS)), path, part, at);
  const firstLine = () => at(0, Math.min(text.length, firstLineLength(text)));
  return { find, locate: locatorOf(find, nearestWritten(find, firstLine)) };
}

function collectErrors(doc: Document, at: At): YamlError[] {
  if (doc.errors.length === 0) return [];
  const openers = unclosedFlowOpeners(doc);
  // A tab used as indentation misaligns every line after it: report the tabs, not their consequences.
  const tabs = doc.errors.filter((e) => e.code === 'TAB_AS_INDENT');
  return (tabs.length > 0 ? tabs : doc.errors).map((e) => {
    const opener = e.code === 'BAD_INDENT' ? openers(e.message, e.pos[0]) : e.code === 'MISSING_CHAR' ? quoteOpener(doc, e.message, e.pos[0]) : undefined;
    if (opener) return yamlError(opener.problem, at(opener.offset, opener.offset + 1));
    return yamlError(cleanYamlMessage(e.message, e.code), at(e.pos[0], Math.max(e.pos[1], e.pos[0] + 1)));
  });
}

function toPlain(doc: Document, text: string, at: At): { ok: true; value: unknown } | { ok: false; error: YamlError } {
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const bomb = /alias/i.test(msg);
    return {
      ok: false,
      error: yamlError(
        bomb ? { message: 'aliasBomb', data: { max: MAX_ALIAS_COUNT } } : { message: 'notConvertible', data: { reason: msg } },
        firstAliasRange(doc, at) ?? at(0, Math.min(text.length, firstLineLength(text))),
      ),
    };
  }
}

/**
 * Deeper flow nesting is refused before parsing: the parser recurses per level,
 * and whether it overflows the stack would depend on the caller's stack depth
 * (the same file could fail in one run and parse in another).
 */
export const MAX_FLOW_DEPTH = 256;

/** Offset of the first `[` / `{` nested deeper than MAX_FLOW_DEPTH (quoted strings and comments skipped). */
function flowDepthExceeded(text: string): number | undefined {
  let openers = 0;
  for (let i = text.indexOf('['); i !== -1 && openers <= MAX_FLOW_DEPTH; i = text.indexOf('[', i + 1)) openers++;
  for (let i = text.indexOf('{'); i !== -1 && openers <= MAX_FLOW_DEPTH; i = text.indexOf('{', i + 1)) openers++;
  if (openers <= MAX_FLOW_DEPTH) return undefined; // cannot nest deeper than it has openers
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '[' || c === '{') {
      if (++depth > MAX_FLOW_DEPTH) return i;
    } else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
    else if (c === '"') {
      while (++i < text.length && text[i] !== '"') if (text[i] === '\\') i++;
    } else if (c === "'" && (i === 0 || /[\s[{,:]/.test(text[i - 1]!))) {
      while (++i < text.length && text[i] !== "'");
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    }
  }
  return undefined;
}

/**
 * Offset of the first collection (block or flow) nested deeper than
 * MAX_FLOW_DEPTH, found on the concrete syntax tree, which the yaml library
 * builds without recursion; the tree is walked with an explicit stack. Only
 * text that could nest that deep (by a count of indicators and lines) pays for it.
 */
function blockDepthExceeded(text: string): number | undefined {
  let bound = 0;
  for (let i = 0; i < text.length && bound <= MAX_FLOW_DEPTH; i++) {
    const c = text.charCodeAt(i);
    // \n - ? : [ {
    if (c === 10 || c === 45 || c === 63 || c === 58 || c === 91 || c === 123) bound++;
  }
  if (bound <= MAX_FLOW_DEPTH) return undefined;
  // The parser itself recurses once per compact indicator on one line (`- - - … x`):
  // such a chain is measured on the text, before the parser sees it.
  const inline = inlineChainExceeded(text);
  if (inline !== undefined) return inline;
  const stack: { node: unknown; depth: number }[] = [];
  for (const token of new (yaml().Parser)().parse(text)) stack.push({ node: token, depth: 0 });
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    const t = node as { type?: string; offset?: number; value?: unknown; items?: { key?: unknown; value?: unknown }[] };
    const isCollection = t.type === 'block-map' || t.type === 'block-seq' || t.type === 'flow-collection';
    const d = isCollection ? depth + 1 : depth;
    if (d > MAX_FLOW_DEPTH) return t.offset ?? 0;
    if (t.type === 'document') stack.push({ node: t.value, depth: d });
    if (isCollection && Array.isArray(t.items)) {
      for (const item of t.items) {
        stack.push({ node: item.key, depth: d });
        stack.push({ node: item.value, depth: d });
      }
    }
  }
  return undefined;
}

/** Offset of the first compact indicator (`- `, `? `, `: `) chained more than MAX_FLOW_DEPTH times at the start of one line. */
function inlineChainExceeded(text: string): number | undefined {
  const chain = /^[ \t]*(?:[-?:](?:[ \t]+|$))+/gm;
  for (let m = chain.exec(text); m !== null; m = chain.exec(text)) {
    if (m[0].length === 0) {
      chain.lastIndex++;
      continue;
    }
    let count = 0;
    for (let i = m.index; i < m.index + m[0].length; i++) {
      const c = text[i];
      if ((c === '-' || c === '?' || c === ':') && ++count > MAX_FLOW_DEPTH) return i;
    }
  }
  return undefined;
}

function firstLineLength(text: string): number {
  const nl = text.indexOf('\n');
  return Math.max(1, nl === -1 ? text.length : nl);
}

function cleanYamlMessage(message: string, code: string): YamlProblem {
  const first = message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  if (code === 'DUPLICATE_KEY')
    return { message: 'duplicateKey', data: { reason: first.replace(/^Map keys must be unique;?\s*/i, '') || 'map keys must be unique' } };
  if (/Maximum call stack size exceeded/.test(first)) return { message: 'nestedTooDeep' };
  return { message: 'syntax', data: { reason: first } };
}

/**
 * The yaml library reports an unclosed `[` / `{` where it gave up (the next
 * line); the author needs the bracket that is never closed. Each such error
 * claims one flow collection ending at the error, innermost first.
 */
function unclosedFlowOpeners(doc: Document): (message: string, pos: number) => { offset: number; problem: YamlProblem } | undefined {
  let flows: { kind: 'seq' | 'map'; start: number; end: number }[] | undefined;
  return (message, pos) => {
    const m = /^Flow (sequence|map) in block collection must be sufficiently indented and end with a [\]}]/.exec(message);
    if (!m) return undefined;
    if (!flows) {
      const found: { kind: 'seq' | 'map'; start: number; end: number }[] = [];
      yaml().visit(doc, {
        Seq(_, n) {
          if (n.flow && n.range) found.push({ kind: 'seq', start: n.range[0], end: n.range[1] });
        },
        Map(_, n) {
          if (n.flow && n.range) found.push({ kind: 'map', start: n.range[0], end: n.range[1] });
        },
      });
      flows = found.sort((a, b) => b.start - a.start);
    }
    const kind = m[1] === 'sequence' ? 'seq' : 'map';
    const i = flows.findIndex((f) => f.kind === kind && f.end === pos);
    if (i === -1) return undefined;
    const [f] = flows.splice(i, 1);
    const [open, close, what] = kind === 'seq' ? ['[', ']', 'list'] : ['{', '}', 'mapping'];
    return { offset: f!.start, problem: { message: 'neverClosed', data: { open, what, close } } };
  };
}

/**
 * The yaml library reports an unclosed quoted string where the file ends; the
 * author needs the quote that opened it: the quoted scalar that ends there.
 */
function quoteOpener(doc: Document, message: string, pos: number): { offset: number; problem: YamlProblem } | undefined {
  const m = /^Missing closing (["'])quote/.exec(message);
  if (!m) return undefined;
  const type = m[1] === '"' ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE';
  let offset: number | undefined;
  yaml().visit(doc, {
    Scalar(_, n) {
      if (n.type === type && n.range && n.range[1] === pos) offset = n.range[0];
    },
  });
  if (offset === undefined) return undefined;
  return { offset, problem: { message: 'quoteNeverClosed', data: { quote: m[1] === '"' ? 'double quote (")' : "single quote (')" } } };
}

function firstAliasRange(doc: Document, at: At): Range | undefined {
  let found: Range | undefined;
  yaml().visit(doc, {
    Alias(_, node) {
      if (node.range) found = at(node.range[0], node.range[1]);
      return yaml().visit.BREAK;
    },
  });
  return found;
}

/**
 * The node at `path` (its key with part 'key'), or undefined when the path is
 * not written in the document. A key written without a value (`key:`) is
 * written: its value part is the key.
 */
function findIn(doc: Document, path: readonly PathSegment[], part: 'key' | 'value', at: At): Range | undefined {
  let node: unknown = doc.contents;
  let keyNode: YamlNode | undefined;
  for (const seg of path) {
    let next: unknown;
    keyNode = undefined;
    if (yaml().isMap(node)) {
      const pair = node.items.find((p) => String(yaml().isScalar(p.key) ? p.key.value : p.key) === String(seg));
      if (!pair) return undefined;
      next = pair.value;
      keyNode = pair.key as YamlNode;
    } else if (yaml().isSeq(node) && typeof seg === 'number') {
      next = node.items[seg];
      if (next === undefined) return undefined;
    } else return undefined;
    node = next;
  }
  if (path.length === 0) {
    const root = doc.contents as YamlNode | null;
    return root?.range ? at(root.range[0], root.range[1]) : undefined;
  }
  if (part === 'key' && keyNode?.range) return at(keyNode.range[0], keyNode.range[1]);
  const target = (node as YamlNode | null | undefined)?.range ? (node as YamlNode) : keyNode;
  return target?.range ? at(target.range[0], target.range[1]) : undefined;
}
