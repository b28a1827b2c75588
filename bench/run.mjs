#!/usr/bin/env node
// agentc benchmarks (`npm run bench`, which builds dist/ first).
//
//   node bench/run.mjs [--runs N] [--json] [--no-watch] [--no-runtime] [--no-service] [--regen] [--strict]
//
// 1. Generates the synthetic workspace (bench/synth.mjs → bench/.work/ws) when it
//    is missing or was made by another generator version.
// 2. Times whole processes, each N times (default 7) after one untimed warm-up
//    round, interleaved (the order rotates every round) to spread machine noise:
//      floor        node bench/floor.mjs          read + parse + tokenize, nothing else
//      check        agentc check                  target ≤ 1.2× floor, peak RSS < 400 MB (full build ≤ 1.6×)
//      build        agentc build --out <fresh>    full build into a new directory
//      rebuild      agentc build --out <same>     nothing changed since the last build
//      tscRepo/tsc1000    a service's tsc --strict --noEmit over generated/   target ≤ 1.3× (1,000 cards vs this repo)
//      loadRepo/load1000  loading the bundle at service start               target ≤ 2× node -e 0 (1,000 cards)
//    (bench/service.mjs; skipped with --no-service), and bundle.json's size at
//    1,000 cards against format 1's (target ≤ 1/3).
//    Each child runs under bench/measure.mjs, which reports its wall time and the
//    child's own peak RSS.
// 3. Incremental rebuild (when `agentc build --watch` exists): one watcher, N
//    one-block edits, time from the write to the watcher's "build:" line;
//    target ≤ 3% of the full build's median.
// 4. bench/runtime.mjs (owned elsewhere), bench/providers.mjs (provider clients
//    against local mocks, cold start) and bench/runtime-stream.mjs (streaming turns),
//    and bench/sessions.mjs (session stores on a 200-turn episode), when present: their lines as printed.
//
// Prints a table (medians, min–max, ratios, CPU time, peak RSS, targets, PASS/FAIL), or one
// JSON object with --json. Exit 0, or 1 with --strict when a target fails; 2 when a
// benchmarked command itself fails.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInto, FORMAT_1_BUNDLE_JSON_BYTES, prepareServices, serviceCommands } from './service.mjs';
import { DEFAULT_OUT, generatorVersion, isFresh, synthesize } from './synth.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const repo = join(benchDir, '..');
const ws = DEFAULT_OUT;
const agentc = join(repo, 'bin', 'agentc.js');

const TARGET_CHECK_RATIO = 1.2; // cold check ≤ 1.2× the floor (issue 14)
const TARGET_BUILD_RATIO = 1.6; // full build ≤ 1.6× the floor (issue 14)
const TARGET_CHECK_RSS_MB = 400;
const TARGET_INCREMENTAL_RATIO = 0.03; // a one-block edit rebuilds in ≤ 3% of a full build (issue 14)
const TARGET_WARM_CHECK_RATIO = 0.4; // warm check ≤ 0.4× the floor (issue 14)
const TARGET_NOCHANGE_RATIO = 1.2; // no-change build ≤ 1.2× warm check (issue 14)
const TARGET_SERVICE_TSC_RATIO = 1.3; // service tsc at 1,000 cards ≤ 1.3× on this repo (issue 14)
const TARGET_BUNDLE_SIZE_RATIO = 1 / 3; // bundle.json ≤ 1/3 of format 1's at 1,000 cards (issue 14)
const TARGET_BUNDLE_LOAD_RATIO = 2; // bundle load at service start ≤ 2× node -e 0 (issue 14)
const REBUILD_TIMEOUT_MS = 180_000;

const args = parseArgs(process.argv.slice(2));
const log = (s) => process.stderr.write(`${s}\n`);

// ---------------------------------------------------------------------------

