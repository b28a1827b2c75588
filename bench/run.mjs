#!/usr/bin/env node
// agentc benchmarks (`npm run bench`, which builds dist/ first): every figure of
// issue 14, on the 1,000-card synthetic workspace and on this repository's own
// workspace, side by side, as ratios measured in the same run.
//
//   node bench/run.mjs [--runs N] [--only synthetic|repo] [--no-diff] [--no-watch]
//                      [--no-service] [--no-runtime] [--regen] [--json] [--strict]
//
// Narrowing a run (the full run takes several minutes on 2 busy cores):
//   --runs N       timed rounds (default 7; medians need ≥ 5)
//   --only W       one workspace: `synthetic` (1,000 cards) or `repo` (this repository)
//   --no-diff      skip `check`/`diff` after one edit    --no-watch    skip the watcher
//   --no-service   skip service tsc / bundle load        --no-runtime  skip bench/runtime*.mjs
//
// 1. Generates the synthetic workspace (bench/synth.mjs → bench/.work/ws) when it
//    is missing or was made by another generator version. Each workspace is copied
//    into a temporary git repository (one commit), so that the bench can edit it
//    and diff against that commit without touching the originals.
// 2. Times whole processes, each N times after one untimed warm-up round,
//    interleaved (the order rotates every round) to spread machine noise; per
//    workspace:
//      floor        node bench/floor.mjs          read + parse + tokenize, nothing else
//      floorJs      floor.mjs --parser js-yaml    the same with js-yaml (check's parser for clean files): info
//      check        agentc check (cold cache)     ≤ 1.2× floor at 1,000 cards
//      checkWarm    agentc check (warm cache)     ≤ 0.4× floor at 1,000 cards; ≤ 3× node -e 0 on this repo
//      build        agentc build --out <fresh>    ≤ 1.6× floor at 1,000 cards
//      rebuild      agentc build --out <same>     no change: ≤ 1.2× warm check, writes nothing
//      buildCheck   agentc build --check (cold cache, output up to date)   peak RSS ≤ 1.5× check's
//      checkEdit    agentc check after one block edit (warm token cache)
//      diff         agentc diff --against HEAD after one block edit        ≤ 1.3× checkEdit
//    and once: node -e 0, and (bench/service.mjs; --no-service) a service's
//    tsc --strict --noEmit over generated/ (1,000 cards ≤ 1.3× this repo), loading
//    the bundle at service start (≤ 2× node -e 0 at 1,000 cards), and bundle.json's
//    size at 1,000 cards against format 1's (≤ 1/3).
//    Each child runs under bench/measure.mjs, which reports its wall time, CPU time
//    and the child's own peak RSS. Ratios are medians of per-round ratios (the two
//    commands ran seconds apart), with the CPU-time ratio beside them; a time target
//    passes only when both meet it.
// 3. Incremental rebuild (when `agentc build --watch` exists): one watcher per
//    workspace, 1.5 s of quiet after its first build (the watcher rehearses rebuilds
//    then, as for a user), one untimed warm-up edit, then N one-block edits, time from the
//    write to the watcher's "build:" line; ≤ 3% of the full build's median at 1,000 cards.
// 4. bench/runtime.mjs (owned elsewhere), bench/providers.mjs (provider clients
//    against local mocks, cold start) and bench/runtime-stream.mjs (streaming turns),
//    and bench/sessions.mjs (session stores on a 200-turn episode), when present: their lines as printed.
//
// Prints a table of figures (one column per workspace, the target, PASS/FAIL) and
// one of the commands' medians, or one JSON object with --json. Exit 0, or 1 with
// --strict when a target fails; 2 when a benchmarked command itself fails.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInto, FORMAT_1_BUNDLE_JSON_BYTES, prepareServices, serviceCommands } from './service.mjs';
import { DEFAULT_OUT, generatorVersion, isFresh, synthesize } from './synth.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const repo = join(benchDir, '..');
const agentc = join(repo, 'bin', 'agentc.js');

