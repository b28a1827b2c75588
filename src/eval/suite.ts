/**
 * Eval suites as `agentc eval` runs them. A suite file is parsed by the parse
 * phase (src/parse/eval-suite.ts: YAML syntax, schemas/eval-suite.schema.json)
 * and its names are checked by the check phase's eval rules
 * (src/check/rules/eval-*.ts); this module only adapts the checked result and
 * reads the dispatch table of a bundle.
 *
 * Invariant: there is one validation path. `agentc check`, `agentc eval` and
 * `agentc diff --eval` all report suite problems as the same diagnostics.
 */
import type { Bundle } from '../bundle/types.js';
import type { EvalCase, EvalSuiteFile, EvalTurn, HandoffCheck } from '../parse/eval-suite.js';

export type { EvalCase, EvalTurn, HandoffCheck };

export interface EvalSuite {
  /** Workspace-relative path (forward slashes). */
  file: string;
  agent: string;
  repeat: number;
  flags: string[];
  cases: EvalCase[];
}

/** The runnable form of a checked suite file. */
export function toEvalSuite(suite: EvalSuiteFile): EvalSuite {
  return { file: suite.file.path, ...suite.data };
}

/** The sub-agents an orchestrator can route to, sorted (from its dispatch table). */
export function routedAgents(bundle: Bundle, agent: string): string[] {
  const table = bundle.agents[agent]?.dispatch.table ?? {};
  const out = new Set<string>();
  for (const entry of Object.values(table)) if (entry.kind === 'sub_agent') out.add(entry.agent);
  return [...out].sort();
}
