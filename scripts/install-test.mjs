#!/usr/bin/env node
// The real install path, end to end (CI runs it from .ci/run). Packs both packages
// as the README says, creates a project in a temp directory outside the
// repository, installs the two tarballs, runs `agentc init`, `check` and `build`
// through `npx --no-install`, type-checks and compiles a small service that calls
// createOrchestrator from generated/orchestrator.ts with `tsc --strict`, runs
// one turn with the scripted client, and checks the production footprint: a
// service depending only on @agentc/runtime installs (`npm ci --omit=dev`) none
// of the compiler's dependencies, and runs the same turn there.
// Needs the npm registry (the tarballs' own dependencies); --prefer-offline
// serves them from npm's cache when it can. Set AGENTC_INSTALL_TEST_KEEP=1 to
// keep the temp directory.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
const COMPILER_ONLY = ['yaml', 'handlebars', 'gpt-tokenizer', 'jiti', 'commander', 'typescript'];
const version = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: false,
    types: ['node'],
    outDir: 'build',
    rootDir: '.',
  },
  // agentc.config.ts too: `import { defineConfig } from '@agentc/cli'` type-checks against the installed package.
  include: ['service*.ts', 'generated/*.ts', 'agentc.config.ts'],
};

const SERVICE = `import { createScriptedClient } from '@agentc/runtime';
import { createOrchestrator } from './generated/orchestrator.js';

let orderLookups = 0;
const llm = createScriptedClient({
  concierge: [
    { tool_calls: [{ name: 'ask_orders', arguments: { query: 'Where is order 42?', intent_count: 1 } }] },
    { text: 'Order 42 is on its way and arrives Tuesday.' },
  ],
  orders: [
    { tool_calls: [{ name: 'get_order_status', arguments: { order_id: '42' } }] },
    { text: 'Order 42 shipped; delivery expected Tuesday.' },
  ],
});

const orchestrator = createOrchestrator({
  llm,
  tools: {
    get_order_status: async (args, ctx) => {
      orderLookups++;
      return { status: 'ok', principal: ctx.principal, payload: { order_id: args.order_id ?? null, state: 'shipped' } };
    },
    search_products: async (args) => ({ products: [], query: args }),
  },
});

const result = await orchestrator.turn({ message: 'Where is order 42?', context: { principal: 'user-1', episode: 'ep-1' } });
console.log(JSON.stringify({ text: result.text, orderLookups }));
`;

/** Misses a tool: must not compile. */
const BAD_SERVICE = `import { createScriptedClient } from '@agentc/runtime';
import { createOrchestrator } from './generated/orchestrator.js';

export const orchestrator = createOrchestrator({
  llm: createScriptedClient({}),
  tools: { search_products: async () => ({}) },
});
`;

const base = mkdtempSync(join(tmpdir(), 'agentc-install-'));
if (!relative(repo, base).startsWith('..')) fail(`the temp directory ${base} is inside the repository`);
const packs = join(base, 'packs');
const app = join(base, 'my-agents');
const prod = join(base, 'service');
mkdirSync(packs);
mkdirSync(app);
mkdirSync(prod);

