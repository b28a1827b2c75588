/**
 * `agentc export a2a [--agent ID] [--url URL]`: compile the workspace and print
 * an orchestrator's A2A AgentCard (JSON), validated against the A2A schema.
 * Exit 1 when the workspace has errors; 2 on bad usage or an invalid card.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { compile } from '../../compile.js';
import { sortKeysDeep } from '../../bundle/canonical-json.js';
import { orchestratorIds, toA2ACard } from '../../export/a2a.js';
import { validateAgentCard } from '../../export/validate.js';
import { EXIT, type CliIO, cacheFor } from '../io.js';

export interface ExportOptions {
  target: string;
  cwd: string;
  agent?: string;
  url: string;
  output?: string;
}

export async function exportCommand(opts: ExportOptions, io: CliIO): Promise<number> {
  if (opts.target !== 'a2a') {
    io.stderr(`agentc export: unknown target "${opts.target}" (targets: a2a).\n`);
    return EXIT.failure;
  }
  let url: URL;
  try {
    url = new URL(opts.url);
  } catch {
    io.stderr(`agentc export: --url "${opts.url}" is not an absolute URL.\n`);
    return EXIT.failure;
  }
  const result = await compile({ root: opts.cwd, bundle: true, ...cacheFor(io, opts.cwd) });
  if (result.fatal) {
    io.stderr(`agentc: ${result.fatal}\n`);
    return EXIT.failure;
  }
  if (!result.bundle) {
    const n = result.diagnostics.filter((d) => d.severity === 'error').length;
    io.stderr(`agentc export: the workspace has ${n} error${n === 1 ? '' : 's'}; run \`agentc check\` and fix them first.\n`);
    return EXIT.findings;
  }
  const bundle = result.bundle;
  const orchestrators = orchestratorIds(bundle);
  let id = opts.agent;
  if (id === undefined) {
    if (orchestrators.length !== 1) {
      io.stderr(
        `agentc export: pass --agent ID; ${orchestrators.length === 0 ? 'the workspace has no orchestrator' : `orchestrators: ${orchestrators.join(', ')}`}.\n`,
      );
      return EXIT.failure;
    }
    id = orchestrators[0]!;
  }
  const agent = bundle.agents[id];
  if (!agent || !orchestrators.includes(id)) {
    io.stderr(
      `agentc export: "${id}" is not an orchestrator of this workspace${orchestrators.length > 0 ? ` (orchestrators: ${orchestrators.join(', ')})` : ''}.\n`,
    );
    return EXIT.failure;
  }
  const card = sortKeysDeep(toA2ACard(bundle, agent, { url: url.href }));
  const check = validateAgentCard(card);
  if (!check.ok) {
    io.stderr(`agentc export: internal error: the AgentCard does not match the A2A schema:\n${check.problems.map((p) => `  ${p}`).join('\n')}\n`);
    return EXIT.failure;
  }
  const text = `${JSON.stringify(card, null, 2)}\n`;
  if (opts.output) {
    try {
      await writeFile(resolve(io.cwd, opts.output), text);
    } catch (e) {
      io.stderr(`agentc export: cannot write ${opts.output}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
      return EXIT.failure;
    }
  } else io.stdout(text);
  return EXIT.ok;
}
