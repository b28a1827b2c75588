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
import type { Program } from '../resolve/types.js';
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

type DiffSide = { bundle: Bundle; label: string; program?: Program };

export async function diffEvalSection(
  root: string,
  o: DiffEvalOptions,
  sides: { before: DiffSide; after: DiffSide },
  io: CliIO,
): Promise<string | { exit: number }> {
  const file = resolve(io.cwd, o.suite);
  const run = async (side: DiffSide): Promise<EvalSideSummary> => {
    // The working tree's suite, checked against this side's program by the same rules as `agentc check`.
    if (side.program === undefined) return { label: side.label, problem: 'there is no agentc workspace on this side' };
    const { suites, diagnostics } = await loadSuites(side.program, io.cwd, [file], { root, reread: true });
    const problem = diagnostics.find((d) => d.severity === 'error');
    if (problem !== undefined) return { label: side.label, problem: problem.message };
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