const TARGET_CHECK_RATIO = 1.2; // cold check ≤ 1.2× the floor (issue 14)
const TARGET_BUILD_RATIO = 1.6; // full build ≤ 1.6× the floor (issue 14)
const TARGET_CHECK_RSS_MB = 400;
const TARGET_INCREMENTAL_RATIO = 0.03; // a one-block edit rebuilds in ≤ 3% of a full build (issue 14)
const TARGET_WARM_CHECK_RATIO = 0.4; // warm check ≤ 0.4× the floor at 1,000 cards (issue 14)
const TARGET_WARM_CHECK_NODE_RATIO = 3; // warm check on this repo ≤ 3× node -e 0 (issue 14)
const TARGET_NOCHANGE_RATIO = 1.2; // no-change build ≤ 1.2× warm check (issue 14)
const TARGET_BUILD_CHECK_RSS_RATIO = 1.5; // build --check within 1.5× check's memory (issue 14)
const TARGET_DIFF_RATIO = 1.3; // diff ≤ 1.3× check (issue 14)
const TARGET_SERVICE_TSC_RATIO = 1.3; // service tsc at 1,000 cards ≤ 1.3× on this repo (issue 14)
const TARGET_BUNDLE_SIZE_RATIO = 1 / 3; // bundle.json ≤ 1/3 of format 1's at 1,000 cards (issue 14)
const TARGET_BUNDLE_LOAD_RATIO = 2; // bundle load at service start ≤ 2× node -e 0 (issue 14)
const REBUILD_TIMEOUT_MS = 180_000;
/** How long the bench waits after the watcher's first build before its first edit (a user is not that quick; see benchWatch). */
const WATCH_IDLE_MS = 1_500;
const USAGE = `usage: node bench/run.mjs [--runs N] [--only synthetic|repo] [--no-diff] [--no-watch] [--no-service] [--no-runtime] [--regen] [--json] [--strict]
  --runs N       timed rounds after one warm-up (default 7; medians need >= 5)
  --only W       one workspace: synthetic (1,000 cards) or repo (this repository)
  --no-diff      skip check/diff after one edit
  --no-watch     skip the build --watch edits
  --no-service   skip service tsc, bundle load and bundle.json size
  --no-runtime   skip bench/runtime*.mjs, providers.mjs, sessions.mjs
  --regen        regenerate the synthetic workspace
  --json         one JSON object instead of the tables
  --strict       exit 1 when a target fails
`;

const args = parseArgs(process.argv.slice(2));
const log = (s) => process.stderr.write(`${s}\n`);

// ---------------------------------------------------------------------------

if (!existsSync(join(repo, 'dist', 'cli', 'main.js')) && !existsSync(join(repo, 'dist', 'index.js'))) {
  log('bench: dist/ is missing; run `npm run bench` (it builds first) or `npm run build`.');
  process.exit(2);
}
if (args.only !== 'repo' && (args.regen || !isFresh(DEFAULT_OUT))) {
  log(`bench: generating the synthetic workspace (generator ${generatorVersion()}) …`);
  const stats = synthesize({ out: DEFAULT_OUT });
  log(`bench: ${stats.cards} cards, ${stats.blocks} blocks, ${stats.tools} tools → ${relative(repo, DEFAULT_OUT)}`);
}
const tmpRoot = mkdtempSync(join(tmpdir(), 'agentc-bench-'));
/** Cleanup that must happen however the run ends: watchers to stop. */
const cleanup = { watchers: new Set() };
process.on('exit', () => {
  for (const w of cleanup.watchers) if (w.exitCode === null) w.kill('SIGKILL');
  rmSync(tmpRoot, { recursive: true, force: true });
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));

/** The workspace folders agentc reads (and the bench copies). */
const WORKSPACE_ENTRIES = ['agentc.config.ts', 'cards', 'blocks', 'schemas', 'evals'];

/** The two workspaces, each copied into its own git repository under tmpRoot. */
const WORKSPACES = [
  { id: 'synthetic', title: '1,000 cards', source: DEFAULT_OUT },
  { id: 'repo', title: 'this repo', source: repo },
].filter((w) => args.only === undefined || args.only === w.id);
for (const w of WORKSPACES) {
  w.dir = join(tmpRoot, `ws-${w.id}`);
  mkdirSync(w.dir);
  for (const e of WORKSPACE_ENTRIES) if (existsSync(join(w.source, e))) cpSync(join(w.source, e), join(w.dir, e), { recursive: true });
  git(w.dir, 'init', '-q');
  git(w.dir, 'add', '-A');
  git(w.dir, 'commit', '-q', '-m', 'bench base');
  w.stats = countFiles(w.dir);
  if (w.id === 'synthetic') w.stats = { ...w.stats, ...JSON.parse(readFileSync(join(w.source, '.synth.json'), 'utf8')).stats };
}

const env = { cpus: cpus().length, node: process.version, loadavgAtStart: loadavg().map((x) => Math.round(x * 100) / 100) };
const COMMANDS = [{ ws: 'shared', key: 'node', label: 'node -e 0', argv: () => ['-e', '0'] }];
for (const w of WORKSPACES) COMMANDS.push(...workspaceCommands(w));

