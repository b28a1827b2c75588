/**
 * Check phase: runs every rule over the resolved program. Rules are pure and
 * report only their own rule id; a rule that throws is an agentc bug, rethrown
 * with the rule's id so that the crash report names it.
 */
import { createDiagnostic, sortDiagnostics, type Diagnostic, type DiagnosticInput } from '../diagnostics/diagnostic.js';
import type { Program } from '../resolve/types.js';
import type { Rule } from './rule.js';
import { RULES } from './rules/index.js';
import { suppressCascades } from './cascade.js';
import { configFailed } from './support.js';

export { RULES } from './rules/index.js';
export { buildContextShape, buildRenderContext, type Shape } from '../resolve/context.js';

/** Diagnostics of every rule (catalog severities; config overrides are applied by the caller), sorted. */
export function runChecks(program: Program, rules: readonly Rule[] = RULES): Diagnostic[] {
  const out: Diagnostic[] = [];
  const noConfig = configFailed(program);
  for (const rule of rules) {
    if (noConfig && rule.needsConfig) continue;
    try {
      rule.run(program, (d) => out.push(createDiagnostic({ ...d, rule: rule.id } as DiagnosticInput)));
    } catch (e) {
      const detail = e instanceof Error ? e.message : String(e);
      throw new Error(`agentc bug: check rule "${rule.id}" threw: ${detail}`, { cause: e });
    }
  }
  return sortDiagnostics(suppressCascades(program, out));
}
