// Preloaded into a measured child (`node --import bench/rss-hook.mjs …`, see
// measure.mjs): at exit, writes the process's own peak resident set size and CPU
// time to the file named by AGENTC_BENCH_RSS_FILE. The variable is removed at start-up so
// that processes the child spawns do not overwrite the report.
import { writeFileSync } from 'node:fs';

const out = process.env.AGENTC_BENCH_RSS_FILE;
if (out) {
  delete process.env.AGENTC_BENCH_RSS_FILE;
  process.on('exit', () => {
    try {
      // getrusage(RUSAGE_SELF): maxRSS in kilobytes, CPU times in microseconds.
      const u = process.resourceUsage();
      writeFileSync(out, JSON.stringify({ pid: process.pid, maxRssKb: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }));
    } catch {
      // Best effort: a missing report shows as "n/a", never as a failed run.
    }
  });
}
