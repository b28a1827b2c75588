/**
 * Validates the loaded config value and applies defaults (docs/formats/config.md). Ranges in
 * agentc.config.ts are found by a light scan of the source text (the config is
 * code, so there is no YAML tree): the key path is followed through the object
 * literal, which is exact for the usual `defineConfig({ … })` shape.
 */
import { DEFAULT_FAN_OUT_CAP, DEFAULT_TOOL_PREFIX } from '../bundle/defaults.js';
import { isConfigurable, isRuleId, RULE_IDS } from '../diagnostics/catalog.js';
import type { DiagnosticBag, Range } from '../diagnostics/diagnostic.js';
import { didYouMeanHint } from '../diagnostics/did-you-mean.js';
import type { SourceFile } from '../load/source.js';
import type { ConfigFile, ModelEntry, ResolvedConfig, RuleSetting } from './types.js';
import { isPlainObject } from './util.js';
import { checkValues, validateFormat } from './validate.js';
import type { Locator, PathSegment } from './yaml.js';

export const DEFAULT_CONFIG: ResolvedConfig = {
  models: {},
  platform: { owner: 'platform', requiredBlocks: [] },
  budgets: { promptWarnRatio: 0.25, promptErrorRatio: 0.5, descriptionMaxTokens: 400, maxSubAgents: 7 },
  dispatch: { toolPrefix: DEFAULT_TOOL_PREFIX, fanOutCap: DEFAULT_FAN_OUT_CAP },
  flags: [],
  dynamicContext: { fields: [], template: '' },
  rules: {},
};

export function parseConfig(file: SourceFile | undefined, value: unknown, bag: DiagnosticBag): ConfigFile {
  const locate = textLocator(file);
  const result: ConfigFile = { kind: 'config', file, data: structuredClone(DEFAULT_CONFIG), locate };
  if (!file) return result;
  if (!isPlainObject(value)) {
    bag.add({
      rule: 'config-load',
      file: file.path,
      range: locate([]),
      message: 'notObject',
      data: { file: file.path },
    });
    // Its values are unknown, not the defaults: rules that read the config stand down.
    return { ...result, file: undefined };
  }
  const badEntries = new Set<string>();
  const bad = validateFormat('config', value, { file: file.path, locate, subject: 'the config' }, bag, badEntries);
  // Reported, not dropped: dropping `models` for one Infinity would turn every card's model into an unknown one.
  checkValues(value, { file: file.path, locate, subject: 'the config' }, bag, new Set(bad));
  const v = value as Record<string, unknown>;
  const section = <T extends object>(k: string): Partial<T> => (!bad.has(k) && isPlainObject(v[k]) ? (v[k] as Partial<T>) : {});
  const d = result.data;
  if (isPlainObject(v.models)) {
    if (!bad.has('models')) d.models = v.models as Record<string, ModelEntry>;
    else {
      // One bad entry must not turn every card's model into an unknown one: keep the valid entries.
      const invalid = new Set<string>();
      d.models = {};
      for (const [name, entry] of Object.entries(v.models as Record<string, ModelEntry>)) {
        if (badEntries.has(`models/${name}`) || !isPlainObject(entry)) invalid.add(name);
        else d.models[name] = entry;
      }
      result.invalidModels = invalid;
    }
  } else if (v.models !== undefined) result.invalidModels = 'all';
  d.platform = { ...d.platform, ...section<ResolvedConfig['platform']>('platform') };
  d.budgets = { ...d.budgets, ...section<ResolvedConfig['budgets']>('budgets') };
  d.dispatch = { ...d.dispatch, ...section<ResolvedConfig['dispatch']>('dispatch') };
  if (!bad.has('flags') && Array.isArray(v.flags)) d.flags = v.flags as string[];
  if (!bad.has('dynamicContext') && isPlainObject(v.dynamicContext)) d.dynamicContext = v.dynamicContext as ResolvedConfig['dynamicContext'];
  if (!bad.has('rules') && isPlainObject(v.rules)) {
    d.rules = {};
    for (const [rule, setting] of Object.entries(v.rules as Record<string, RuleSetting>)) {
      if (isRuleId(rule) && !isConfigurable(rule)) {
        bag.add({
          rule: 'schema',
          file: file.path,
          range: locate(['rules', rule], 'key'),
          message: 'notConfigurable',
          data: { rule },
          hint: { id: 'removeRule', data: { rule } },
        });
        continue;
      }
      if (isRuleId(rule)) {
        d.rules[rule] = setting;
        continue;
      }
      const hint = didYouMeanHint(rule, RULE_IDS);
      bag.add({
        rule: 'schema',
        file: file.path,
        range: locate(['rules', rule], 'key'),
        message: 'unknownRule',
        data: { rule },
        ...(hint ? { hint } : {}),
      });
    }
  }
  return result;
}

