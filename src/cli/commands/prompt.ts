/**
 * `agentc prompt <agent> [--flags a,b]`: one agent's assembled prefix exactly as
 * the model reads it, the dynamic-suffix template, and a per-block token table.
 *
 * Works on a workspace that does not pass `check` yet (that is when one needs to
 * see the prompt most, e.g. over its token budget): the prompt is shown as
 * assembled so far, with a note on stderr. Unknown agent or flag: exit 2.
 */
import { resolve } from 'node:path';
import { didYouMean } from '../../diagnostics/did-you-mean.js';
import { sanitize } from '../../diagnostics/render/ansi.js';
import { renderPromptReport, selectCohort } from '../../emit/prompts.js';
import { EXIT, type CliIO } from '../io.js';
import { compileForView, noteErrors } from './view.js';

export interface PromptOptions {
  cwd: string;
  agent: string;
  /** Flags to switch on: a list, or one comma-separated string. */
  flags?: string[] | string;
}

export async function promptCommand(opts: PromptOptions, io: CliIO): Promise<number> {
  const root = resolve(io.cwd, opts.cwd);
  const view = await compileForView(root, 'prompt', 'Assembling prompts', io);
  if (!view.ok) return view.exit;
  const { bundle, result } = view;
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
    io.stderr(
      `note: ${ignored.map((f) => `"${f}"`).join(', ')} ${ignored.length === 1 ? 'does' : 'do'} not change the prompt of "${agent.id}": none of its blocks use ${ignored.length === 1 ? 'it' : 'them'}.\n`,
    );
  }
  const cohort = selectCohort(agent, flags);
  if (cohort === undefined) {
    io.stderr(`agentc prompt: no prompt was assembled for "${agent.id}" (see \`agentc check\`).\n`);
    return EXIT.findings;
  }
  noteErrors(result, 'showing the prompt as assembled so far', io);
  const report = renderPromptReport(agent, cohort, bundle.models[agent.model]);
  io.stdout(io.isTTY ? sanitize(report) : report);
  return EXIT.ok;
}

function splitFlags(flags: string[] | string | undefined): string[] {
  const list = flags === undefined ? [] : Array.isArray(flags) ? flags : [flags];
  return [
    ...new Set(
      list
        .flatMap((f) => f.split(','))
        .map((f) => f.trim())
        .filter((f) => f !== ''),
    ),
  ];
}