let services;
if (args.service) {
  log('bench: preparing the services (generated/ of the 1,000-card workspace and of this repo) …');
  services = prepareServices({ repo, build: (out) => buildInto(agentc, DEFAULT_OUT, out) });
  COMMANDS.push(...serviceCommands(services).map((c) => ({ ws: 'shared', ...c })));
}

log(
  `bench: ${args.runs} runs + 1 warm-up of ${COMMANDS.map((c) => (c.ws === 'shared' ? c.key : `${c.ws}.${c.key}`)).join(', ')} (node ${env.node}, ${env.cpus} CPUs, load ${env.loadavgAtStart.join(' ')})`,
);

const samples = new Map(COMMANDS.map((c) => [c, []]));
for (let round = 0; round <= args.runs; round++) {
  const order = COMMANDS.map((_, i) => COMMANDS[(i + round) % COMMANDS.length]);
  const line = [];
  for (const cmd of order) {
    cmd.before?.();
    const r = await measure(cmd.argv(), cmd.env?.());
    cmd.after?.();
    if (r.code !== 0) fail(`${cmd.label} (${cmd.ws}) exited with ${r.code ?? r.signal}`, r);
    if (round > 0) samples.get(cmd).push(r);
    line.push(`${cmd.ws === 'shared' ? '' : `${cmd.ws}.`}${cmd.key} ${fmtMs(r.ms)}`);
  }
  log(`  ${round === 0 ? 'warm-up' : `run ${round}/${args.runs}`}: ${line.join(', ')}`);
}

/** results[ws][key]: medians (wall, CPU, peak RSS) of one command. */
const results = {};
for (const c of COMMANDS) {
  const ss = samples.get(c);
  const ms = ss.map((s) => s.ms);
  const cpu = ss.map((s) => s.cpuMs).filter((x) => x != null);
  const rss = ss.map((s) => s.maxRssKb).filter((x) => x != null);
  (results[c.ws] ??= {})[c.key] = {
    label: c.label,
    medianMs: round1(median(ms)),
    minMs: round1(Math.min(...ms)),
    maxMs: round1(Math.max(...ms)),
    samplesMs: ms.map(round1),
    medianCpuMs: cpu.length > 0 ? round1(median(cpu)) : null,
    medianRssMb: rss.length > 0 ? round1((median(rss) * 1024) / 1e6) : null,
    peakRssMb: rss.length > 0 ? round1((Math.max(...rss) * 1024) / 1e6) : null,
  };
}
const sampleOf = (ws, key) => samples.get(COMMANDS.find((c) => c.ws === ws && c.key === key));

/**
 * One figure: `a` against `b` (each [ws, key]) as the median of per-round ratios
 * (wall time, or peak RSS with `rss`), with the ratio of CPU-time medians beside it.
 */
function ratio(a, b, { rss = false } = {}) {
  const sa = sampleOf(...a);
  const sb = sampleOf(...b);
  if (sa === undefined || sb === undefined) return undefined;
  const field = rss ? 'maxRssKb' : 'ms';
  // Unrounded: a target is judged on the ratio itself, rounding is for printing only.
  const paired = median(sa.map((x, i) => x[field] / sb[i][field]));
  const ra = results[a[0]][a[1]];
  const rb = results[b[0]][b[1]];
  const cpu = !rss && ra.medianCpuMs && rb.medianCpuMs ? ra.medianCpuMs / rb.medianCpuMs : null;
  return { ratio: paired, cpu, a: rss ? ra.medianRssMb : ra.medianMs, b: rss ? rb.medianRssMb : rb.medianMs };
}

/**
 * A time target is met only when both views meet it: the paired wall-time ratio and
 * the CPU-time ratio (on a shared machine either alone can flatter a command).
 */
function meets(r, limit) {
  return r.ratio <= limit && (r.cpu == null || r.cpu <= limit);
}