let ok = false;
try {
  step('pack both packages');
  run('npm', ['pack', '--workspaces', '--include-workspace-root', '--pack-destination', packs, '--loglevel=error'], repo);
  const cliTgz = join(packs, `agentc-cli-${version}.tgz`);
  const runtimeTgz = join(packs, `agentc-runtime-${version}.tgz`);
  for (const t of [cliTgz, runtimeTgz]) if (!existsSync(t)) fail(`npm pack did not write ${t}`);

  step('install the tarballs into a new project');
  run('npm', ['install', '--save-dev', cliTgz, ...NPM_FLAGS], app);
  run('npm', ['install', runtimeTgz, ...NPM_FLAGS], app);

  step('agentc init, check, build');
  const versionOut = run('npx', ['--no-install', 'agentc', '--version'], app).trim();
  if (versionOut !== version) fail(`agentc --version printed ${JSON.stringify(versionOut)}, expected ${version}`);
  run('npx', ['--no-install', 'agentc', 'init'], app);
  const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
  if (!String(pkg.devDependencies?.['@agentc/cli']).startsWith('file:')) fail('init replaced the installed @agentc/cli dependency');
  if (!String(pkg.dependencies?.['@agentc/runtime']).startsWith('file:')) fail('init replaced the installed @agentc/runtime dependency');
  if (pkg.type !== 'module' || pkg.scripts?.check !== 'agentc check') fail(`init's package.json lacks type/scripts: ${JSON.stringify(pkg)}`);
  run('npx', ['--no-install', 'agentc', 'check'], app);
  run('npx', ['--no-install', 'agentc', 'build'], app);
  run('npm', ['run', 'check', '--silent'], app);

  step('type-check agentc.config.ts and compile a service with tsc --strict');
  run('npm', ['install', '--save-dev', 'typescript@^5', '@types/node@^20', ...NPM_FLAGS], app);
  writeFileSync(join(app, 'service.ts'), SERVICE);
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2) + '\n');
  run('npx', ['--no-install', 'tsc', '-p', 'tsconfig.json'], app);
  writeFileSync(join(app, 'service.bad.ts'), BAD_SERVICE);
  let rejection = '';
  try {
    run('npx', ['--no-install', 'tsc', '-p', 'tsconfig.json', '--noEmit'], app, { quiet: true });
  } catch (e) {
    rejection = e.output ?? '';
  }
  if (!/service\.bad\.ts\(\d+,\d+\): error TS\d+: Property '"?get_order_status"?' is missing/.test(rejection)) {
    fail(`tsc did not reject a service that misses the get_order_status handler:\n${rejection}`);
  }
  rmSync(join(app, 'service.bad.ts'));

  step('a service compiled to build/ without bundle.json: a BundleLoadError that says what to copy');
  let missing = '';
  try {
    run('node', ['build/service.js'], app, { quiet: true });
  } catch (e) {
    missing = e.output ?? '';
  }
  if (!/BundleLoadError: .*build\/generated\/bundle\.json does not exist.*copy generated\/bundle\.json next to the compiled bundle\.js/.test(missing)) {
    fail(`a service without bundle.json did not fail with the missing-bundle error:\n${missing}`);
  }
  // As docs/runtime.md says: the service's build copies bundle.json beside the compiled bundle.js.
  cpSync(join(app, 'generated', 'bundle.json'), join(app, 'build', 'generated', 'bundle.json'));

  step('one turn with the scripted client');
  checkTurn(run('node', ['build/service.js'], app));

  step('production footprint: a service that depends only on @agentc/runtime');
  writeFileSync(
    join(prod, 'package.json'),
    JSON.stringify({ name: 'service', private: true, type: 'module', dependencies: { '@agentc/runtime': `file:${runtimeTgz}` } }, null, 2) + '\n',
  );
  run('npm', ['install', '--package-lock-only', ...NPM_FLAGS], prod);
  run('npm', ['ci', '--omit=dev', ...NPM_FLAGS], prod);
  const installed = listPackages(join(prod, 'node_modules'));
  const leaked = installed.filter((p) => COMPILER_ONLY.includes(p));
  if (leaked.length > 0) fail(`npm ci --omit=dev installed compiler packages: ${leaked.join(', ')}`);
  cpSync(join(app, 'build'), join(prod, 'build'), { recursive: true });
  checkTurn(run('node', ['build/service.js'], prod));
  const bytes = sizeOf(join(prod, 'node_modules'));
  console.log(`  ${installed.length} packages, ${(bytes / 1024 / 1024).toFixed(1)} MiB of files in node_modules: ${installed.join(', ')}`);
  ok = true;
  console.log('install test: ok');
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
} finally {
  if (process.env.AGENTC_INSTALL_TEST_KEEP === '1') console.log(`kept ${base}`);
  else rmSync(base, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);

function step(what) {
  console.log(`install test: ${what}`);
}

function run(cmd, args, cwd, opts = {}) {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  } catch (e) {
    if (!opts.quiet) process.stderr.write(`${e.stdout ?? ''}${e.stderr ?? ''}`);
    throw Object.assign(new Error(`install test: \`${cmd} ${args.join(' ')}\` failed in ${cwd}`), { output: `${e.stdout ?? ''}${e.stderr ?? ''}` });
  }
}

function fail(message) {
  throw new Error(`install test: ${message}`);
}

function checkTurn(stdout) {
  const result = JSON.parse(stdout.trim().split('\n').pop());
  if (result.text !== 'Order 42 is on its way and arrives Tuesday.') fail(`unexpected turn result ${stdout}`);
  if (result.orderLookups !== 1) fail(`the tool handler ran ${result.orderLookups} times, expected once`);
}

/** Installed package names under node_modules (scoped and nested included), sorted and unique. */
function listPackages(dir) {
  const names = new Set();
  const walk = (d) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      if (e.name.startsWith('@')) {
        for (const s of readdirSync(join(d, e.name))) visit(join(d, e.name, s), `${e.name}/${s}`);
      } else visit(join(d, e.name), e.name);
    }
  };
  const visit = (p, name) => {
    if (!existsSync(join(p, 'package.json'))) return;
    names.add(name);
    walk(join(p, 'node_modules'));
  };
  walk(dir);
  return [...names].sort();
}

function sizeOf(p) {
  const st = statSync(p, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.size;
  return readdirSync(p).reduce((n, e) => n + sizeOf(join(p, e)), 0);
}
