/**
 * Check phase: runs every rule over the resolved program. Rules are pure and
 * report only their own rule id; a rule that throws is an agentc bug, rethrown
 * with the rule's id so that the crash report names it.
 */
import { createDiagnostic, sortDiagnostics, type Diagnostic, type DiagnosticInput } from '../diagnostics/diagnostic.js';
import type { PersistentRuleMemos } from './rule-memo.js';
import type { Program } from '../resolve/types.js';
import type { Rule } from './rule.js';
import { RULES } from './rules/index.js';
import { suppressCascades } from './cascade.js';
import { configFailed } from './support.js';
import { freshCheckRun } from './item-findings.js';

export { RULES } from './rules/index.js';
export { buildContextShape, buildRenderContext, type Shape } from '../resolve/context.js';

/**
 * Diagnostics of every rule (catalog severities; config overrides are applied by the caller), sorted.
 * With `memos` (CompileCache.rules), a rule that declares `reads` is replayed while what it reads is unchanged,
 * and item passes look again only at the items changed since the last compile.
 */
export function runChecks(program: Program, rules: readonly Rule[] = RULES, memos?: PersistentRuleMemos): Diagnostic[] {
  const out: Diagnostic[] = [];
  const noConfig = configFailed(program);
  const memo = memos?.forRun(program);
  const items = memo ?? freshCheckRun(program);
  for (const rule of rules) {
    if (noConfig && rule.needsConfig) continue;
    try {
      let found = memo?.get(rule);
      if (!found) {
        const made: Diagnostic[] = [];
        rule.run(program, (d) => made.push(createDiagnostic({ ...d, rule: rule.id } as DiagnosticInput)), items);
        memo?.set(rule, made);
        found = made;
      }
      for (const d of found) out.push(d);
    } catch (e) {
      const detail = e instanceof Error ? e.message : String(e);
      throw new Error(`agentc bug: check rule "${rule.id}" threw: ${detail}`, { cause: e });
    }
  }
  return sortDiagnostics(suppressCascades(program, out));
}
