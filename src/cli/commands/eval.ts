/**
 * `agentc eval [SUITE…]`: routing regression suites (docs/eval.md). Each case
 * goes through the orchestrator's routing call once per repeat, against real
 * providers (`--endpoint`, provider env vars) or a route script (`--script`).
 *
 * Exit codes: 0 accuracy at or above --min-accuracy (or no minimum and every
 * case passed); 1 below it, a failing case with no minimum, workspace errors
 * or suite problems; 2 bad usage (no suites, unreadable script, bad options).
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { CompileOptions, CompileResult } from '../../compile.js';
import { renderText } from '../../diagnostics/render/text.js';
import { loadSuites } from '../../eval/load.js';
import { renderEval, type EvalFormat } from '../../eval/report.js';
import { runSuites, type EvalResult } from '../../eval/run.js';
import { createRouteScriptClient, parseRouteScript } from '../../eval/script.js';
import type { EvalSuite } from '../../eval/suite.js';
import { scaffoldSuite } from '../../eval/scaffold.js';
import { routedAgents } from '../../eval/suite.js';
import { didYouMean } from '../../diagnostics/did-you-mean.js';
import { SourceFile } from '../../load/source.js';
import { parseYaml } from '../../parse/yaml.js';
import type { Bundle } from '../../bundle/types.js';
import type { Program } from '../../resolve/types.js';
import type { LlmClient } from '../../runtime/index.js';
import { AGENTC_VERSION } from '../../version.js';
import { EXIT, useColor, type CliIO, cacheFor } from '../io.js';
import { withProgress } from '../progress.js';
import { setupProviders } from '../run-providers.js';

export interface EvalOptions {
  cwd: string;
  suites: string[];
  script?: string;
  endpoint?: string;
  format: EvalFormat;
  minAccuracy?: number;
  concurrency: number;
  flags?: string[];
  seed?: number;
  /** `--full`: run whole turns (specialists included) and check what sub-agents received. */
  full?: boolean;
  /** `--scaffold AGENT`: print a starter suite for this orchestrator instead of running. */
  scaffold?: string;
  /** Cache directory; false disables the cache. Default: node_modules/.cache/agentc/eval in the workspace (live runs only). */
  cacheDir?: string | false;
}

export interface EvalDeps {
  compile?: (options: CompileOptions) => Promise<CompileResult>;
  fetch?: typeof fetch;
}

/** What both `eval` and `diff --eval` need: a model client for a bundle, or a usage problem. */
export async function evalClient(
  bundle: Bundle,
  suites: EvalSuite[],
  o: Pick<EvalOptions, 'script' | 'endpoint' | 'full'>,
  io: CliIO,
  deps: EvalDeps,
): Promise<{ llm: LlmClient; live: boolean } | { problem: string }> {
  if (o.script !== undefined) {
    const file = resolve(io.cwd, o.script);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      return { problem: `cannot read script ${o.script}.` };
    }
    const parsed = parseYaml(new SourceFile(o.script, text.replace(/\r\n?/g, '\n')));
    if (parsed.errors.length > 0) return { problem: `invalid script ${o.script}: ${parsed.errors[0]!.message}` };
    const routes = parseRouteScript(parsed.value);
    if (!routes.ok) return { problem: `invalid script ${o.script}: ${routes.problem}.` };
    const roots = o.full ? new Set(suites.map((s) => s.agent)) : undefined;
    return { llm: createRouteScriptClient(routes.routes, routes.specialists, roots), live: false };
  }
  // Warn only about the models eval calls: the orchestrators' own (and, with --full, every agent's).
  const used = new Set(
    o.full
      ? Object.values(bundle.agents).flatMap((a) => [a.model, ...(a.fallback_model !== undefined ? [a.fallback_model] : [])])
      : suites.map((s) => bundle.agents[s.agent]?.model ?? ''),
  );
  const models = Object.fromEntries(Object.entries(bundle.models).filter(([id]) => used.has(id)));
  const providers = setupProviders({
    bundle: { ...bundle, models },
    env: io.env,
    ...(o.endpoint !== undefined ? { endpoint: o.endpoint } : {}),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    stderr: () => {},
  });
  for (const w of providers.warnings) io.stderr(w);
  return { llm: providers.llm, live: true };
}

