#!/usr/bin/env node
// Where `agentc check`'s time goes, phase by phase, in one process (a diagnosis
// aid next to run.mjs; it mirrors src/compile.ts with the phases of dist/, so it
// must follow compile.ts when that changes).
//
//   node --expose-gc bench/phases.mjs [--cwd DIR] [--rules]     (default: bench/.work/ws)
//
// --rules also times each check rule on its own. With --expose-gc, the heap
// column is the live heap after each phase (a full GC first); without it, the
// heap as it stands (garbage included).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const at = argv.indexOf('--cwd');
const root = at === -1 ? join(repo, 'bench', '.work', 'ws') : argv[at + 1];
const dist = (p) => import(join(repo, 'dist', p));

const rows = [];
const heapMb = () => {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed / 1e6;
};
const time = async (label, fn) => {
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  rows.push([label, ms, heapMb()]);
  return value;
};

const [{ loadWorkspace }, { loadConfig }, { parseWorkspace }, { loadValidators }, { resolveProgram }, { runChecks, RULES }, { DiagnosticBag }] = await time(
  'import dist modules',
  () =>
    Promise.all([
      dist('load/workspace.js'),
      dist('load/config.js'),
      dist('parse/index.js'),
      dist('parse/validate.js'),
      dist('resolve/index.js'),
      dist('check/index.js'),
      dist('diagnostics/diagnostic.js'),
    ]),
);
const loaded = await time('load: read workspace files', () => loadWorkspace(root));
await time('load: validators', () => loadValidators());
const ws = loaded.workspace;
const config = await time('load: config (jiti)', () => loadConfig(root, ws.configPath));
const files = new Map();
for (const f of [...ws.cards, ...ws.blocks, ...ws.tools]) files.set(f.path, f);
const bag = new DiagnosticBag();
const parsed = await time('parse: cards, blocks, tools (YAML, schemas, templates)', () => parseWorkspace(ws, config, bag));
const program = await time('resolve: link, render, count tokens', () => resolveProgram(root, parsed, files));
const diagnostics = await time('check: all rules', () => runChecks(program));
const total = rows.reduce((sum, r) => sum + r[1], 0);

const fmt = (ms) => `${ms.toFixed(0).padStart(6)} ms`;
console.log(
  `phases of check on ${root} (${ws.cards.length} cards, ${ws.blocks.length} blocks, ${ws.tools.length} tools; ${diagnostics.length + bag.items.length} diagnostics)`,
);
console.log(`  ${'time'.padStart(9)}  ${'share'.padStart(6)}  ${'heap'.padStart(7)}`);
for (const [label, ms, heap] of rows) console.log(`  ${fmt(ms)}  ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${heap.toFixed(0).padStart(4)} MB  ${label}`);
console.log(`  ${fmt(total)}  total in-process (plus Node start-up and the CLI)`);

if (argv.includes('--rules')) {
  const perRule = RULES.map((rule) => {
    const t = performance.now();
    runChecks(program, [rule]);
    return [rule.id, performance.now() - t];
  }).sort((a, b) => b[1] - a[1]);
  console.log('slowest rules (second run, warm):');
  for (const [id, ms] of perRule.slice(0, 10)) console.log(`  ${fmt(ms)}  ${id}`);
}
