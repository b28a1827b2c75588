/**
 * The run-time suffix renderer: `{{field}}` (and `{{{field}}}`) replaced by the
 * context's value. Deliberately tiny — no helpers, no blocks, no escaping — so
 * that the runtime does not depend on Handlebars.
 *
 * Invariants: a missing or non-string field renders as ''; `\{{` renders as a
 * literal `{{` (Handlebars' own escape); anything else is copied verbatim.
 */
const FIELD = /\\\{\{|\{\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}\}|\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;

export function renderSuffix(template: string, context: Record<string, string | undefined>): string {
  return template.replace(FIELD, (match, triple: string | undefined, double: string | undefined) => {
    if (match === '\\{{') return '{{';
    const name = triple ?? double ?? '';
    const value = Object.prototype.hasOwnProperty.call(context, name) ? context[name] : undefined;
    return typeof value === 'string' ? value : '';
  });
}
