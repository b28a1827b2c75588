/**
 * `agentc prompt <agent> [--flags a,b]`: one agent's assembled prefix exactly as
 * the model reads it, the dynamic-suffix template, and a per-block token table.
 *
 * Works on a workspace that does not pass `check` yet (that is when one needs to
 * see the prompt most, e.g. over its token budget): the prompt is shown as
 * assembled so far, with a note on stderr. Unknown agent or flag: exit 2.
 */
import { resolve } from 'node:path';
import type { Bundle } from '../../bundle/types.js';
import { compile, type CompileResult } from '../../compile.js';
import { countBySeverity } from '../../diagnostics/diagnostic.js';
import { didYouMean } from '../../diagnostics/did-you-mean.js';
import { sanitize } from '../../diagnostics/render/ansi.js';
import { createBundle } from '../../emit/bundle.js';
import { renderPromptReport, selectCohort } from '../../emit/prompts.js';
import { AGENTC_VERSION } from '../../version.js';
import { EXIT, type CliIO } from '../io.js';
import { withProgress } from '../progress.js';

export interface PromptOptions {
  cwd: string;
  agent: string;
  /** Flags to switch on: a list, or one comma-separated string. */
  flags?: string[] | string;
}

export async function promptCommand(opts: PromptOptions, io: CliIO): Promise<number> {
  const root = resolve(io.cwd, opts.cwd);
  const result = await withProgress(io, 'Assembling prompts', () => compile({ root, bundle: true }));
  if (result.fatal !== undefined) {
    io.stderr(`agentc: ${result.fatal}\n`);
    return EXIT.failure;
  }
  const bundle = bundleOf(result);
  if (bundle === undefined) {
    io.stderr('agentc prompt: the workspace could not be compiled; run `agentc check`.\n');
    return EXIT.findings;
  }
  const agent = bundle.agents[opts.agent];
  if (agent === undefined) {
    const ids = Object.keys(bundle.agents).sort();
    const hint = didYouMean(opts.agent, ids);
    io.stderr(`agentc prompt: there is no agent "${opts.agent}".${hint ? ` ${hint}` : ''}\nAgents: ${ids.join(', ') || '(none)'}\n`);
    return EXIT.failure;
  }
  const flags = splitFlags(opts.flags);
  for (const flag of flags) {
    if (!bundle.flags.includes(flag)) {
      const hint = didYouMean(flag, bundle.flags);
      io.stderr(`agentc prompt: "${flag}" is not a feature flag of this workspace (config.flags).${hint ? ` ${hint}` : ''}\n`);
      return EXIT.failure;
    }
  }
  const ignored = flags.filter((f) => !agent.flags.includes(f));
  if (ignored.length > 0) {
    io.stderr(`note: ${ignored.map((f) => `"${f}"`).join(', ')} ${ignored.length === 1 ? 'does' : 'do'} not change the prompt of "${agent.id}": none of its blocks use ${ignored.length === 1 ? 'it' : 'them'}.\n`);
  }
  const cohort = selectCohort(agent, flags);
  if (cohort === undefined) {
    io.stderr(`agentc prompt: no prompt was assembled for "${agent.id}" (see \`agentc check\`).\n`);
    return EXIT.findings;
  }
  const { errors } = countBySeverity(result.diagnostics);
  if (errors > 0) {
    io.stderr(`note: the workspace has ${errors} error${errors === 1 ? '' : 's'} (run \`agentc check\`); showing the prompt as assembled so far.\n`);
  }
  const report = renderPromptReport(agent, cohort, bundle.models[agent.model]);
  io.stdout(io.isTTY ? sanitize(report) : report);
  return EXIT.ok;
}

/** The bundle, also for a workspace with errors (built from whatever resolved). */
export function bundleOf(result: CompileResult): Bundle | undefined {
  if (result.bundle !== undefined) return result.bundle;
  return result.program === undefined ? undefined : createBundle(result.program, AGENTC_VERSION);
}

function splitFlags(flags: string[] | string | undefined): string[] {
  const list = flags === undefined ? [] : Array.isArray(flags) ? flags : [flags];
  return [...new Set(list.flatMap((f) => f.split(',')).map((f) => f.trim()).filter((f) => f !== ''))];
}