if (!existsSync(join(repo, 'dist', 'cli', 'main.js')) && !existsSync(join(repo, 'dist', 'index.js'))) {
  log('bench: dist/ is missing; run `npm run bench` (it builds first) or `npm run build`.');
  process.exit(2);
}
if (args.regen || !isFresh(ws)) {
  log(`bench: generating the synthetic workspace (generator ${generatorVersion()}) …`);
  const stats = synthesize({ out: ws });
  log(`bench: ${stats.cards} cards, ${stats.blocks} blocks, ${stats.tools} tools → ${relative(repo, ws)}`);
}
const stamp = JSON.parse(readFileSync(join(ws, '.synth.json'), 'utf8'));
const tmpRoot = mkdtempSync(join(tmpdir(), 'agentc-bench-'));
/** Cleanup that must happen however the run ends: a watcher to stop, a block edit to undo. */
const cleanup = { watcher: undefined, restore: undefined };
process.on('exit', () => {
  if (cleanup.restore) writeFileSync(cleanup.restore.file, cleanup.restore.text);
  if (cleanup.watcher && cleanup.watcher.exitCode === null) cleanup.watcher.kill('SIGKILL');
  rmSync(tmpRoot, { recursive: true, force: true });
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));
const nochangeOut = join(tmpRoot, 'rebuild-out');
let freshCount = 0;

// The persistent cache (AGENTC_CACHE_DIR): cold commands get a new empty directory per run, warm ones share one.
const warmCache = join(tmpRoot, 'warm-cache');
let coldCount = 0;
const coldCache = () => ({ AGENTC_CACHE_DIR: join(tmpRoot, `cold-cache-${++coldCount}`) });
const dropCold = () => rmSync(join(tmpRoot, `cold-cache-${coldCount}`), { recursive: true, force: true });

const COMMANDS = [
  { key: 'node', label: 'node -e 0', argv: () => ['-e', '0'] },
  { key: 'floor', label: 'floor (read+parse+tokenize)', argv: () => [join(benchDir, 'floor.mjs'), '--cwd', ws] },
  { key: 'check', label: 'agentc check (cold cache)', argv: () => [agentc, 'check', '--cwd', ws], env: coldCache, after: dropCold },
  { key: 'checkWarm', label: 'agentc check (warm cache)', argv: () => [agentc, 'check', '--cwd', ws], env: () => ({ AGENTC_CACHE_DIR: warmCache }) },
  {
    key: 'build',
    label: 'agentc build (fresh out dir, cold cache)',
    argv: () => [agentc, 'build', '--cwd', ws, '--out', join(tmpRoot, `fresh-${++freshCount}`)],
    env: coldCache,
    after: () => {
      dropCold();
      rmSync(join(tmpRoot, `fresh-${freshCount}`), { recursive: true, force: true });
    },
  },
  {
    key: 'rebuild',
    label: 'agentc build (no change, warm cache)',
    argv: () => [agentc, 'build', '--cwd', ws, '--out', nochangeOut],
    env: () => ({ AGENTC_CACHE_DIR: warmCache }),
  },
];

let services;
if (args.service) {
  log('bench: preparing the services (generated/ of the 1,000-card workspace and of this repo) …');
  services = prepareServices({ repo, build: (out) => buildInto(agentc, ws, out) });
  COMMANDS.push(...serviceCommands(services));
}

const env = { cpus: cpus().length, node: process.version, loadavgAtStart: loadavg().map((x) => Math.round(x * 100) / 100) };
log(
  `bench: ${args.runs} runs + 1 warm-up of ${COMMANDS.map((c) => c.key).join(', ')} (node ${env.node}, ${env.cpus} CPUs, load ${env.loadavgAtStart.join(' ')})`,
);

const samples = Object.fromEntries(COMMANDS.map((c) => [c.key, []]));
for (let round = 0; round <= args.runs; round++) {
  const order = COMMANDS.map((_, i) => COMMANDS[(i + round) % COMMANDS.length]);
  const line = [];
  for (const cmd of order) {
    const r = await measure(cmd.argv(), cmd.env?.());
    cmd.after?.();
    if (r.code !== 0) fail(`${cmd.label} exited with ${r.code ?? r.signal}`, r);
    if (round > 0) samples[cmd.key].push(r);
    line.push(`${cmd.key} ${fmtMs(r.ms)}`);
  }
  log(`  ${round === 0 ? 'warm-up' : `run ${round}/${args.runs}`}: ${line.join(', ')}`);
}

