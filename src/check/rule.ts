/**
 * A check rule: a pure function of the resolved program that reports
 * diagnostics. One rule per file in ./rules, registered in ./rules/index.ts.
 * A rule reports only its own rule id — `Report<R>` accepts only R's catalog
 * messages and hints, each with exactly its template's data — and never throws
 * on user input.
 */
import type { ReportInput } from '../diagnostics/diagnostic.js';
import type { RuleId } from '../diagnostics/catalog.js';
import type { Program } from '../resolve/types.js';
import type { CheckRun } from './item-findings.js';

export type Report<R extends RuleId = RuleId> = (d: ReportInput<R>) => void;

export interface Rule<R extends RuleId = RuleId> {
  id: R;
  /**
   * The rule reads config values (models, platform, budgets, dispatch, flags).
   * When agentc.config.ts exists but failed to load, such rules are skipped:
   * the defaults that stand in for the config would only produce false findings.
   */
  needsConfig?: boolean;
  /**
   * Every part of the program the rule reads besides the config, when that is all it
   * reads: with a CompileCache its reports are replayed while these parts are the same
   * objects (src/check/rule-memo.ts). Omitted: the rule runs on every compile.
   */
  reads?: readonly ProgramPart[];
  /** `items` gives the findings of the rule's item passes (src/check/item-findings.ts): kept per item across compiles with a CompileCache. */
  run(program: Program, report: Report<R>, items: CheckRun): void;
}

/** Parts of a program a rule can declare it reads (`Rule.reads`); the config is always part of the key. */
export type ProgramPart = 'cardTable' | 'toolTable' | 'blockHeads' | 'unparsed' | 'duplicates';
