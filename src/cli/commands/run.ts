/**
 * `agentc run <agent> "<message>" [--script FILE | --endpoint URL]`: one turn
 * through the runtime (docs/run-script.md), on a bundle compiled in memory.
 *
 * Exit codes: 0 the turn answered; 1 the workspace has errors (diagnostics on
 * stderr) or the root agent itself failed; 2 bad usage — both of
 * --script/--endpoint, an unreadable or invalid script, a script that runs out
 * of replies for the root agent, an unknown agent or flag.
 *
 * Output: `text` prints the user-visible text as it streams (statuses on
 * stderr, dimmed on a terminal); `jsonl` prints one event per line the moment it
 * happens; `json` prints one object { text, events, calls, record } when the turn ends.
 *
 * Invariants: stdout carries only the answer (text), one event per line (jsonl)
 * or one JSON object (json);
 * with --script the run is a replay: sequential span ids and a trace id derived
 * from the script's bytes, so only the `*_ms` timings differ between runs
 * (they are real milliseconds since the turn started: ordering and overlap are
 * meaningful, exact values are not reproducible).
 */
import { readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import type { Bundle } from '../../bundle/types.js';
import type { CompileOptions, CompileResult } from '../../compile.js';
import { didYouMean } from '../../diagnostics/did-you-mean.js';
import { renderText } from '../../diagnostics/render/text.js';
import { sortKeysDeep } from '../../bundle/canonical-json.js';
import { SourceFile } from '../../load/source.js';
import { parseYaml, type Locator } from '../../parse/yaml.js';
import {
  createRandomIds,
  createRecordingClient,
  createRuntime,
  createScriptedClient,
  createScriptedTools,
  createSequentialIds,
  parseScript,
  ScriptExhaustedError,
  scriptTurnContext,
  TurnError,
  type LlmClient,
  type RuntimeEvent,
  type RuntimeOptions,
  type Script,
  type ToolHandler,
  type TurnResult,
} from '../../runtime/index.js';
import { AGENTC_VERSION } from '../../version.js';
import { EXIT, useColor, type CliIO, cacheFor } from '../io.js';
import { withProgress } from '../progress.js';
import { setupProviders } from '../run-providers.js';
import { setupRunTelemetry } from '../run-telemetry.js';
import { openRunSessions } from '../run-sessions.js';

export interface RunOptions {
  agent: string;
  message: string;
  /** Script file (absolute, or relative to io.cwd). */
  script?: string;
  /** Base URL for every provider (else OPENAI_BASE_URL / ANTHROPIC_BASE_URL); keys from OPENAI_API_KEY / ANTHROPIC_API_KEY. */
  endpoint?: string;
  format: 'text' | 'jsonl' | 'json';
  /** Workspace root (absolute, or relative to io.cwd). */
  cwd: string;
  /** Feature flags switched on, added to the script's `context.flags`. */
  flags?: string[];
  /** Session store location (`sqlite:PATH`, `redis://HOST:PORT`, `memory`); see ../run-sessions.ts. */
  sessions?: string;
  /** Episode id, overriding the script's context.episode. */
  episode?: string;
}

/** Seams for tests; production uses the real compiler and global fetch. */
export interface RunDeps {
  compile?: (options: CompileOptions) => Promise<CompileResult>;
  fetch?: typeof fetch;
}

export async function runCommand(opts: RunOptions, io: CliIO, deps: RunDeps = {}): Promise<number> {
  const usage = (text: string) => {
    io.stderr(`agentc run: ${text}\n`);
    return EXIT.failure;
  };
  if (opts.script !== undefined && opts.endpoint !== undefined) {
    return usage('pass --script FILE (replay a scripted turn) or real providers (optionally --endpoint URL), not both.');
  }

  let script: Script | undefined;
  let scriptText = '';
  let locate: Locator | undefined;
  let scriptPath = '';
  if (opts.script !== undefined) {
    const file = resolve(io.cwd, opts.script);
    scriptPath = relative(io.cwd, file).split('\\').join('/') || file;
    try {
      scriptText = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
    } catch (e) {
      const code = (e as { code?: string }).code;
      return usage(`cannot read script ${scriptPath}${code === 'ENOENT' ? ': no such file' : code ? ` (${code})` : ''}.`);
    }
    const source = new SourceFile(scriptPath, scriptText);
    const parsed = parseYaml(source);
    locate = parsed.locate;
    if (parsed.errors.length > 0) {
      for (const e of parsed.errors) io.stderr(`${scriptPath}:${e.range.start.line}:${e.range.start.column} - error: ${e.message}\n`);
      return usage(`invalid script ${scriptPath}.`);
    }
    const checked = parseScript(parsed.value);
    if (!checked.ok) {
      for (const p of checked.problems) io.stderr(scriptProblem(scriptPath, locate, p.path, p.message));
      return usage(`invalid script ${scriptPath}.`);
    }
    script = checked.script;
  }

  const root = resolve(io.cwd, opts.cwd);
  const compile = deps.compile ?? (await import('../../compile.js')).compile;
  const result = await withProgress(io, 'Compiling workspace', () => compile({ root, bundle: true, ...cacheFor(io, root) }));
  if (result.fatal) return usage(String(result.fatal));
  if (result.diagnostics.some((d) => d.severity === 'error')) {
    io.stderr(renderText(result.diagnostics, { color: useColor(io), cwd: io.cwd, root, toolVersion: AGENTC_VERSION }));
    io.stderr('agentc run: the workspace has errors; fix them before running a turn.\n');
    return EXIT.findings;
  }
  const bundle = result.bundle;
  if (bundle === undefined) return usage('the compiler produced no bundle.');

  if (!Object.prototype.hasOwnProperty.call(bundle.agents, opts.agent)) {
    const hint = didYouMean(opts.agent, Object.keys(bundle.agents));
    return usage(`unknown agent "${opts.agent}".${hint ? ` ${hint}` : ''} Agents: ${Object.keys(bundle.agents).sort().join(', ')}.`);
  }
  const { context, flags: scriptFlags } = scriptTurnContext(script);
  const flags = [...new Set([...scriptFlags, ...(opts.flags ?? [])])].sort();
  for (const flag of flags) {
    if (!bundle.flags.includes(flag)) {
      const hint = didYouMean(flag, bundle.flags);
      return usage(`unknown feature flag "${flag}".${hint ? ` ${hint}` : ''}`);
    }
  }
  if (script !== undefined && locate !== undefined) {
    const problems = scriptReferences(script, bundle);
    if (problems.length > 0) {
      for (const p of problems) io.stderr(scriptProblem(scriptPath, locate, p.path, p.message));
      return usage(`invalid script ${scriptPath}.`);
    }
  }

  let llm: LlmClient;
  let tools: Record<string, ToolHandler> = {};
  let onError: RuntimeOptions['onError'];
  if (script !== undefined) {
    llm = createScriptedClient(script.llm);
    tools = createScriptedTools(script.tools);
  } else {
    const providers = setupProviders({
      bundle,
      env: io.env,
      ...(opts.endpoint !== undefined ? { endpoint: opts.endpoint } : {}),
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
      stderr: io.stderr,
    });
    for (const w of providers.warnings) io.stderr(w);
    ({ llm, onError } = providers);
  }
  const store = await openRunSessions(opts, io.cwd);
  if (!store.ok) return usage(store.message);
  if (store.value.episode !== undefined) context.episode = store.value.episode;
  const recorder = createRecordingClient(llm);
  const telemetry = await setupRunTelemetry({ env: io.env, bundle, stderr: io.stderr });
  const runtime = createRuntime({
    bundle,
    llm: recorder.client,
    tools,
    ids: script !== undefined ? createSequentialIds(scriptText) : createRandomIds(),
    ...(store.value.store ? { sessions: store.value.store } : {}),
    ...(onError !== undefined ? { onError } : {}),
    onEvent: (e: RuntimeEvent) => telemetry?.onEvent(e),
  });

  recorder.markStart();
  let turn: TurnResult;
  let printed = '';
  /** Whether the terminal's cursor is after some text of the answer (stdout and stderr share it). */
  let midLine = false;
  const dim = useColor(io) ? (s: string) => `\x1b[2m${s}\x1b[22m` : (s: string) => s;
  try {
    const stream = runtime.stream({ agent: opts.agent, message: opts.message, context, flags });
    for await (const e of stream) {
      if (opts.format === 'jsonl') io.stdout(`${JSON.stringify(sortKeysDeep(e))}\n`);
      else if (opts.format === 'text') {
        if (e.type === 'text_delta') {
          io.stdout(e.delta);
          printed += e.delta;
          midLine = !e.delta.endsWith('\n');
        } else if (e.type === 'status') {
          // On its own line, also when the answer is mid-line on the same terminal.
          io.stderr(`${midLine ? '\n' : ''}${dim(`› ${e.text}`)}\n`);
          midLine = false;
        }
      }
    }
    if (printed !== '' && !printed.endsWith('\n')) io.stdout('\n');
    turn = await stream.result.finally(() => telemetry?.shutdown());
  } catch (e) {
    if (e instanceof ScriptExhaustedError) return usage(`${e.message} Add a reply under llm.${e.agent} in ${scriptPath}.`);
    if (e instanceof TurnError) {
      if (opts.format === 'json') {
        io.stdout(json({ error: { agent: e.agent, kind: e.kind, message: e.message }, events: e.events, calls: recorder.calls, text: null }));
      }
      io.stderr(`agentc run: ${e.message} (${e.kind})\n`);
      return EXIT.findings;
    }
    throw e;
  } finally {
    await store.value.close();
  }
  if (opts.format === 'json') {
    io.stdout(json({ text: turn.text, events: turn.events, calls: recorder.calls, record: turn.record ?? null }));
  } else if (opts.format === 'text') {
    if (printed === '') io.stdout('\n');
    const routing = turn.events.find((e) => e.type === 'routing');
    if (routing !== undefined && routing.type === 'routing' && (routing.invoked.length > 0 || routing.cap.dropped.length > 0)) {
      const outcomes = Object.entries(routing.outcomes)
        .map(([a, o]) => `${a}=${o}`)
        .join(' ');
      const dropped = routing.cap.dropped.length > 0 ? `; dropped ${routing.cap.dropped.join(', ')}` : '';
      io.stderr(`routing: ${outcomes} (cap ${routing.cap.limit}, ${routing.cap.behavior}${dropped})\n`);
    }
  }
  return EXIT.ok;
}

/** Version of the `--format json` report (schemas/run-report.schema.json). */
export const RUN_FORMAT_VERSION = '1';

function json(value: object): string {
  return `${JSON.stringify(sortKeysDeep({ formatVersion: RUN_FORMAT_VERSION, ...value }), null, 2)}\n`;
}

function scriptProblem(file: string, locate: Locator | undefined, path: (string | number)[], message: string): string {
  const at = locate?.(path, typeof path[path.length - 1] === 'string' && message.startsWith('unknown') ? 'key' : 'value');
  const where = at === undefined ? file : `${file}:${at.start.line}:${at.start.column}`;
  const label = path.reduce<string>((s, seg) => (typeof seg === 'number' ? `${s}[${seg}]` : s === '' ? seg : `${s}.${seg}`), '');
  return `${where} - error: ${label === '' ? '' : `${label}: `}${message}\n`;
}

/** Script keys must name agents and tools of this bundle. */
function scriptReferences(script: Script, bundle: Bundle): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const agents = Object.keys(bundle.agents);
  for (const agent of Object.keys(script.llm)) {
    // `<agent>:summary` holds the replies of that agent's history summarizer.
    if (agents.includes(agent) || (agent.endsWith(':summary') && agents.includes(agent.slice(0, -':summary'.length)))) continue;
    const hint = didYouMean(agent, agents);
    problems.push({ path: ['llm', agent], message: `unknown agent "${agent}".${hint ? ` ${hint}` : ''}` });
  }
  const tools = Object.keys(bundle.tools);
  for (const tool of Object.keys(script.tools ?? {})) {
    if (tools.includes(tool)) continue;
    const hint = didYouMean(tool, tools);
    problems.push({ path: ['tools', tool], message: `unknown tool "${tool}".${hint ? ` ${hint}` : ''}` });
  }
  return problems;
}
