/**
 * The config's `dynamicContext.template` (the per-request suffix), parsed once per
 * compile (across compiles while its text is the same) into the template language's AST: checked by the `suffix-template`
 * rule, carried by the bundle (`suffix_ast`) and rendered by the runtime with the
 * same interpreter as block bodies. Positions are relative to the template text;
 * the rule reports at the config's value.
 */
import { analyzeTemplate, standalonePlacer, type TemplateParseResult } from '../parse/template.js';
import type { ConfigFile } from '../parse/types.js';
import { memoSlot, type LastingMemos } from './run-memo.js';

export interface SuffixTemplate {
  text: string;
  parsed: TemplateParseResult;
}

/** The last parse, kept across compiles with a CompileCache (`CompileCache.objects`): a function of the text alone. */
const LAST_SUFFIX = memoSlot<SuffixTemplate>('suffix template and its text');

export function resolveSuffix(config: ConfigFile, lasting?: LastingMemos): SuffixTemplate {
  const text = config.data.dynamicContext.template;
  const box = lasting?.box(LAST_SUFFIX);
  if (box?.value !== undefined && box.value.text === text) return box.value;
  const suffix = { text, parsed: analyzeTemplate(standalonePlacer(text), text) };
  if (box !== undefined) box.value = suffix;
  return suffix;
}
