/**
 * The run-time suffix: the config's `dynamicContext.template`, carried by the
 * bundle as the template language's AST (`suffix_ast`; the runtime never parses
 * Handlebars) and rendered by the same interpreter that renders blocks at build
 * time (src/bundle/template/interpret.ts).
 *
 * The context is the turn's: every declared field (`dynamicContext.fields`) is
 * present — a field the request did not provide is empty (renders as nothing,
 * false in `{{#if}}`) — and only strings count. `agentc check` holds the template
 * to those fields (suffix-template), so a render cannot fail on a bundle agentc
 * built; one that does throws SuffixRenderError.
 */
import type { TemplateNode } from '../bundle/template/ast.js';
import type { BundleAgent } from '../bundle/types.js';
import { tryInterpret } from '../bundle/template/interpret.js';

export class SuffixRenderError extends Error {
  override readonly name = 'SuffixRenderError';
}

export function renderSuffix(ast: readonly TemplateNode[], context: Record<string, string | undefined>, fields: readonly string[]): string {
  const values: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(context)) if (typeof value === 'string') values[name] = value;
  for (const name of fields) if (!Object.prototype.hasOwnProperty.call(values, name)) values[name] = undefined;
  const r = tryInterpret(ast, values);
  if (!r.ok) throw new SuffixRenderError(`the bundle's dynamic-context template cannot render: ${r.message}`);
  return r.text;
}

/**
 * An agent's suffix: its `suffix_ast`. A bundle without one (built before the
 * bundle carried it) is rendered only when its template is plain text; else it
 * fails loudly rather than dropping the per-request context.
 */
export function renderAgentSuffix(
  agent: Pick<BundleAgent, 'suffix_ast' | 'suffix_template'>,
  context: Record<string, string | undefined>,
  fields: readonly string[],
): string {
  if (agent.suffix_ast) return renderSuffix(agent.suffix_ast, context, fields);
  const text = agent.suffix_template ?? '';
  if (!text.includes('{{')) return text;
  throw new SuffixRenderError('the bundle carries no suffix_ast (it was built by an older agentc); rebuild it with `agentc build`');
}
