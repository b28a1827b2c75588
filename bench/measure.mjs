#!/usr/bin/env node
// Runs one Node script as a child process and reports, as one JSON line on
// stdout, its wall time and its own peak memory:
//
//   node bench/measure.mjs <script> [args…]
//   → {"ms":1234.5,"cpuMs":1100.2,"maxRssKb":265432,"code":0,"signal":null,"stdout":"…","stderr":"…"}
//
// - ms: from spawn to the child's exit (this wrapper's own start-up is excluded).
// - maxRssKb: the child's peak RSS, reported from inside the child by a preloaded
//   hook (rss-hook.mjs: process.resourceUsage().maxRSS at 'exit'), so it is the
//   child's figure, not this wrapper's. null when the child died from a signal.
// - cpuMs: the child's user + system CPU time (same source), which machine load
//   disturbs far less than wall time.
// - stdout/stderr: the last 4 KiB of each, for error reports.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [script, ...args] = process.argv.slice(2);
if (!script) {
  process.stderr.write('usage: node bench/measure.mjs <script> [args…]\n');
  process.exit(2);
}
const hook = new URL('./rss-hook.mjs', import.meta.url).href;
const rssFile = join(tmpdir(), `agentc-bench-rss-${process.pid}.json`);
rmSync(rssFile, { force: true });

const TAIL = 4096;
const tail = () => {
  let s = '';
  return { add: (b) => (s = (s + b).slice(-TAIL)), get: () => s };
};
const out = tail();
const err = tail();

const t0 = process.hrtime.bigint();
const child = spawn(process.execPath, ['--import', hook, script, ...args], {
  env: { ...process.env, AGENTC_BENCH_RSS_FILE: rssFile },
  stdio: ['ignore', 'pipe', 'pipe'],
});
child.stdout.setEncoding('utf8').on('data', out.add);
child.stderr.setEncoding('utf8').on('data', err.add);
let ms;
child.on('exit', () => (ms = Number(process.hrtime.bigint() - t0) / 1e6));
child.on('close', (code, signal) => {
  let maxRssKb = null;
  let cpuMs = null;
  try {
    ({ maxRssKb, cpuMs } = JSON.parse(readFileSync(rssFile, 'utf8')));
  } catch {
    // no report: killed by a signal
  }
  rmSync(rssFile, { force: true });
  process.stdout.write(`${JSON.stringify({ ms, cpuMs, maxRssKb, code, signal, stdout: out.get(), stderr: err.get() })}\n`);
});