const stat = (key) => {
  const ms = samples[key].map((s) => s.ms);
  const cpu = samples[key].map((s) => s.cpuMs).filter((x) => x != null);
  const rss = samples[key].map((s) => s.maxRssKb).filter((x) => x != null);
  return {
    medianMs: round1(median(ms)),
    minMs: round1(Math.min(...ms)),
    maxMs: round1(Math.max(...ms)),
    samplesMs: ms.map(round1),
    medianCpuMs: cpu.length > 0 ? round1(median(cpu)) : null,
    peakRssMb: rss.length > 0 ? round1((Math.max(...rss) * 1024) / 1e6) : null,
  };
};
const results = Object.fromEntries(COMMANDS.map((c) => [c.key, { label: c.label, ...stat(c.key) }]));
const floorMs = results.floor.medianMs;
for (const c of COMMANDS) {
  const res = results[c.key];
  res.ratioToFloor = round2(res.medianMs / floorMs);
  // Less noisy views of the same ratio: per round (the two ran seconds apart), and in CPU time.
  res.pairedRatioToFloor = round2(median(samples[c.key].map((s, i) => s.ms / samples.floor[i].ms)));
  res.cpuRatioToFloor = res.medianCpuMs != null && results.floor.medianCpuMs ? round2(res.medianCpuMs / results.floor.medianCpuMs) : null;
}

const targets = [
  target('check time', `${results.check.ratioToFloor.toFixed(2)}× floor`, `≤ ${TARGET_CHECK_RATIO}× floor`, results.check.ratioToFloor <= TARGET_CHECK_RATIO),
  target(
    'full build time',
    `${results.build.ratioToFloor.toFixed(2)}× floor`,
    `≤ ${TARGET_BUILD_RATIO}× floor`,
    results.build.ratioToFloor <= TARGET_BUILD_RATIO,
  ),
  target(
    'check peak RSS',
    results.check.peakRssMb == null ? 'n/a' : `${Math.round(results.check.peakRssMb)} MB`,
    `< ${TARGET_CHECK_RSS_MB} MB`,
    results.check.peakRssMb != null && results.check.peakRssMb < TARGET_CHECK_RSS_MB,
  ),
  target(
    'warm check time',
    `${results.checkWarm.ratioToFloor.toFixed(2)}× floor`,
    `≤ ${TARGET_WARM_CHECK_RATIO}× floor`,
    results.checkWarm.ratioToFloor <= TARGET_WARM_CHECK_RATIO,
  ),
  target('warm vs cold check', `${round2(results.checkWarm.medianMs / results.check.medianMs).toFixed(2)}× cold`, 'informational', true),
  target('warm check vs node -e 0', `${round2(results.checkWarm.medianMs / results.node.medianMs).toFixed(2)}× node`, 'informational', true),
  target(
    'no-change build',
    `${round2(results.rebuild.medianMs / results.checkWarm.medianMs).toFixed(2)}× warm check`,
    `≤ ${TARGET_NOCHANGE_RATIO}× warm check`,
    results.rebuild.medianMs / results.checkWarm.medianMs <= TARGET_NOCHANGE_RATIO,
  ),
];

