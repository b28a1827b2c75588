#!/usr/bin/env node
// Summarizes a V8 .cpuprofile (from `node --cpu-prof …`): top functions by self
// time, and self time by file and by package.
//
//   node --cpu-prof --cpu-prof-dir=bench/.work/prof bin/agentc.js check --cwd bench/.work/ws
//   node bench/cpuprofile-top.mjs bench/.work/prof/*.cpuprofile [--top N] [--skip-ms MS]
//
// --skip-ms leaves out the first MS of samples (e.g. a watcher's initial build,
// to see only its rebuilds); idle samples are never counted.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
const option = (name, dflt) => {
  const at = argv.indexOf(name);
  return at === -1 ? dflt : Number(argv[at + 1]);
};
const TOP = option('--top', 25);
const SKIP_US = option('--skip-ms', 0) * 1000;
const files = argv.filter((a, i) => !a.startsWith('--') && !['--top', '--skip-ms'].includes(argv[i - 1]));
if (files.length === 0) {
  process.stderr.write('usage: node bench/cpuprofile-top.mjs <file.cpuprofile> [--top N]\n');
  process.exit(2);
}

const repo = fileURLToPath(new URL('..', import.meta.url));
const short = (url) => {
  if (!url) return '(native)';
  const p = url.startsWith('file://') ? fileURLToPath(url) : url;
  return p.startsWith(repo) ? p.slice(repo.length) : p;
};
const pkgOf = (path) => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (m) return m[1];
  if (path.startsWith('dist/') || path.startsWith('src/')) return `agentc:${path.split('/')[1]}`;
  if (path.startsWith('node:') || !path.includes('/')) return 'node/v8';
  return path;
};

for (const file of files) {
  const prof = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let elapsed = 0;
  for (let i = 0; i < prof.samples.length; i++) {
    const dt = prof.timeDeltas[i] ?? 0;
    elapsed += dt;
    if (elapsed < SKIP_US || byId.get(prof.samples[i]).callFrame.functionName === '(idle)') continue;
    self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + dt);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map();
  const byFile = new Map();
  const byPkg = new Map();
  const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
  for (const [id, us] of self) {
    const { callFrame: cf } = byId.get(id);
    const path = short(cf.url);
    add(fn, `${cf.functionName || '(anonymous)'}  ${path}${cf.url ? `:${cf.lineNumber + 1}` : ''}`, us);
    add(byFile, path, us);
    add(byPkg, pkgOf(path), us);
  }
  const show = (title, m, n) => {
    console.log(`\n${title}`);
    for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n)) {
      console.log(`  ${(us / 1000).toFixed(0).padStart(7)} ms  ${((us / total) * 100).toFixed(1).padStart(5)}%  ${k}`);
    }
  };
  // Inclusive ("total") time of agentc's own functions: each sample counts once per function on its stack.
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map();
  for (const [id, us] of self) {
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const { callFrame: cf } = byId.get(cur);
      const path = short(cf.url);
      if (!path.startsWith('dist/') && !path.startsWith('src/')) continue;
      const key = `${cf.functionName || '(anonymous)'}  ${path}:${cf.lineNumber + 1}`;
      if (!seen.has(key)) {
        seen.add(key);
        add(inclusive, key, us);
      }
    }
  }
  console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled${SKIP_US > 0 ? ` after the first ${SKIP_US / 1000} ms` : ''} (idle left out)`);
  show(`top ${TOP} functions by self time`, fn, TOP);
  show('self time by file', byFile, 15);
  show('self time by package', byPkg, 12);
  show(`top ${TOP} agentc functions by total (inclusive) time`, inclusive, TOP);
}
