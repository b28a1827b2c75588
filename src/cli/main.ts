/**
 * The `agentc` command line. Each command lives in ./commands/<name>.ts and is
 * imported only when it runs, so `agentc check` never loads the runtime, the
 * diff engine or TypeScript.
 *
 * Exit codes (docs/cli.md#exit-codes): 0 clean, 1 findings, 2 usage error or agentc failure.
 * Any exception that escapes a command is an agentc bug: reported in one line
 * (stack with AGENTC_DEBUG=1), exit 2 — never a raw stack trace.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { resolve } from 'node:path';
import { WORKSPACE_LAYOUT } from '../load/layout.js';
import { findWorkspaceRoot } from '../load/root.js';
import { AGENTC_VERSION } from '../version.js';
import { EXIT, processIO, type CliIO } from './io.js';

export async function main(rawArgv: string[], rawIO: CliIO = processIO()): Promise<number> {
  const { argv, io } = globalFlags(rawArgv, rawIO);
  let exitCode: number = EXIT.ok;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version exit 0; anything else commander rejects is a usage error.
      return e.exitCode === 0 ? EXIT.ok : EXIT.failure;
    }
    const err = e as Error;
    io.stderr(`agentc: internal error: ${err?.message ?? String(e)}\n`);
    if (io.env.AGENTC_DEBUG) io.stderr(`${err?.stack ?? ''}\n`);
    else io.stderr('This is a bug in agentc. Re-run with AGENTC_DEBUG=1 for details and report it.\n');
    return EXIT.failure;
  }
  return io.stdoutClosed?.() ? EXIT.ok : exitCode;
}

type SetExit = (code: number) => void;

/**
 * Flags every command takes, handled before commander: `--no-color` (anywhere;
 * becomes FORCE_COLOR=0 for this run) and the lower-case `-v` alias of -V/--version.
 */
function globalFlags(argv: string[], io: CliIO): { argv: string[]; io: CliIO } {
  const end = argv.indexOf('--');
  const flags = end === -1 ? argv : argv.slice(0, end);
  const rest = end === -1 ? [] : argv.slice(end);
  const noColor = flags.includes('--no-color');
  const kept = flags.filter((a) => a !== '--no-color').map((a, i) => (i === 0 && a === '-v' ? '-V' : a));
  return { argv: [...kept, ...rest], io: noColor ? { ...io, env: { ...io.env, FORCE_COLOR: '0' } } : io };
}

