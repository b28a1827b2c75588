/**
 * Hand-made diagnostics for renderer tests: the renderers take any Diagnostic,
 * so these carry free text (`text`) or fill the rule's first catalog message.
 */
import { CATALOG, type RuleId } from '../../src/diagnostics/catalog.js';
import type { Diagnostic, Range, RelatedInformation } from '../../src/diagnostics/diagnostic.js';
import { fillTemplate } from '../../src/diagnostics/template.js';

export function fakeDiagnostic(input: {
  rule: RuleId;
  text?: string;
  data?: Record<string, unknown>;
  severity?: 'error' | 'warning';
  file?: string;
  range?: Range;
  hint?: string;
  related?: RelatedInformation[];
}): Diagnostic {
  const entry = CATALOG[input.rule];
  const first = Object.values(entry.messages as Record<string, string>)[0]!;
  const d: Diagnostic = {
    code: entry.code,
    rule: input.rule,
    severity: input.severity ?? entry.severity,
    message: input.text ?? fillTemplate(first, input.data ?? {}),
  };
  if (input.file !== undefined) d.file = input.file;
  if (input.range !== undefined) d.range = input.range;
  if (input.hint !== undefined) d.hint = input.hint;
  if (input.related !== undefined && input.related.length > 0) d.related = input.related;
  return d;
}