/** Compiles the workspace at `root` (its evals/*.yaml included); diagnostics on stderr when it has errors. */
export async function compileForEval(root: string, io: CliIO, deps: EvalDeps): Promise<{ bundle: Bundle; program: Program } | { exit: number }> {
  const compile = deps.compile ?? (await import('../../compile.js')).compile;
  const result = await withProgress(io, 'Compiling workspace', () => compile({ root, bundle: true, ...cacheFor(io, root) }));
  if (result.fatal) {
    io.stderr(`agentc eval: ${String(result.fatal)}\n`);
    return { exit: EXIT.failure };
  }
  if (result.diagnostics.some((d) => d.severity === 'error')) {
    io.stderr(renderText(result.diagnostics, { color: useColor(io), cwd: io.cwd, root, toolVersion: AGENTC_VERSION }));
    io.stderr('agentc eval: the workspace has errors; fix them before evaluating.\n');
    return { exit: EXIT.findings };
  }
  if (result.bundle === undefined || result.program === undefined) {
    io.stderr('agentc eval: the compiler produced no bundle.\n');
    return { exit: EXIT.failure };
  }
  return { bundle: result.bundle, program: result.program };
}

/** Runs suites on one bundle with the options' client and cache; progress on stderr (terminals only). */
export async function evaluate(
  bundle: Bundle,
  suites: EvalSuite[],
  llm: LlmClient,
  live: boolean,
  root: string,
  o: EvalOptions,
  io: CliIO,
): Promise<EvalResult> {
  const cacheDir = o.cacheDir === false || !live ? undefined : resolve(io.cwd, o.cacheDir ?? join(root, 'node_modules', '.cache', 'agentc', 'eval'));
  const bar = io.isTTY && !io.env.CI;
  const result = await runSuites({
    bundle,
    llm,
    suites,
    concurrency: o.concurrency,
    ...(o.flags !== undefined ? { flags: o.flags } : {}),
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    ...(o.full ? { full: true } : {}),
    ...(cacheDir !== undefined ? { cacheDir } : {}),
    onProgress: bar
      ? (done, total) => {
          const width = 24;
          const filled = Math.round((done / total) * width);
          io.stderr(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} runs`);
        }
      : undefined,
  });
  if (bar) io.stderr('\r\x1b[2K');
  return result;
}

export async function evalCommand(o: EvalOptions, io: CliIO, deps: EvalDeps = {}): Promise<number> {
  const usage = (text: string) => {
    io.stderr(`agentc eval: ${text}\n`);
    return EXIT.failure;
  };
  if (o.script !== undefined && o.endpoint !== undefined) return usage('pass --script FILE or real providers (optionally --endpoint URL), not both.');
  if (o.minAccuracy !== undefined && !(o.minAccuracy >= 0 && o.minAccuracy <= 1)) return usage('--min-accuracy takes a number between 0 and 1.');
  const root = resolve(io.cwd, o.cwd);
  if (o.scaffold !== undefined) return scaffold(root, o.scaffold, io, deps);
  const compiled = await compileForEval(root, io, deps);
  if ('exit' in compiled) return compiled.exit;
  const { bundle, program } = compiled;
  for (const flag of o.flags ?? []) if (!bundle.flags.includes(flag)) return usage(`unknown feature flag "${flag}".`);
  const { suites, diagnostics } = await loadSuites(program, io.cwd, o.suites);
  if (diagnostics.some((d) => d.severity === 'error')) {
    io.stderr(renderText(diagnostics, { color: useColor(io), cwd: io.cwd, root, toolVersion: AGENTC_VERSION }));
    io.stderr('agentc eval: the suites have errors; nothing was run.\n');
    return EXIT.findings;
  }
  if (suites.length === 0) return usage('no suites: pass SUITE files or add evals/*.yaml to the workspace (agentc eval --help).');
  const client = await evalClient(bundle, suites, o, io, deps);
  if ('problem' in client) return usage(client.problem);
  const result = await evaluate(bundle, suites, client.llm, client.live, root, o, io);
  io.stdout(renderEval(result, o.format, o.minAccuracy));
  const pass = o.minAccuracy !== undefined ? result.summary.accuracy >= o.minAccuracy : result.summary.passed_runs === result.summary.runs;
  return pass ? EXIT.ok : EXIT.findings;
}

async function scaffold(root: string, agent: string, io: CliIO, deps: EvalDeps): Promise<number> {
  const compiled = await compileForEval(root, io, deps);
  if ('exit' in compiled) return compiled.exit;
  const bundle = compiled.bundle;
  const orchestrators = Object.keys(bundle.agents)
    .filter((a) => routedAgents(bundle, a).length > 0)
    .sort();
  if (!orchestrators.includes(agent)) {
    const hint = didYouMean(agent, orchestrators);
    io.stderr(
      `agentc eval: --scaffold needs an agent with sub-agents; "${agent}" is not one.${hint ? ` ${hint}` : ''} Orchestrators: ${orchestrators.join(', ') || 'none'}.\n`,
    );
    return EXIT.failure;
  }
  io.stdout(scaffoldSuite(bundle, agent));
  return EXIT.ok;
}
