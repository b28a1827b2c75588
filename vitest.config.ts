import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Workspace configs import `defineConfig` from 'agentc'; tests that evaluate one in-process get this checkout's.
    alias: [{ find: /^agentc$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // The suite's temp files live in a private TMPDIR removed at the end (and leaks are listed);
    // temp dirs made through test/helpers/temp-dirs.ts are removed after each file.
    globalSetup: ['test/setup/private-tmpdir.ts'],
    setupFiles: ['test/setup/temp-dirs.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One module graph per worker, not per file: each test file would otherwise re-import the
    // compiler (tokenizer tables, validators) — seconds per file. Tests share no mutable
    // module state (src keeps none: derived data lives on a per-run context).
    isolate: false,
    // Three workers on a 2-core machine (vitest's default there is one): many suites wait on
    // child processes (the built CLI, redis-server, the SARIF Multitool, tsc) or on timers rather
    // than compute. Measured on a fresh clone, quiet machine, same CPU time (~214 s): 3 workers
    // 112 s wall, 2 workers 126 s.
    maxWorkers: 3,
  },
});
