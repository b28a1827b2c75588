/**
 * vitest globalSetup: the suite's temp files go to a private directory under the OS
 * temp dir (TMPDIR, which the workers and every process they spawn inherit), removed
 * when the run ends — so `npm test` leaves the OS temp dir as it found it, jiti's
 * transpile cache for temp workspaces (`<tmp>/jiti`) included. What a test left
 * behind is listed on stderr first: a test should remove what it makes
 * (test/helpers/temp-dirs.ts), so the list is a bug report, not noise.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Left in the private dir on purpose: jiti's transpile cache (keyed by path and content). */
const EXPECTED = new Set(['jiti']);

export default function setup(): () => void {
  const before = process.env['TMPDIR'];
  const dir = mkdtempSync(join(tmpdir(), 'agentc-suite-'));
  // As the OS temp dir is (sticky, everyone may create): tests run the CLI as an unprivileged user on copies made here.
  chmodSync(dir, 0o1777);
  process.env['TMPDIR'] = dir;
  return () => {
    if (before === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = before;
    const left = readdirSync(dir).filter((name) => !EXPECTED.has(name));
    if (left.length > 0) {
      const prefixes = new Map<string, number>();
      for (const name of left) {
        const prefix = name.replace(/[A-Za-z0-9]{6}$/, 'XXXXXX');
        prefixes.set(prefix, (prefixes.get(prefix) ?? 0) + 1);
      }
      const list = [...prefixes].map(([p, n]) => `${p} ×${n}`).join(', ');
      process.stderr.write(`\ntest suite: ${left.length} temp entries were not removed by their tests: ${list}\n`);
    }
    rmSync(dir, { recursive: true, force: true });
  };
}