// Figures: one row per issue-14 figure, one cell per workspace.
const figures = [];
/** `limit` only where the issue sets a target for that workspace; other cells are informational. */
function figure(name, unit, cells, limits = {}) {
  const row = { name, unit, cells: {} };
  for (const w of WORKSPACES) {
    const r = cells(w.id);
    if (r === undefined) continue;
    const limit = limits[w.id];
    row.cells[w.id] = { ...r, limit: limit ?? null, pass: limit === undefined ? null : meets(r, limit) };
  }
  figures.push(row);
}
figure('cold check', '× floor', (w) => ratio([w, 'check'], [w, 'floor']), { synthetic: TARGET_CHECK_RATIO });
figure('cold check', '× floor read by js-yaml', (w) => ratio([w, 'check'], [w, 'floorJs']));
figure('warm check', '× floor', (w) => ratio([w, 'checkWarm'], [w, 'floor']), { synthetic: TARGET_WARM_CHECK_RATIO });
figure('warm check', '× node -e 0', (w) => ratio([w, 'checkWarm'], ['shared', 'node']), { repo: TARGET_WARM_CHECK_NODE_RATIO });
figure('full build', '× floor', (w) => ratio([w, 'build'], [w, 'floor']), { synthetic: TARGET_BUILD_RATIO });
figure('no-change build', '× warm check', (w) => ratio([w, 'rebuild'], [w, 'checkWarm']), {
  synthetic: TARGET_NOCHANGE_RATIO,
  repo: TARGET_NOCHANGE_RATIO,
});
figure('build --check peak RSS', '× check', (w) => ratio([w, 'buildCheck'], [w, 'check'], { rss: true }), {
  synthetic: TARGET_BUILD_CHECK_RSS_RATIO,
  repo: TARGET_BUILD_CHECK_RSS_RATIO,
});
if (args.diff) {
  figure('diff after one edit', '× check after that edit', (w) => ratio([w, 'diff'], [w, 'checkEdit']), {
    synthetic: TARGET_DIFF_RATIO,
    repo: TARGET_DIFF_RATIO,
  });
  figure('diff after one edit', '× cold check', (w) => ratio([w, 'diff'], [w, 'check']));
}

const targets = [];
for (const f of figures)
  for (const [ws, c] of Object.entries(f.cells))
    if (c.limit !== null)
      targets.push(
        target(
          `${f.name} (${titleOf(ws)})`,
          `${c.ratio.toFixed(2)}${f.unit}${c.cpu == null ? '' : ` (CPU ${c.cpu.toFixed(2)}×)`}`,
          `≤ ${round2(c.limit)}${f.unit}`,
          c.pass,
        ),
      );
const synthCheck = results.synthetic?.check;
if (synthCheck) {
  targets.push(
    target(
      'check peak RSS (1,000 cards)',
      synthCheck.peakRssMb == null ? 'n/a' : `${Math.round(synthCheck.peakRssMb)} MB`,
      `< ${TARGET_CHECK_RSS_MB} MB`,
      synthCheck.peakRssMb != null && synthCheck.peakRssMb < TARGET_CHECK_RSS_MB,
    ),
  );
}

if (services) {
  const r = results.shared;
  const tsc = ratio(['shared', 'tsc1000'], ['shared', 'tscRepo']);
  const sizeRatio = services.synthetic.bundleJsonBytes / FORMAT_1_BUNDLE_JSON_BYTES;
  const load1000 = ratio(['shared', 'load1000'], ['shared', 'node']);
  const loadRepo = ratio(['shared', 'loadRepo'], ['shared', 'node']);
  figures.push(
    {
      name: 'service tsc --strict',
      unit: '× this repo',
      cells: {
        synthetic: { ...tsc, limit: TARGET_SERVICE_TSC_RATIO, pass: meets(tsc, TARGET_SERVICE_TSC_RATIO) },
        repo: { ratio: 1, cpu: 1, a: tsc.b, b: tsc.b, limit: null, pass: null },
      },
    },
    {
      name: 'service tsc peak RSS',
      unit: '× this repo',
      cells: {
        synthetic: {
          ratio: round2(r.tsc1000.medianRssMb / r.tscRepo.medianRssMb),
          cpu: null,
          a: r.tsc1000.medianRssMb,
          b: r.tscRepo.medianRssMb,
          limit: null,
          pass: null,
        },
        repo: { ratio: 1, cpu: null, a: r.tscRepo.medianRssMb, b: r.tscRepo.medianRssMb, limit: null, pass: null },
      },
    },
    {
      name: 'bundle load at service start',
      unit: '× node -e 0',
      cells: {
        synthetic: { ...load1000, limit: TARGET_BUNDLE_LOAD_RATIO, pass: meets(load1000, TARGET_BUNDLE_LOAD_RATIO) },
        repo: { ...loadRepo, limit: null, pass: null },
      },
    },
    {
      name: 'bundle.json size',
      unit: "× format 1's",
      cells: {
        synthetic: {
          ratio: sizeRatio,
          cpu: null,
          bytes: services.synthetic.bundleJsonBytes,
          limit: TARGET_BUNDLE_SIZE_RATIO,
          pass: sizeRatio <= TARGET_BUNDLE_SIZE_RATIO,
        },
        repo: { ratio: null, cpu: null, bytes: services.repo.bundleJsonBytes, limit: null, pass: null },
      },
    },
  );
  targets.push(
    target(
      'service tsc, 1,000 cards vs this repo',
      `${tsc.ratio.toFixed(2)}× (CPU ${tsc.cpu?.toFixed(2) ?? 'n/a'}×)`,
      `≤ ${TARGET_SERVICE_TSC_RATIO}×`,
      meets(tsc, TARGET_SERVICE_TSC_RATIO),
    ),
    target(
      'bundle.json size, 1,000 cards',
      `${(services.synthetic.bundleJsonBytes / 1e6).toFixed(1)} MB = ${sizeRatio.toFixed(2)}× format 1's ${(FORMAT_1_BUNDLE_JSON_BYTES / 1e6).toFixed(1)} MB (this repo: ${(services.repo.bundleJsonBytes / 1e3).toFixed(0)} kB)`,
      '≤ 0.33×',
      services.synthetic.bundleJsonBytes <= FORMAT_1_BUNDLE_JSON_BYTES * TARGET_BUNDLE_SIZE_RATIO,
    ),
    target(
      'bundle load at service start, 1,000 cards',
      `${load1000.ratio.toFixed(2)}× node -e 0, CPU ${load1000.cpu?.toFixed(2) ?? 'n/a'}× (this repo ${loadRepo.ratio.toFixed(2)}×)`,
      `≤ ${TARGET_BUNDLE_LOAD_RATIO}× node -e 0`,
      meets(load1000, TARGET_BUNDLE_LOAD_RATIO),
    ),
  );
}

