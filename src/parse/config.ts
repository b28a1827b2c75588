/**
 * Validates the loaded config value and applies defaults (docs/formats/config.md). Ranges in
 * agentc.config.ts come from the TypeScript parser (./config-locate.ts), loaded
 * only when something is reported there; a path not written in the file falls
 * back, explicitly, to the line that exports the config.
 */
import { DEFAULT_FAN_OUT_CAP, DEFAULT_TOOL_PREFIX } from '../bundle/defaults.js';
import { isConfigurable, isRuleId, RULE_IDS } from '../diagnostics/catalog.js';
import type { DiagnosticBag } from '../diagnostics/diagnostic.js';
import { didYouMeanHint } from '../diagnostics/did-you-mean.js';
import type { SourceFile } from '../load/source.js';
import type { ConfigFile, ModelEntry, ResolvedConfig, RuleSetting } from './types.js';
import { isPlainObject } from './util.js';
import { checkValues, invalidEntry, invalidPlaces, validateFormat, validPart } from './validate.js';
import { configLocator } from './config-locate.js';
import { locatorOf, type Finder, type Locator } from './yaml.js';

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
  const { find, locate } = configPositions(file);
  const result: ConfigFile = { kind: 'config', file, data: structuredClone(DEFAULT_CONFIG), find, locate };
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
  const invalid = invalidPlaces('config');
  const bad = validateFormat('config', value, { file: file.path, locate, subject: 'the config' }, bag, invalid);
  // Reported, not dropped: dropping `models` for one Infinity would turn every card's model into an unknown one.
  checkValues(value, { file: file.path, locate, subject: 'the config' }, bag, new Set(bad));
  const v = value as Record<string, unknown>;
  // A section keeps its valid entries when one entry is invalid (each entry has its own default).
  const section = <T extends object>(k: string): Partial<T> => {
    const part = validPart(v, k, invalid);
    return isPlainObject(part) ? (part as Partial<T>) : {};
  };
  const d = result.data;
  if (isPlainObject(v.models)) {
    if (!bad.has('models')) d.models = v.models as Record<string, ModelEntry>;
    else {
      // One bad entry must not turn every card's model into an unknown one: keep the valid entries.
      const invalidModels = new Set<string>();
      d.models = {};
      for (const [name, entry] of Object.entries(v.models as Record<string, ModelEntry>)) {
        if (invalidEntry(invalid, 'models', name) || !isPlainObject(entry)) invalidModels.add(name);
        else d.models[name] = entry;
      }
      result.invalidModels = invalidModels;
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

/** Where config paths are written; not written: the export line (line 1 without a config file). */
export function configPositions(file: SourceFile | undefined): { find: Finder; locate: Locator } {
  if (!file) {
    const start = { start: { line: 1, column: 1 }, end: { line: 1, column: 1 } };
    return { find: () => undefined, locate: () => start };
  }
  const at = configLocator(file);
  return { find: at.find, locate: locatorOf(at.find, () => at.exportLine()) };
}