if (services) {
  const r = results;
  const tscRatio = round2(r.tsc1000.medianMs / r.tscRepo.medianMs);
  const tscPaired = round2(median(samples.tsc1000.map((x, i) => x.ms / samples.tscRepo[i].ms)));
  const sizeRatio = round2(services.synthetic.bundleJsonBytes / FORMAT_1_BUNDLE_JSON_BYTES);
  const loadRatio = round2(r.load1000.medianMs / r.node.medianMs);
  targets.push(
    target(
      'service tsc, 1,000 cards vs this repo',
      `${tscRatio.toFixed(2)}× (per round ${tscPaired.toFixed(2)}×; CPU ${round2(r.tsc1000.medianCpuMs / r.tscRepo.medianCpuMs).toFixed(2)}×)`,
      `≤ ${TARGET_SERVICE_TSC_RATIO}×`,
      tscRatio <= TARGET_SERVICE_TSC_RATIO,
    ),
    target(
      'service tsc peak RSS, 1,000 cards vs this repo',
      `${round2(r.tsc1000.peakRssMb / r.tscRepo.peakRssMb).toFixed(2)}× (${Math.round(r.tsc1000.peakRssMb)} MB vs ${Math.round(r.tscRepo.peakRssMb)} MB)`,
      'informational',
      true,
    ),
    target(
      'bundle.json size, 1,000 cards',
      `${(services.synthetic.bundleJsonBytes / 1e6).toFixed(1)} MB = ${sizeRatio.toFixed(2)}× format 1's ${(FORMAT_1_BUNDLE_JSON_BYTES / 1e6).toFixed(1)} MB (this repo: ${(services.repo.bundleJsonBytes / 1e3).toFixed(0)} kB)`,
      '≤ 0.33×',
      services.synthetic.bundleJsonBytes <= FORMAT_1_BUNDLE_JSON_BYTES * TARGET_BUNDLE_SIZE_RATIO,
    ),
    target(
      'bundle load at service start, 1,000 cards',
      `${loadRatio.toFixed(2)}× node -e 0 (this repo ${round2(r.loadRepo.medianMs / r.node.medianMs).toFixed(2)}×)`,
      `≤ ${TARGET_BUNDLE_LOAD_RATIO}× node -e 0`,
      loadRatio <= TARGET_BUNDLE_LOAD_RATIO,
    ),
  );
}

const watch = args.watch ? await benchWatch(results.build.medianMs) : { skipped: 'disabled with --no-watch' };
if (watch.medianMs !== undefined) {
  targets.push(
    target(
      'incremental rebuild',
      `${(watch.ratioToBuild * 100).toFixed(1)}% of full build`,
      `≤ ${TARGET_INCREMENTAL_RATIO * 100}% of full build`,
      watch.ratioToBuild <= TARGET_INCREMENTAL_RATIO,
    ),
  );
}
const runtime = args.runtime
  ? await benchRuntime(['runtime.mjs', 'providers.mjs', 'runtime-stream.mjs', 'sessions.mjs'])
  : { skipped: 'disabled with --no-runtime' };

const report = {
  workspace: { path: relative(repo, ws), generator: stamp.generator, ...stamp.stats },
  runs: args.runs,
  environment: { ...env, loadavgAtEnd: loadavg().map((x) => Math.round(x * 100) / 100) },
  results,
  watch,
  runtime,
  targets,
  pass: targets.every((t) => t.pass),
};
process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : renderTable(report));
process.exitCode = args.strict && !report.pass ? 1 : 0;

// ---------------------------------------------------------------------------

function measure(argv, extraEnv) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(benchDir, 'measure.mjs'), ...argv], {
      cwd: repo,
      env: { ...process.env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const last = out.trim().split('\n').pop();
      try {
        resolve(JSON.parse(last));
      } catch {
        reject(new Error(`bench/measure.mjs failed (exit ${code}): ${out}`));
      }
    });
  });
}

/**
 * One watcher process; per run: edit one block (append a sentence), time until
 * the watcher's next "build:" line, then restore the block and wait for that
 * rebuild too (untimed), so runs never overlap.
 */
