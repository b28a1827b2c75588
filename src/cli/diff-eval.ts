/**
 * `agentc diff --eval SUITE`: the suite (read from the working tree) run on both
 * sides' bundles, rendered as a before/after section for the diff report.
 *
 * Invariants: live runs share the eval results cache, so an unchanged side
 * (same prefix hash, tools, messages, model) is answered from it, not re-run;
 * a side the suite does not apply to is shown as n/a, never fails the diff.
 */
import { resolve } from 'node:path';
import type { Bundle } from '../bundle/types.js';
import { renderEvalComparison, type EvalSideSummary } from '../eval/compare.js';
import { loadSuites } from '../eval/load.js';
import { EXIT, type CliIO } from './io.js';
import { evalClient, evaluate, type EvalOptions } from './commands/eval.js';

export interface DiffEvalOptions {
  /** Suite file, resolved against io.cwd. */
  suite: string;
  script?: string;
  endpoint?: string;
}

export async function diffEvalSection(root: string, o: DiffEvalOptions, sides: { before: { bundle: Bundle; label: string }; after: { bundle: Bundle; label: string } }, io: CliIO): Promise<string | { exit: number }> {
  const file = resolve(io.cwd, o.suite);
  const run = async (side: { bundle: Bundle; label: string }): Promise<EvalSideSummary> => {
    const { suites, problems } = await loadSuites(root, [file], side.bundle);
    if (problems.length > 0) return { label: side.label, problem: problems[0]!.message };
    const client = await evalClient(side.bundle, suites, o, io, {});
    if ('problem' in client) return { label: side.label, problem: client.problem };
    const options: EvalOptions = { cwd: root, suites: [file], format: 'markdown', concurrency: 4 };
    return { label: side.label, result: await evaluate(side.bundle, suites, client.llm, client.live, root, options, io) };
  };
  const after = await run(sides.after);
  if (after.result === undefined) {
    io.stderr(`agentc diff: --eval ${o.suite}: ${after.problem}\n`);
    return { exit: EXIT.failure };
  }
  const before = await run(sides.before);
  return renderEvalComparison(o.suite, before, after);
}
