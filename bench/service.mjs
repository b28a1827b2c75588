// What a service pays for the bundle (issue 14, point 1), for bench/run.mjs:
// a service's `tsc --strict --noEmit` over the generated modules, and loading the
// bundle at service start (`import('./js/bundle.js')`: bundle.json beside it is
// read and its index parsed; each prefix is joined and checked on first use, so
// start-up pays for none), on the 1,000-card workspace and on this repository's
// workspace.
//
// Each workspace gets a small service in node_modules/.cache/agentc-bench-service/<name>/
// (inside the repository, so that @agentc/runtime and @types/node resolve): the
// generated .ts files, a service.ts that implements ToolHandlers, creates the
// orchestrator, runs a turn and reads an agent's OpenAI tools, and the same modules transpiled to .js (types stripped by
// the TypeScript compiler API), with bundle.json copied beside them as a service
// deploys it, for the load measurement.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);

/** bundle.json of the 1,000-card workspace in bundle format "1" (main before format "2"), in bytes. */
export const FORMAT_1_BUNDLE_JSON_BYTES = 36_488_368;

const TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: ['node'], skipLibCheck: false },
  include: ['service.ts', 'generated/*.ts'],
};

const SERVICE = `import { createScriptedClient } from '@agentc/runtime';
import { createOrchestrator } from './generated/orchestrator.js';
import { openaiTools, type AgentId, type ToolHandlers } from './generated/bundle.js';
declare const tools: ToolHandlers;
declare const agent: AgentId;
const orchestrator = createOrchestrator({ llm: createScriptedClient({}), tools });
export const result = orchestrator.turn({ agent, message: 'hi', context: { principal: 'u', episode: 'e' } });
export const shapes = openaiTools(agent);
`;

/**
 * Prepares both services; returns their directories and bundle.json sizes.
 * `build(outDir)` writes the 1,000-card workspace's generated/ into outDir.
 */
export function prepareServices({ repo, build }) {
  const root = join(repo, 'node_modules', '.cache', 'agentc-bench-service');
  rmSync(root, { recursive: true, force: true });
  const ts = require('typescript');
  const make = (name, fill) => {
    const dir = join(root, name);
    mkdirSync(join(dir, 'generated'), { recursive: true });
    mkdirSync(join(dir, 'js'), { recursive: true });
    fill(join(dir, 'generated'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
    writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
    writeFileSync(join(dir, 'service.ts'), SERVICE);
    for (const f of readdirSync(join(dir, 'generated')).filter((f) => f.endsWith('.ts'))) {
      const out = ts.transpileModule(readFileSync(join(dir, 'generated', f), 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      writeFileSync(join(dir, 'js', f.replace(/\.ts$/, '.js')), out.outputText);
    }
    cpSync(join(dir, 'generated', 'bundle.json'), join(dir, 'js', 'bundle.json'));
    writeFileSync(join(dir, 'load.mjs'), "await import('./js/bundle.js');\n");
    return { dir, bundleJsonBytes: statSync(join(dir, 'generated', 'bundle.json')).size };
  };
  return {
    repo: make('repo', (gen) => cpSync(join(repo, 'generated'), gen, { recursive: true })),
    synthetic: make('synthetic', (gen) => build(gen)),
    tsc: require.resolve('typescript/bin/tsc'),
  };
}

/** The bench commands (bench/run.mjs COMMANDS entries) of one prepared service. */
export function serviceCommands(services) {
  const tscOf = (s) => () => [services.tsc, '-p', join(s.dir, 'tsconfig.json')];
  return [
    { key: 'tscRepo', label: 'service tsc --strict (this repo)', argv: tscOf(services.repo) },
    { key: 'tsc1000', label: 'service tsc --strict (1,000 cards)', argv: tscOf(services.synthetic) },
    { key: 'loadRepo', label: 'bundle load at start (this repo)', argv: () => [join(services.repo.dir, 'load.mjs')] },
    { key: 'load1000', label: 'bundle load at start (1,000 cards)', argv: () => [join(services.synthetic.dir, 'load.mjs')] },
  ];
}

/** Builds the synthetic workspace into `out` with the built CLI. */
export function buildInto(agentc, ws, out) {
  execFileSync(process.execPath, [agentc, 'build', '--cwd', ws, '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
}
