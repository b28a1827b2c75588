// Preloaded into a measured child (`node --import bench/rss-hook.mjs …`, see
// measure.mjs): at exit, writes the process's own peak resident set size to the
// file named by AGENTC_BENCH_RSS_FILE. The variable is removed at start-up so
// that processes the child spawns do not overwrite the report.
import { writeFileSync } from 'node:fs';

const out = process.env.AGENTC_BENCH_RSS_FILE;
if (out) {
  delete process.env.AGENTC_BENCH_RSS_FILE;
  process.on('exit', () => {
    try {
      // maxRSS is in kilobytes (getrusage(RUSAGE_SELF).ru_maxrss on Linux).
      writeFileSync(out, JSON.stringify({ pid: process.pid, maxRssKb: process.resourceUsage().maxRSS }));
    } catch {
      // Best effort: a missing report shows as "n/a", never as a failed run.
    }
  });
}