async function benchWatch(fullBuildMs) {
  const out = join(tmpRoot, 'watch-out');
  const hook = new URL('./rss-hook.mjs', import.meta.url).href;
  const rssFile = join(tmpRoot, 'watch-rss.json');
  const child = spawn(process.execPath, ['--import', hook, agentc, 'build', '--watch', '--cwd', ws, '--out', out], {
    cwd: repo,
    env: { ...process.env, AGENTC_BENCH_RSS_FILE: rssFile, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanup.watcher = child;
  const lines = lineReader(child);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr = (stderr + d).slice(-4096)));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));

  const stop = async () => {
    const hwm = vmHwmKb(child.pid);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    let rss = hwm;
    try {
      rss = Math.max(rss ?? 0, JSON.parse(readFileSync(rssFile, 'utf8')).maxRssKb);
    } catch {
      // killed without an exit handler: /proc's VmHWM read before the signal stands
    }
    return rss == null ? null : round1((rss * 1024) / 1e6);
  };

  const t0 = performance.now();
  const first = await Promise.race([lines.next(REBUILD_TIMEOUT_MS), exited.then((e) => ({ exited: e }))]);
  if (first.exited || first.timeout) {
    await stop();
    const why = first.exited ? `it exited (${first.exited.code ?? first.exited.signal}) before its first build` : 'no first build within the time limit';
    const detail = stderr.trim().split('\n')[0] ?? '';
    return { skipped: `agentc build --watch is not available: ${why}${detail ? `: ${detail}` : ''}` };
  }
  if (!/^build: ok\b/.test(first.line)) {
    await stop();
    fail(`the watcher's first build failed: ${first.line}`, { stdout: lines.all(), stderr });
  }
  const initialMs = round1(performance.now() - t0);
  log(`  watch: initial build ${fmtMs(initialMs)} (${first.line})`);

  const targets = editTargets(args.runs);
  const samplesMs = [];
  const reports = [];
  for (let i = 0; i < targets.length; i++) {
    const file = targets[i];
    const original = readFileSync(file, 'utf8');
    const edited = `${original}\nA note added by the benchmark, run ${i + 1}: keep answers brief.\n`;
    cleanup.restore = { file, text: original };
    const t = performance.now();
    writeFileSync(file, edited);
    const r = await lines.next(REBUILD_TIMEOUT_MS);
    const ms = performance.now() - t;
    if (r.timeout || !/^build: ok\b/.test(r.line))
      fail(`incremental rebuild ${i + 1}: ${r.line ?? 'no report within the time limit'}`, { stdout: lines.all(), stderr });
    samplesMs.push(round1(ms));
    reports.push(r.line);
    writeFileSync(file, original);
    cleanup.restore = undefined;
    const back = await lines.next(REBUILD_TIMEOUT_MS);
    if (back.timeout) fail('the watcher did not rebuild after the block was restored', { stdout: lines.all(), stderr });
    log(`  watch: run ${i + 1}/${targets.length}: ${fmtMs(samplesMs[i])} (${relative(ws, file)})`);
  }
  const peakRssMb = await stop();
  const med = median(samplesMs);
  return {
    label: 'agentc build --watch: one-block edit',
    initialBuildMs: initialMs,
    medianMs: round1(med),
    minMs: Math.min(...samplesMs),
    maxMs: Math.max(...samplesMs),
    samplesMs,
    ratioToBuild: round2(med / fullBuildMs),
    peakRssMb,
    lastReport: reports.at(-1),
  };
}

/** Block files to edit, one per run: specialists' own blocks, spread over teams. */
function editTargets(n) {
  const dirs = readdirSync(join(ws, 'blocks'))
    .filter((d) => d !== 'platform' && d !== 'shared')
    .sort();
  const out = [];
  for (let i = 0; out.length < n; i++) {
    const dir = dirs[(i * 37) % dirs.length];
    const files = readdirSync(join(ws, 'blocks', dir))
      .filter((f) => f.startsWith('instructions-') && !f.startsWith('instructions-routing-'))
      .sort();
    if (files.length > 0) out.push(join(ws, 'blocks', dir, files[i % files.length]));
    if (i > n * 50) break;
  }
  return out;
}