function buildProgram(io: CliIO, setExit: SetExit): Command {
  const program = new Command('agentc')
    .description('Compile and check declarative AI agents: cards, prompt blocks and tool contracts → a typed runtime bundle.')
    .version(AGENTC_VERSION, '-V, --version')
    .option('--no-color', 'no colour in any output (also NO_COLOR=1; FORCE_COLOR=1 forces it)')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) })
    .addHelpText(
      'after',
      "\nExample:\n  agentc check                 check the workspace in the current directory\n\nAlso: agentc build --check (CI: fail when generated/ is stale), agentc prompt <agent>,\nand agentc <command> --help for each command's options and example.\n",
    );

  const cwdOption = () =>
    new Option('--cwd <dir>', 'where to look for the workspace: its root is the nearest directory up with an agentc.config.*').default('.');
  const root = (opts: { cwd: string }) => findWorkspaceRoot(resolve(io.cwd, opts.cwd));
  const formatOption = () =>
    new Option('-f, --format <format>', 'report format (default: pretty on a terminal, else text)').choices(['pretty', 'text', 'json', 'github', 'sarif']);
  const withExample = (cmd: Command, example: string) => cmd.addHelpText('after', `\nExample:\n  ${example}\n`);
  const run = (fn: () => Promise<number>) => async () => setExit(await fn());

  withExample(
    program
      .command('check [files...]')
      .description('run every check on the workspace and report problems (only those in FILES, when given)')
      .addOption(cwdOption())
      .addOption(formatOption())
      .option('-o, --output <file>', 'write the report to a file instead of stdout')
      .option('--max-warnings <n>', 'exit 1 when there are more warnings than this', parseCount)
      .option('--watch', 'check again on every change (writes nothing)'),
    'agentc check --format pretty --max-warnings 0',
  ).action(async (files: string[], opts) => {
    if (opts.watch) {
      const { watchCommand } = await import('./commands/watch.js');
      setExit(await watchCommand({ cwd: root(opts), format: opts.format, mode: 'check' }, io));
      return;
    }
    const { checkCommand } = await import('./commands/check.js');
    const only = files.map((f) => resolve(io.cwd, f));
    setExit(await checkCommand({ root: root(opts), format: opts.format, output: opts.output, maxWarnings: opts.maxWarnings, files: only }, io));
  });

  withExample(
    program
      .command('build')
      .description('check, then write the bundle, typed modules and prompts to generated/')
      .addOption(cwdOption())
      .addOption(formatOption())
      .option('--out <dir>', 'output directory', WORKSPACE_LAYOUT.generated)
      .option('--check', 'write nothing; exit 1 when the output is stale')
      .option('--watch', 'rebuild on every change'),
    'agentc build --check',
  ).action(async (opts) => {
    if (opts.watch) {
      const { watchCommand } = await import('./commands/watch.js');
      setExit(await watchCommand({ cwd: root(opts), out: opts.out, format: opts.format }, io));
      return;
    }
    const { buildCommand } = await import('./commands/build.js');
    setExit(await buildCommand({ cwd: root(opts), out: opts.out, check: opts.check === true, format: opts.format }, io));
  });

  withExample(
    program
      .command('diff')
      .description('what a change does to the bundle: prompt diffs, token deltas, breaking tool changes')
      .addOption(cwdOption())
      .option('--against <ref|dir>', 'git ref or directory to compare with (default: merge base with the default branch)')
      .addOption(new Option('-f, --format <format>', 'report format').choices(['markdown', 'json', 'text']).default('text'))
      .addOption(
        new Option('--fail-on <level>', 'exit 1 when a change at or above this level exists').choices(['breaking', 'dangerous', 'none']).default('breaking'),
      )
      .option('-o, --output <file>', 'write the report to a file')
      .option('--eval <suite>', 'run this routing suite on both sides and add a before/after table (agentc eval)')
      .option('--eval-script <file>', 'with --eval: answer routing calls from a route script instead of a real model')
      .option('--endpoint <url>', 'with --eval: base URL for every provider'),
    'agentc diff --against main --format markdown -o agentc-diff.md',
  ).action(async (opts) => {
    const { diffCommand } = await import('./commands/diff.js');
    const evalRun =
      opts.eval !== undefined
        ? {
            suite: opts.eval,
            ...(opts.evalScript !== undefined ? { script: opts.evalScript } : {}),
            ...(opts.endpoint !== undefined ? { endpoint: opts.endpoint } : {}),
          }
        : undefined;
    setExit(
      await diffCommand(
        {
          cwd: root(opts),
          against: opts.against,
          format: opts.format,
          failOn: opts.failOn,
          output: opts.output,
          ...(evalRun !== undefined ? { eval: evalRun } : {}),
        },
        io,
      ),
    );
  });

  withExample(
    program
      .command('prompt <agent>')
      .description("print one agent's assembled prompt with a per-block token table")
      .addOption(cwdOption())
      .option('--flags <flags>', 'comma-separated feature flags to switch on', splitList),
    'agentc prompt rewards --flags receipts_v2',
  ).action(async (agent: string, opts) => {
    const { promptCommand } = await import('./commands/prompt.js');
    setExit(await promptCommand({ cwd: root(opts), agent, flags: opts.flags }, io));
  });

  withExample(
    program
      .command('graph')
      .description('draw the orchestration graph')
      .addOption(cwdOption())
      .addOption(new Option('-f, --format <format>', 'graph language').choices(['mermaid', 'dot']).default('mermaid')),
    'agentc graph --format dot | dot -Tsvg > graph.svg',
  ).action(async (opts) => {
    const { graphCommand } = await import('./commands/graph.js');
    setExit(await graphCommand({ cwd: root(opts), format: opts.format }, io));
  });

  withExample(
    program
      .command('run <agent> <message>')
      .description("run one turn through the runtime (scripted, or against the models' real providers)")
      .addOption(cwdOption())
      .option('--script <file>', 'replay model replies and tool results from a YAML script')
      .option('--endpoint <url>', 'base URL for every provider (default OPENAI_BASE_URL / ANTHROPIC_BASE_URL; keys from OPENAI_API_KEY / ANTHROPIC_API_KEY)')
      .option('--flags <flags>', 'comma-separated feature flags to switch on', splitList)
      .option('--sessions <location>', 'session store that keeps history across runs: sqlite:PATH, redis://HOST:PORT or memory')
      .option('--episode <id>', "the conversation's episode id (overrides the script's context.episode)")
      .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'jsonl', 'json']).default('text')),
    'agentc run fetch_assistant "How many points do I have?" --script examples/mixed-intent.yaml --format json',
  ).action(async (agent: string, message: string, opts) => {
    const { runCommand } = await import('./commands/run.js');
    setExit(
      await runCommand(
        {
          cwd: root(opts),
          agent,
          message,
          script: opts.script ? resolve(io.cwd, opts.script) : undefined,
          endpoint: opts.endpoint,
          format: opts.format,
          flags: opts.flags,
          sessions: opts.sessions,
          episode: opts.episode,
        },
        io,
      ),
    );
  });

  withExample(
    program
      .command('eval [suites...]')
      .description('routing regression suites: accuracy, per-agent precision/recall, confusion matrix (default: evals/*.yaml)')
      .addOption(cwdOption())
      .option('--script <file>', 'answer routing calls from a route script (replies keyed by message) instead of a real model')
      .option('--endpoint <url>', 'base URL for every provider (default OPENAI_BASE_URL / ANTHROPIC_BASE_URL; keys from OPENAI_API_KEY / ANTHROPIC_API_KEY)')
      .option('--min-accuracy <x>', 'exit 1 when accuracy (0..1) is below this', parseRatio)
      .option('--concurrency <n>', 'routing calls in flight at once', parsePositiveInt, 4)
      .option('--flags <flags>', 'comma-separated feature flags to switch on', splitList)
      .option(
        '--seed <n>',
        'sampling seed sent to the provider where its API has one (Chat Completions), part of the cache key, shown in the report',
        parsePositiveInt,
      )
      .option('--full', 'run whole turns through the runtime (specialists included) and check what sub-agents received')
      .option('--cache-dir <dir>', 'where cached live replies are kept (default node_modules/.cache/agentc/eval)')
      .option('--no-cache', 'always call the model')
      .option('--scaffold <agent>', 'print a starter suite for this orchestrator (single- and mixed-intent placeholders) and exit')
      .addOption(new Option('-f, --format <format>', 'report format').choices(['pretty', 'json', 'junit', 'markdown']).default('pretty')),
    'agentc eval evals/routing.yaml --script evals/scripts/routing.yaml --min-accuracy 0.95',
  ).action(async (suites: string[], opts) => {
    const { evalCommand } = await import('./commands/eval.js');
    const cacheDir = opts.cache === false ? false : opts.cacheDir;
    setExit(
      await evalCommand(
        {
          cwd: root(opts),
          suites,
          script: opts.script,
          endpoint: opts.endpoint,
          format: opts.format,
          minAccuracy: opts.minAccuracy,
          concurrency: opts.concurrency,
          flags: opts.flags,
          seed: opts.seed,
          full: opts.full === true,
          cacheDir,
          scaffold: opts.scaffold,
        },
        io,
      ),
    );
  });

  withExample(
    program
      .command('init [dir]')
      .description('scaffold a new workspace that passes check')
      .addOption(new Option('--cwd <dir>', 'directory [dir] is relative to').default('.'))
      .option('--force', 'write into a non-empty directory and overwrite differing files'),
    'agentc init my-agents && cd my-agents && npm install && npm run check',
  ).action(async (dir: string | undefined, opts) => {
    const { initCommand } = await import('./commands/init.js');
    setExit(await initCommand({ dir: resolve(io.cwd, opts.cwd, dir ?? '.'), force: opts.force === true }, io));
  });

  withExample(
    program
      .command('rules')
      .description('print the rule catalog, with the severities in effect for the workspace')
      .addOption(cwdOption())
      .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json', 'markdown']).default('text')),
    'agentc rules --format markdown',
  ).action(async (opts) => {
    const { rulesCommand } = await import('./commands/rules.js');
    setExit(await rulesCommand({ format: opts.format, root: root(opts) }, io));
  });

  withExample(
    program.command('explain <rule>').description("print a rule's documentation page (by rule id or code)").option('--raw', 'print the page as markdown'),
    'agentc explain unknown-tool   (or: agentc explain AGC2001)',
  ).action(async (name: string, opts) => {
    const { explainCommand } = await import('./commands/explain.js');
    setExit(await explainCommand({ name, raw: opts.raw === true }, io));
  });

  withExample(
    program
      .command('lsp')
      .description('language server for editors (diagnostics as you type, go to definition, hover, completion, quick fixes)')
      .addOption(cwdOption())
      .option('--stdio', 'talk over stdin/stdout (the only transport)'),
    'agentc lsp --stdio',
  ).action(async (opts) => {
    const { lspCommand } = await import('./commands/lsp.js');
    setExit(await lspCommand({ root: root(opts) }));
  });

  withExample(
    program
      .command('import <format> <paths...>')
      .description('convert agents from claude-code, cagent, adk, fast-agent or openai-agents-ts into a workspace, then check it')
      .option('--out <dir>', 'workspace to write or merge into', '.')
      .option('--force', 'overwrite files that already exist and differ')
      .option('--owner <team>', 'owner of the imported cards and blocks', 'imported')
      .addOption(new Option('-f, --format <format>', 'report format').choices(['text', 'json']).default('text')),
    'agentc import claude-code .claude/agents --out agents-ws',
  ).action(async (format: string, paths: string[], opts) => {
    const { importCommand } = await import('./commands/import.js');
    setExit(await importCommand({ format, paths, out: opts.out, force: opts.force === true, owner: opts.owner, report: opts.format }, io));
  });

  withExample(
    program
      .command('export <target>')
      .description('publish an orchestrator as an A2A AgentCard (JSON); target: a2a')
      .addOption(cwdOption())
      .option('--agent <id>', 'the orchestrator to export (default: the only one)')
      .option('--url <url>', 'where the agent is served', 'http://localhost:8080/')
      .option('-o, --output <file>', 'write the card to a file instead of stdout'),
    'agentc export a2a --agent fetch_assistant --url https://agents.example.com/fetch',
  ).action(async (target: string, opts) => {
    const { exportCommand } = await import('./commands/export.js');
    setExit(await exportCommand({ target, cwd: root(opts), agent: opts.agent, url: opts.url, output: opts.output }, io));
  });

  void run;
  return program;
}

function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number');
  return Number(value);
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function parseRatio(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError('expected a number between 0 and 1.');
  return n;
}

function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number.');
  return n;
}