const watch = {};
for (const w of WORKSPACES) {
  watch[w.id] = args.watch ? await benchWatch(w, results[w.id].build.medianMs) : { skipped: 'disabled with --no-watch' };
}
const watchCells = {};
for (const w of WORKSPACES) {
  const x = watch[w.id];
  if (x.medianMs === undefined) continue;
  const limit = w.id === 'synthetic' ? TARGET_INCREMENTAL_RATIO : undefined;
  watchCells[w.id] = {
    ratio: x.ratioToBuild,
    cpu: null,
    a: x.medianMs,
    b: results[w.id].build.medianMs,
    limit: limit ?? null,
    pass: limit === undefined ? null : x.ratioToBuild <= limit,
  };
  if (limit !== undefined)
    targets.push(
      target(`watch: one-block edit (${w.title})`, `${pct(x.ratioToBuild)} of full build`, `≤ ${limit * 100}% of full build`, x.ratioToBuild <= limit),
    );
}
if (Object.keys(watchCells).length > 0) figures.push({ name: 'build --watch: one-block edit', unit: '× full build', cells: watchCells });

const runtime = args.runtime
  ? await benchRuntime(['runtime.mjs', 'providers.mjs', 'runtime-stream.mjs', 'sessions.mjs'])
  : { skipped: 'disabled with --no-runtime' };

const report = {
  workspaces: Object.fromEntries(WORKSPACES.map((w) => [w.id, { title: w.title, source: relative(repo, w.source) || '.', ...w.stats }])),
  runs: args.runs,
  environment: { ...env, loadavgAtEnd: loadavg().map((x) => Math.round(x * 100) / 100) },
  figures,
  results,
  watch,
  runtime,
  targets,
  pass: targets.every((t) => t.pass),
};
process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : renderTable(report));
process.exitCode = args.strict && !report.pass ? 1 : 0;

// ---------------------------------------------------------------------------

