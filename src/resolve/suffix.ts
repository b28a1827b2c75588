/**
 * The config's `dynamicContext.template` (the per-request suffix), parsed once per
 * compile into the template language's AST: checked by the `suffix-template`
 * rule, carried by the bundle (`suffix_ast`) and rendered by the runtime with the
 * same interpreter as block bodies. Positions are relative to the template text;
 * the rule reports at the config's value.
 */
import { analyzeTemplate, standalonePlacer, type TemplateParseResult } from '../parse/template.js';
import type { ConfigFile } from '../parse/types.js';

export interface SuffixTemplate {
  text: string;
  parsed: TemplateParseResult;
}

export function resolveSuffix(config: ConfigFile): SuffixTemplate {
  const text = config.data.dynamicContext.template;
  return { text, parsed: analyzeTemplate(standalonePlacer(text), text) };
}