/** Lines of a child's stdout that start with "build:", one at a time. */
function lineReader(child) {
  const queue = [];
  let waiter;
  let buf = '';
  let all = '';
  child.stdout.setEncoding('utf8').on('data', (d) => {
    all = (all + d).slice(-8192);
    buf += d;
    let nl;
    while ((nl = buf.indexOf('\n')) !== -1) {
      // eslint-disable-next-line no-control-regex -- strips the ANSI colour codes vitest writes
      const line = buf.slice(0, nl).replace(/\x1b\[[0-9;]*m/g, '');
      buf = buf.slice(nl + 1);
      if (!line.startsWith('build:')) continue;
      if (waiter) {
        const w = waiter;
        waiter = undefined;
        w({ line });
      } else queue.push(line);
    }
  });
  return {
    all: () => all,
    next: (timeoutMs) =>
      queue.length > 0
        ? Promise.resolve({ line: queue.shift() })
        : new Promise((resolve) => {
            const timer = setTimeout(() => {
              waiter = undefined;
              resolve({ timeout: true });
            }, timeoutMs);
            waiter = (v) => {
              clearTimeout(timer);
              resolve(v);
            };
          }),
  };
}

/** Peak RSS of a live process from /proc (Linux), in kB; null elsewhere. */
function vmHwmKb(pid) {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Runs each runtime bench script present (in order); their stdout lines are reported as printed. */
async function benchRuntime(names) {
  const present = names.filter((n) => existsSync(join(benchDir, n)));
  if (present.length === 0) return { skipped: 'bench/runtime.mjs does not exist yet' };
  const all = { lines: [], ms: 0 };
  for (const name of present) {
    log(`  runtime: node bench/${name} …`);
    const r = await measure([join(benchDir, name)]);
    const lines = r.stdout.split('\n').filter((l) => l.trim() !== '');
    if (r.code !== 0)
      return { failed: `bench/${name} exit ${r.code ?? r.signal}`, lines: [...all.lines, ...lines], stderr: r.stderr.trim().split('\n').slice(-5) };
    all.lines.push(...lines);
    all.ms = round1(all.ms + r.ms);
  }
  return all;
}

function target(name, value, limit, pass) {
  return { name, value, limit, pass };
}

function fail(message, r) {
  log(`bench: ${message}`);
  if (r?.stdout) log(`--- stdout (tail) ---\n${r.stdout.trim()}`);
  if (r?.stderr) log(`--- stderr (tail) ---\n${r.stderr.trim()}`);
  process.exit(2);
}

// ---------------------------------------------------------------------------
// Output

function renderTable(r) {
  const w = r.workspace;
  const out = [];
  out.push('');
  out.push(
    `agentc bench — ${w.cards} cards (${w.orchestrators} orchestrators, ${w.desks} desks, ${w.specialists} specialists), ${w.blocks} blocks, ${w.tools} tools`,
  );
  out.push(
    `workspace ${w.path} (generator ${w.generator}); median of ${r.runs} runs after 1 warm-up; node ${r.environment.node}, ${r.environment.cpus} CPUs, load ${r.environment.loadavgAtStart.join(' ')} → ${r.environment.loadavgAtEnd.join(' ')}`,
  );
  out.push('');
  const rows = [['command', 'median', 'min – max', 'ratio', 'CPU (median)', 'peak RSS', 'target', 'result']];
  const checkTime = r.targets.find((t) => t.name === 'check time');
  const checkRss = r.targets.find((t) => t.name === 'check peak RSS');
  for (const [key, res] of Object.entries(r.results)) {
    const isCheck = key === 'check';
    rows.push([
      res.label,
      fmtMs(res.medianMs),
      `${fmtMs(res.minMs)} – ${fmtMs(res.maxMs)}`,
      key === 'floor' ? '1.00× (floor)' : `${res.ratioToFloor.toFixed(2)}× floor`,
      res.medianCpuMs == null ? 'n/a' : `${fmtMs(res.medianCpuMs)}${key === 'floor' ? '' : ` (${res.cpuRatioToFloor.toFixed(2)}×)`}`,
      res.peakRssMb == null ? 'n/a' : `${Math.round(res.peakRssMb)} MB`,
      isCheck ? `${checkTime.limit}, RSS ${checkRss.limit}` : key === 'rebuild' ? `(${pct(res.medianMs / r.results.build.medianMs)} of full build)` : '—',
      isCheck ? `${passFail(checkTime.pass)} time, ${passFail(checkRss.pass)} RSS` : '',
    ]);
  }
  if (r.watch.medianMs !== undefined) {
    const t = r.targets.find((x) => x.name === 'incremental rebuild');
    rows.push([
      'build --watch: one-block edit',
      fmtMs(r.watch.medianMs),
      `${fmtMs(r.watch.minMs)} – ${fmtMs(r.watch.maxMs)}`,
      `${pct(r.watch.ratioToBuild)} of build`,
      '',
      r.watch.peakRssMb == null ? 'n/a' : `${Math.round(r.watch.peakRssMb)} MB`,
      t.limit,
      passFail(t.pass),
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  rows.forEach((row, i) => {
    out.push(
      row
        .map((c, j) => (j >= 1 && j <= 5 ? c.padStart(widths[j]) : c.padEnd(widths[j])))
        .join('  ')
        .trimEnd(),
    );
    if (i === 0) out.push(widths.map((n) => '-'.repeat(n)).join('  '));
  });
  out.push('');
  const c = r.results.check;
  out.push(
    `check vs floor, less noisy views: per-round wall ratio ${c.pairedRatioToFloor.toFixed(2)}× (median of ${r.runs} rounds), CPU-time ratio ${c.cpuRatioToFloor == null ? 'n/a' : `${c.cpuRatioToFloor.toFixed(2)}×`}; targets are judged on wall-time medians.`,
  );
  if (r.watch.skipped) out.push(`watch: skipped — ${r.watch.skipped}`);
  else if (r.watch.medianMs !== undefined)
    out.push(
      `watch: initial build ${fmtMs(r.watch.initialBuildMs)}; time = write of one block → the watcher's "build:" line (includes its debounce); last: ${r.watch.lastReport}`,
    );
  if (r.runtime.skipped) out.push(`runtime: skipped — ${r.runtime.skipped}`);
  else if (r.runtime.failed) out.push(`runtime: failed (${r.runtime.failed}): ${[...r.runtime.lines, ...r.runtime.stderr].join(' | ')}`);
  else for (const l of r.runtime.lines) out.push(`runtime: ${l}`);
  out.push('');
  out.push('targets:');
  for (const t of r.targets) out.push(`  ${passFail(t.pass)}  ${t.name}: ${t.value} (target ${t.limit})`);
  out.push('');
  return `${out.join('\n')}\n`;
}

function passFail(ok) {
  return ok ? 'PASS' : 'FAIL';
}

// ---------------------------------------------------------------------------

function parseArgs(argv) {
  const a = { runs: 7, json: false, watch: true, runtime: true, service: true, regen: false, strict: false };
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i];
    if (x === '--runs') {
      a.runs = Number(argv[++i]);
      if (!Number.isInteger(a.runs) || a.runs < 1) usage(`--runs takes a positive integer, got ${argv[i]}`);
    } else if (x === '--json') a.json = true;
    else if (x === '--no-watch') a.watch = false;
    else if (x === '--no-runtime') a.runtime = false;
    else if (x === '--no-service') a.service = false;
    else if (x === '--regen') a.regen = true;
    else if (x === '--strict') a.strict = true;
    else if (x === '--help' || x === '-h') usage();
    else usage(`unknown argument ${x}`);
  }
  return a;
}

function usage(problem) {
  const text = 'usage: node bench/run.mjs [--runs N] [--json] [--no-watch] [--no-runtime] [--no-service] [--regen] [--strict]\n';
  if (problem) {
    process.stderr.write(`bench: ${problem}\n${text}`);
    process.exit(2);
  }
  process.stdout.write(text);
  process.exit(0);
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}
function round1(x) {
  return Math.round(x * 10) / 10;
}
function round2(x) {
  return Math.round(x * 100) / 100;
}
function pct(x) {
  return `${(x * 100).toFixed(1)}%`;
}
function fmtMs(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}