/** The per-workspace commands; each cache directory is private to the bench run. */
function workspaceCommands(w) {
  const dir = w.dir;
  const base = join(tmpRoot, w.id);
  mkdirSync(base);
  const warmCache = join(base, 'warm-cache');
  const editCache = join(base, 'edit-cache');
  const nochangeOut = join(base, 'rebuild-out');
  const checkOut = join(base, 'check-out');
  let n = 0;
  const cold = () => join(base, `cold-cache-${++n}`);
  let coldDir;
  const coldEnv = () => ({ AGENTC_CACHE_DIR: (coldDir = cold()) });
  const dropCold = () => rmSync(coldDir, { recursive: true, force: true });
  // The output build --check compares against: written once, up to date.
  execFileSync(process.execPath, [agentc, 'build', '--cwd', dir, '--out', checkOut], {
    env: { ...process.env, AGENTC_CACHE_DIR: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // One block edited before checkEdit and diff (a new sentence each time, so no result is cached), restored after.
  const [editFile] = editTargets(dir, 1);
  const original = readFileSync(editFile, 'utf8');
  let edits = 0;
  const edit = () => writeFileSync(editFile, `${original}\nA note added by the benchmark, edit ${++edits}: keep answers brief.\n`);
  const restore = () => writeFileSync(editFile, original);
  let fresh = 0;
  const cmds = [
    { key: 'floor', label: 'floor (read+parse+tokenize)', argv: () => [join(benchDir, 'floor.mjs'), '--cwd', dir] },
    { key: 'floorJs', label: 'floor, js-yaml parse (info)', argv: () => [join(benchDir, 'floor.mjs'), '--cwd', dir, '--parser', 'js-yaml'] },
    { key: 'check', label: 'check (cold cache)', argv: () => [agentc, 'check', '--cwd', dir], env: coldEnv, after: dropCold },
    { key: 'checkWarm', label: 'check (warm cache)', argv: () => [agentc, 'check', '--cwd', dir], env: () => ({ AGENTC_CACHE_DIR: warmCache }) },
    {
      key: 'build',
      label: 'build (fresh out dir, cold cache)',
      argv: () => [agentc, 'build', '--cwd', dir, '--out', join(base, `fresh-${++fresh}`)],
      env: coldEnv,
      // Each round's output is kept until the run ends (tmpRoot is removed on exit). Removing its 1,136
      // files here would put kernel work into the next round's build: on ext4 without a journal, creating
      // a file skips every inode freed in the last minute or more (ialloc.c recently_deleted), so a build
      // right after that removal spent up to ~1 s of system time on its creates, measured with perf.
      after: dropCold,
    },
    {
      key: 'rebuild',
      label: 'build (no change, warm cache)',
      argv: () => [agentc, 'build', '--cwd', dir, '--out', nochangeOut],
      env: () => ({ AGENTC_CACHE_DIR: warmCache }),
    },
    {
      key: 'buildCheck',
      label: 'build --check (up to date, cold cache)',
      argv: () => [agentc, 'build', '--check', '--cwd', dir, '--out', checkOut],
      env: coldEnv,
      after: dropCold,
    },
  ];
  if (args.diff) {
    cmds.push(
      {
        key: 'checkEdit',
        label: 'check after one edit (warm token cache)',
        argv: () => [agentc, 'check', '--cwd', dir],
        env: () => ({ AGENTC_CACHE_DIR: editCache }),
        before: edit,
        after: restore,
      },
      {
        key: 'diff',
        label: 'diff --against HEAD after one edit (warm cache)',
        argv: () => [agentc, 'diff', '--cwd', dir, '--against', 'HEAD', '--format', 'json'],
        env: () => ({ AGENTC_CACHE_DIR: editCache }),
        before: edit,
        after: restore,
      },
    );
  }
  return cmds.map((c) => ({ ws: w.id, ...c }));
}

function git(cwd, ...argv) {
  execFileSync('git', ['-C', cwd, ...argv], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'bench',
      GIT_AUTHOR_EMAIL: 'bench@example.com',
      GIT_COMMITTER_NAME: 'bench',
      GIT_COMMITTER_EMAIL: 'bench@example.com',
    },
  });
}

/** Cards, blocks and tools in a workspace copy. */
function countFiles(dir) {
  const count = (sub, re) => {
    try {
      return readdirSync(join(dir, sub), { recursive: true }).filter((f) => re.test(String(f))).length;
    } catch {
      return 0;
    }
  };
  return { cards: count('cards', /\.ya?ml$/), blocks: count('blocks', /\.md$/), tools: count(join('schemas', 'tools'), /\.(ya?ml|json)$/) };
}

function titleOf(ws) {
  return WORKSPACES.find((w) => w.id === ws)?.title ?? ws;
}

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
async function benchWatch(w, fullBuildMs) {
  const ws = w.dir;
  const out = join(tmpRoot, w.id, 'watch-out');
  const hook = new URL('./rss-hook.mjs', import.meta.url).href;
  const rssFile = join(tmpRoot, w.id, 'watch-rss.json');
  const child = spawn(process.execPath, ['--import', hook, agentc, 'build', '--watch', '--cwd', ws, '--out', out], {
    cwd: repo,
    env: { ...process.env, AGENTC_BENCH_RSS_FILE: rssFile, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanup.watchers.add(child);
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
  log(`  watch (${w.id}): initial build ${fmtMs(initialMs)} (${first.line})`);

  // A user's first edit comes a while after the watcher has started: the watcher uses that idle
  // time to rehearse a few rebuilds (JIT warm-up, nothing written; src/cli/commands/watch.ts).
  await new Promise((resolve) => setTimeout(resolve, WATCH_IDLE_MS));
  // One untimed warm-up edit first (its own block, not one of the timed ones), as every other
  // figure is a median of N runs after one warm-up: the first edits also pay the JIT's warm-up
  // of the incremental paths.
  const [warmup, ...targets] = editTargets(ws, args.runs + 1);
  const samplesMs = [];
  const reports = [];
  /** One edit and its restore; the time from the edit's write to the watcher's "build:" line. */
  const editOnce = async (file, label) => {
    const original = readFileSync(file, 'utf8');
    const edited = `${original}\nA note added by the benchmark, ${label}: keep answers brief.\n`;
    const t = performance.now();
    writeFileSync(file, edited);
    const r = await lines.next(REBUILD_TIMEOUT_MS);
    const ms = performance.now() - t;
    if (r.timeout || !/^build: ok\b/.test(r.line))
      fail(`incremental rebuild (${label}): ${r.line ?? 'no report within the time limit'}`, { stdout: lines.all(), stderr });
    writeFileSync(file, original);
    const back = await lines.next(REBUILD_TIMEOUT_MS);
    if (back.timeout) fail('the watcher did not rebuild after the block was restored', { stdout: lines.all(), stderr });
    return { ms: round1(ms), line: r.line };
  };
  const warm = await editOnce(warmup, 'warm-up');
  log(`  watch (${w.id}): warm-up edit (untimed): ${fmtMs(warm.ms)} (${relative(ws, warmup)})`);
  for (let i = 0; i < targets.length; i++) {
    const file = targets[i];
    const r = await editOnce(file, `run ${i + 1}`);
    samplesMs.push(r.ms);
    reports.push(r.line);
    log(`  watch (${w.id}): run ${i + 1}/${targets.length}: ${fmtMs(samplesMs[i])} (${relative(ws, file)})`);
  }
  const peakRssMb = await stop();
  const med = median(samplesMs);
  return {
    label: 'agentc build --watch: one-block edit',
    initialBuildMs: initialMs,
    warmupMs: warm.ms,
    medianMs: round1(med),
    minMs: Math.min(...samplesMs),
    maxMs: Math.max(...samplesMs),
    samplesMs,
    ratioToBuild: med / fullBuildMs, // unrounded: 61 ms of 1.78 s is 3.4%, not the 0.03 two decimals would say
    peakRssMb,
    lastReport: reports.at(-1),
  };
}

/** Block files to edit, one per run: specialists' own blocks, spread over teams. */
function editTargets(ws, n) {
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
  const out = [];
  const wss = Object.keys(r.workspaces);
  out.push('');
  out.push('agentc bench — issue 14 figures, side by side');
  for (const id of wss) {
    const w = r.workspaces[id];
    out.push(`  ${w.title}: ${w.cards} cards, ${w.blocks} blocks, ${w.tools} tools (${w.source})`);
  }
  out.push(
    `median of ${r.runs} runs after 1 warm-up; ratios are medians of per-round ratios, a time target needs both them and the CPU ratio; node ${r.environment.node}, ${r.environment.cpus} CPUs, load ${r.environment.loadavgAtStart.join(' ')} → ${r.environment.loadavgAtEnd.join(' ')}`,
  );
  out.push('');
  const cell = (f, c) => {
    if (c === undefined) return '—';
    const verdict = c.pass === null ? '' : c.pass ? ' PASS' : ' FAIL';
    if (c.bytes !== undefined) return `${c.ratio == null ? '' : `${c.ratio.toFixed(2)}× · `}${fmtBytes(c.bytes)}${verdict}`;
    const detail =
      f.unit === '× check' || f.name.includes('RSS')
        ? `${Math.round(c.a)} vs ${Math.round(c.b)} MB`
        : `${fmtMs(c.a)} vs ${fmtMs(c.b)}${c.cpu == null ? '' : `, CPU ${c.cpu.toFixed(2)}×`}`;
    return `${fmtRatio(c.ratio)}× (${detail})${verdict}`;
  };
  const limitOf = (f) => {
    const ls = wss.map((id) => f.cells[id]?.limit).filter((x) => x != null);
    if (ls.length === 0) return 'info';
    const where = wss.filter((id) => f.cells[id]?.limit != null).map((id) => r.workspaces[id].title);
    return `≤ ${round2(ls[0])}${where.length === wss.length ? '' : ` (${where.join(', ')})`}`;
  };
  const figRows = [['figure', 'unit', ...wss.map((id) => r.workspaces[id].title), 'target']];
  for (const f of r.figures) figRows.push([f.name, f.unit.trim(), ...wss.map((id) => cell(f, f.cells[id])), limitOf(f)]);
  pushTable(out, figRows, new Set());
  out.push('');

  const cmdRows = [['command', ...wss.flatMap((id) => [`${r.workspaces[id].title}: median (min – max)`, 'CPU', 'RSS'])]];
  const keys = [...new Set(wss.flatMap((id) => Object.keys(r.results[id] ?? {})))];
  for (const key of keys) {
    const label = r.results[wss.find((id) => r.results[id]?.[key])][key].label;
    cmdRows.push([label, ...wss.flatMap((id) => cmdCells(r.results[id]?.[key]))]);
  }
  for (const res of Object.values(r.results.shared ?? {})) cmdRows.push([res.label, ...cmdCells(res), ...wss.slice(1).flatMap(() => ['', '', ''])]);
  pushTable(out, cmdRows, new Set(wss.flatMap((_, i) => [1 + i * 3, 2 + i * 3, 3 + i * 3])));
  out.push('');
  for (const id of wss) {
    const w = r.watch[id];
    if (w === undefined) continue;
    if (w.skipped) out.push(`watch (${r.workspaces[id].title}): skipped — ${w.skipped}`);
    else if (w.medianMs !== undefined)
      out.push(
        `watch (${r.workspaces[id].title}): initial build ${fmtMs(w.initialBuildMs)}; warm-up edit (untimed) ${fmtMs(w.warmupMs)}; one-block edit ${fmtMs(w.medianMs)} (${fmtMs(w.minMs)} – ${fmtMs(w.maxMs)}), peak RSS ${w.peakRssMb == null ? 'n/a' : `${Math.round(w.peakRssMb)} MB`}; time = write → the watcher's "build:" line (includes its debounce); last: ${w.lastReport}`,
      );
  }
  if (r.runtime.skipped) out.push(`runtime: skipped — ${r.runtime.skipped}`);
  else if (r.runtime.failed) out.push(`runtime: failed (${r.runtime.failed}): ${[...r.runtime.lines, ...r.runtime.stderr].join(' | ')}`);
  else for (const l of r.runtime.lines) out.push(`runtime: ${l}`);
  out.push('');
  out.push('targets:');
  for (const t of r.targets) out.push(`  ${passFail(t.pass)}  ${t.name}: ${t.value} (target ${t.limit})`);
  out.push('');
  return `${out.join('\n')}\n`;
}

function cmdCells(res) {
  if (res === undefined) return ['—', '', ''];
  return [
    `${fmtMs(res.medianMs)} (${fmtMs(res.minMs)} – ${fmtMs(res.maxMs)})`,
    res.medianCpuMs == null ? 'n/a' : fmtMs(res.medianCpuMs),
    res.medianRssMb == null ? 'n/a' : `${Math.round(res.medianRssMb)} MB`,
  ];
}

/** Appends an aligned table (first row: header); columns in `right` are right-aligned. */
function pushTable(out, rows, right) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  rows.forEach((row, i) => {
    out.push(
      row
        .map((c, j) => (right.has(j) ? (c ?? '').padStart(widths[j]) : (c ?? '').padEnd(widths[j])))
        .join('  ')
        .trimEnd(),
    );
    if (i === 0) out.push(widths.map((n) => '-'.repeat(n)).join('  '));
  });
}

function fmtBytes(n) {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${Math.round(n / 1e3)} kB`;
}

function passFail(ok) {
  return ok ? 'PASS' : 'FAIL';
}

// ---------------------------------------------------------------------------

function parseArgs(argv) {
  const a = { runs: 7, json: false, watch: true, runtime: true, service: true, diff: true, regen: false, strict: false, only: undefined };
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i];
    if (x === '--runs') {
      a.runs = Number(argv[++i]);
      if (!Number.isInteger(a.runs) || a.runs < 1) usage(`--runs takes a positive integer, got ${argv[i]}`);
    } else if (x === '--only') {
      a.only = argv[++i];
      if (a.only !== 'synthetic' && a.only !== 'repo') usage(`--only takes synthetic or repo, got ${a.only}`);
    } else if (x === '--json') a.json = true;
    else if (x === '--no-watch') a.watch = false;
    else if (x === '--no-runtime') a.runtime = false;
    else if (x === '--no-service') a.service = false;
    else if (x === '--no-diff') a.diff = false;
    else if (x === '--regen') a.regen = true;
    else if (x === '--strict') a.strict = true;
    else if (x === '--help' || x === '-h') usage();
    else usage(`unknown argument ${x}`);
  }
  return a;
}

function usage(problem) {
  if (problem) {
    process.stderr.write(`bench: ${problem}\n${USAGE}`);
    process.exit(2);
  }
  process.stdout.write(USAGE);
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
/** Two decimals, or three for a ratio below 0.1 (a watch edit is a few hundredths of a build). */
function fmtRatio(x) {
  return x < 0.1 ? x.toFixed(3) : x.toFixed(2);
}
function pct(x) {
  return `${(x * 100).toFixed(1)}%`;
}
function fmtMs(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}