/** Follows `path` through the config source's object literal; falls back to the nearest found key. */
export function textLocator(file: SourceFile | undefined): Locator {
  return (path: readonly PathSegment[], part: 'key' | 'value' = 'value'): Range => {
    if (!file) return { start: { line: 1, column: 1 }, end: { line: 1, column: 1 } };
    const text = file.text;
    const root = rootObjectStart(text);
    let pos = root;
    let found: { start: number; end: number } = { start: root, end: root + 1 };
    for (let i = 0; i < path.length; i++) {
      const seg = path[i]!;
      const last = i === path.length - 1;
      const hit = typeof seg === 'number' ? findElement(text, pos, seg) : findKey(text, pos, seg);
      if (!hit) break;
      found = last && part === 'key' && hit.key ? hit.key : hit.value;
      if (!last && hit.key && typeof seg !== 'number') found = hit.key;
      pos = hit.value.start;
      if (last) found = part === 'key' && hit.key ? hit.key : hit.value;
    }
    return file.rangeAt(found.start, found.end);
  };
}

/** The config object literal's `{`; failing that, the default-exported expression (never an import's braces). */
function rootObjectStart(text: string): number {
  const m = /defineConfig\s*\(\s*\{|export\s+default\s*\{/.exec(text);
  if (m) return m.index + m[0].length - 1;
  const d = /export\s+default\s+(?:defineConfig\s*\(\s*)?/.exec(text);
  return d ? d.index + d[0].length : Math.max(0, text.indexOf('{'));
}

type Span = { start: number; end: number };

/** Within the object literal starting at `objStart` ('{'), the key `name` at depth 1. */
function findKey(text: string, objStart: number, name: string): { key: Span; value: Span } | undefined {
  if (text[objStart] !== '{') return undefined;
  let depth = 0;
  for (let i = objStart; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === '`') {
      const end = skipString(text, i);
      if (depth === 1 && text.slice(i + 1, end - 1) === name && /^\s*:/.test(text.slice(end))) {
        return { key: { start: i, end }, value: valueSpan(text, end + text.slice(end).indexOf(':') + 1) };
      }
      i = end - 1;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') { i = text.indexOf('\n', i); if (i < 0) break; continue; }
    if (c === '/' && text[i + 1] === '*') { i = text.indexOf('*/', i) + 1; if (i <= 0) break; continue; }
    if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') { depth--; if (depth === 0) return undefined; }
    else if (depth === 1 && /[A-Za-z_$]/.test(c) && !/[\w$]/.test(text[i - 1] ?? '')) {
      const m = /^[A-Za-z_$][\w$]*/.exec(text.slice(i, i + 200))!;
      if (m[0] === name && /^\s*:/.test(text.slice(i + m[0].length))) {
        const colon = text.indexOf(':', i + m[0].length);
        return { key: { start: i, end: i + m[0].length }, value: valueSpan(text, colon + 1) };
      }
      i += m[0].length - 1;
    }
  }
  return undefined;
}

function findElement(text: string, arrStart: number, index: number): { key?: Span; value: Span } | undefined {
  if (text[arrStart] !== '[') return undefined;
  let depth = 0;
  let n = 0;
  let elemStart = -1;
  for (let i = arrStart; i < text.length; i++) {
    const c = text[i]!;
    if (depth === 1 && elemStart < 0 && !/[\s,]/.test(c) && c !== ']') elemStart = i;
    if (c === '"' || c === "'" || c === '`') { i = skipString(text, i) - 1; continue; }
    if (c === '[' || c === '{' || c === '(') depth++;
    else if (c === ']' || c === '}' || c === ')') {
      depth--;
      if (depth === 0) break;
    } else if (c === ',' && depth === 1) {
      if (n === index && elemStart >= 0) return { value: valueSpan(text, elemStart) };
      n++;
      elemStart = -1;
    }
  }
  return n === index && elemStart >= 0 ? { value: valueSpan(text, elemStart) } : undefined;
}

/** The span of the value expression starting at/after `from`. */
function valueSpan(text: string, from: number): Span {
  let i = from;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  const start = i;
  const c = text[i];
  if (c === '"' || c === "'" || c === '`') return { start, end: skipString(text, i) };
  if (c === '{' || c === '[') return { start, end: start + 1 };
  const m = /^[^,}\]\n]*/.exec(text.slice(i))!;
  return { start, end: start + Math.max(1, m[0].trimEnd().length) };
}

function skipString(text: string, i: number): number {
  const q = text[i];
  let j = i + 1;
  while (j < text.length && text[j] !== q) {
    if (text[j] === '\\') j++;
    j++;
  }
  return Math.min(text.length, j + 1);
}
