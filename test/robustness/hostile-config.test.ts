/**
 * No silent pass (issue 9, item 2): a config that hangs, exits, throws anything,
 * throws or rejects later, or writes to stdout after it loaded is a config-load
 * error (exit 1, a clean JSON report on stdout), never exit 0 with nothing
 * checked, a hang, a raw stack trace or another exit code. The config runs in a
 * worker (src/load/config-worker.ts, from dist/: `npm test` builds first) that
 * is bounded by AGENTC_CONFIG_TIMEOUT_MS, shortened here (one test proves the
 * real default of 5 s on a fake clock).
 *
 * Where the process is the subject — `process.kill`/`abort` (which would end
 * the test runner), `process.exit` while loading, writes to stdout (file
 * descriptor 1, and the worker's stdout, which agentc forwards to its own
 * stderr), `build --check`, an endless loop — the real executable runs. The
 * other cases (throws, rejections, hangs, an exit after loading, an interval,
 * special files, the package aliases) run the same `agentc check --format json`
 * in-process, with the same report and exit code (the config runs in a worker
 * thread either way): a child process per case cost most of this file's time.
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { readFile, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { compile, createCompileCache } from '../../src/compile.js';
import { DEFAULT_CONFIG_TIMEOUT_MS, loadConfig } from '../../src/load/config.js';
import { copyExample, edit, removeTempDirs, REPO, runCli, STACK_FRAME, summarize } from './workspace.js';

afterAll(removeTempDirs);

const CONFIG = 'agentc.config.ts';
const BIN = join(REPO, 'bin', 'agentc.js');
/**
 * The bound for configs that hang: short, so the test waits little — and burns little, as the endless
 * loops spin a core until it. A hang is a timeout whatever the machine's load: a slow load is one too.
 */
const TIMEOUT_MS = '250';
const TIMED_OUT = new RegExp(`did not finish loading within ${TIMEOUT_MS} ms`);
/**
 * The bound for configs that finish (or fail) by themselves: generous, so a loaded machine never turns a
 * throw into a timeout; nothing waits for it.
 */
const FINISHES_MS = '20000';

interface Proc {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The real executable, so exit codes and the process's own stdout are what CI sees. */
function agentc(args: string[], env: Record<string, string> = { AGENTC_CONFIG_TIMEOUT_MS: FINISHES_MS }): Promise<Proc> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', AGENTC_CONFIG_TIMEOUT_MS: TIMEOUT_MS, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

/** A copy of the example whose config runs `code` just before `export default`. */
async function withConfigCode(code: string): Promise<string> {
  const dir = await copyExample('hostile');
  await edit(dir, CONFIG, (t) => t.replace('export default', `${code}\nexport default`));
  return dir;
}

interface Expect {
  message: RegExp;
  /** 1-based line of the range's start, or null when the diagnostic has no range. */
  line?: number | null;
  /** Also run `build --check` (the CI gate), which shares the loader: a few cases, to keep the suite quick. */
  build?: boolean;
}

/** `agentc check --format json` in-process; the config's bound is read from this process's environment, set for the call. */
async function inProcessCheck(dir: string, bound: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const saved = process.env.AGENTC_CONFIG_TIMEOUT_MS;
  process.env.AGENTC_CONFIG_TIMEOUT_MS = bound;
  try {
    return await runCli(['check', '--cwd', dir, '--format', 'json'], { freshConfig: true });
  } finally {
    if (saved === undefined) delete process.env.AGENTC_CONFIG_TIMEOUT_MS;
    else process.env.AGENTC_CONFIG_TIMEOUT_MS = saved;
  }
}

/**
 * `check --format json` (the real executable, or in-process with `inProcess`) and `build --check`: exit 1,
 * only JSON on stdout, one config-load error, no stack. Returns the check run (its stdout and stderr).
 */
async function expectConfigLoad(
  dir: string,
  e: Expect & { inProcess?: boolean; hangs?: boolean; bound?: string },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { AGENTC_CONFIG_TIMEOUT_MS: e.bound ?? (e.hangs ? TIMEOUT_MS : FINISHES_MS) };
  const r = e.inProcess ? await inProcessCheck(dir, env.AGENTC_CONFIG_TIMEOUT_MS) : await agentc(['check', '--cwd', dir, '--format', 'json'], env);
  expect(r.code, r.stderr).toBe(1);
  expect(r.stdout + r.stderr).not.toMatch(STACK_FRAME);
  const report = JSON.parse(r.stdout) as { errorCount: number; diagnostics: { rule: string; message: string; range?: { start: { line: number } } }[] };
  const d = report.diagnostics.find((x) => x.rule === 'config-load');
  expect(d, summarize(report.diagnostics as never)).toBeDefined();
  expect(d!.message).toMatch(e.message);
  if (e.line === null) expect(d!.range).toBeUndefined();
  else if (e.line !== undefined) expect(d!.range?.start.line).toBe(e.line);
  if (!e.build) return r;
  const b = await agentc(['build', '--check', '--cwd', dir, '--format', 'json'], env);
  expect(b.code).toBe(1);
  expect(() => JSON.parse(b.stdout)).not.toThrow();
  return r;
}

describe('a hostile agentc.config.ts: the real executable', () => {
  it('an endless synchronous loop: the worker is terminated', async () => {
    await expectConfigLoad(await withConfigCode('while (true) {}'), { message: TIMED_OUT, build: true, hangs: true });
  });

  it('process.exit(0) while loading: an error at the call, not a green run', async () => {
    await expectConfigLoad(await withConfigCode('process.exit(0);'), { message: /called process\.exit\(0\) while loading/, line: 6, build: true });
  });

  it('process.kill(process.pid) and process.abort(): reported, agentc lives on', async () => {
    await expectConfigLoad(await withConfigCode("process.kill(process.pid, 'SIGKILL');"), {
      message: /called process\.kill\(process\.pid, "SIGKILL"\) while loading/,
      line: 6,
    });
    await expectConfigLoad(await withConfigCode('process.abort();'), { message: /called process\.abort\(\) while loading/, line: 6 });
  });

  it('writes to stdout after load (console.log and process.stdout.write): an error, and stdout stays pure JSON', async () => {
    await expectConfigLoad(await withConfigCode("setTimeout(() => console.log('late log'), 5);"), { message: /wrote to stdout after it was loaded/, line: 6 });
    const dir = await withConfigCode("setTimeout(() => process.stdout.write('late write'), 5);");
    const r = await expectConfigLoad(dir, { message: /wrote to stdout after it was loaded/, line: 6 });
    expect(r.stdout).not.toContain('late write');
    expect(r.stderr).toContain('late write');
  });

  it('fs.writeSync(1, …) is routed like stdout: to stderr while loading, an error after', async () => {
    const dir = await copyExample('hostile');
    await edit(
      dir,
      CONFIG,
      (t) =>
        `import { writeSync } from 'node:fs';\n${t.replace('export default', "writeSync(1, 'fd during\\n');\nsetTimeout(() => writeSync(1, 'fd after\\n'), 5);\nexport default")}`,
    );
    const r = await expectConfigLoad(dir, { message: /wrote to stdout after it was loaded/, line: 8 });
    expect(r.stdout).not.toMatch(/fd during|fd after/);
    expect(r.stderr).toContain('fd during');
  });

  it('stdout writes while loading still go to stderr, and the run is clean', async () => {
    const dir = await withConfigCode("process.stdout.write('while loading\\n');");
    const r = await agentc(['check', '--cwd', dir, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ errorCount: 0 });
    expect(r.stderr).toContain('while loading');
  });
});

describe('the real default bound', () => {
  it(`is ${DEFAULT_CONFIG_TIMEOUT_MS} ms when AGENTC_CONFIG_TIMEOUT_MS is not set (on a fake clock)`, async () => {
    const dir = await withConfigCode('while (true) {}');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let settled = false;
      const load = loadConfig(dir, CONFIG, { PATH: process.env.PATH ?? '' }).finally(() => (settled = true));
      await vi.advanceTimersByTimeAsync(DEFAULT_CONFIG_TIMEOUT_MS - 1);
      expect(settled, 'still waiting just before the bound').toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const { error } = await load;
      expect(error).toMatchObject({ message: 'timedOut', data: { ms: 5000 } });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a hostile agentc.config.ts: agentc check in-process', () => {
  const inProcess = true;

  it('a top-level await that never settles', async () => {
    await expectConfigLoad(await withConfigCode('await new Promise(() => {});'), {
      message: /did not finish loading: its top-level await never settled/,
      line: null,
      build: true,
      inProcess,
    });
  });

  it('a top-level await kept pending by a timer: bounded by the timeout', async () => {
    const dir = await withConfigCode('await new Promise((resolve) => setTimeout(resolve, 60_000));');
    const started = Date.now();
    await expectConfigLoad(dir, { message: TIMED_OUT, line: null, hangs: true, inProcess });
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('a getter that loops forever', async () => {
    const dir = await copyExample('hostile');
    await edit(dir, CONFIG, (t) => t.replace("flags: ['receipts_v2', 'offer_stacking'],", 'get flags(): string[] {\n    for (;;) {}\n  },'));
    await expectConfigLoad(dir, { message: TIMED_OUT, hangs: true, inProcess });
  });

  it('process.exit(0) from a timer after loading', async () => {
    await expectConfigLoad(await withConfigCode('setTimeout(() => process.exit(0), 5);'), {
      message: /called process\.exit\(0\) after it was loaded/,
      line: 6,
      inProcess,
    });
  });

  it('throw null', async () => {
    await expectConfigLoad(await withConfigCode('throw null;'), { message: /could not be loaded: it threw null, not an Error/, inProcess });
  });

  it('throw of a string and of a plain object', async () => {
    await expectConfigLoad(await withConfigCode("throw 'nope';"), { message: /it threw "nope", not an Error/, inProcess });
    await expectConfigLoad(await withConfigCode('throw { code: 1 };'), { message: /not an Error/, inProcess });
  });

  it('a throw in a timer, after the value was read', async () => {
    await expectConfigLoad(await withConfigCode("setTimeout(() => { throw new Error('late boom'); }, 5);"), {
      message: /late boom \(thrown later, from a timer or callback\)/,
      line: 6,
      inProcess,
    });
  });

  it('a rejection nobody handles', async () => {
    await expectConfigLoad(await withConfigCode("Promise.reject(new Error('late reject'));"), {
      message: /late reject \(a promise rejected and nothing handled it\)/,
      line: 6,
      inProcess,
    });
    await expectConfigLoad(await withConfigCode('setTimeout(() => Promise.reject(null), 5);'), { message: /threw null.*a promise rejected/, inProcess });
  });

  it('an interval that never stops: bounded, reported', async () => {
    // Waits for the whole bound, which must leave time to load first: 5 s.
    await expectConfigLoad(await withConfigCode('setInterval(() => {}, 1000);'), {
      message: /keeps running after it was loaded/,
      inProcess,
      bound: String(DEFAULT_CONFIG_TIMEOUT_MS),
    });
  });

  it('a config path that is a FIFO does not hang', async () => {
    const dir = await copyExample('hostile');
    await unlink(join(dir, CONFIG));
    execFileSync('mkfifo', [join(dir, CONFIG)]);
    await expectConfigLoad(dir, { message: /is not a regular file \(a named pipe\)/, inProcess });
  });

  it('a config path that is a symlink to /dev/zero does not hang or fill memory', async () => {
    const dir = await copyExample('hostile');
    await unlink(join(dir, CONFIG));
    await symlink('/dev/zero', join(dir, CONFIG));
    await expectConfigLoad(dir, { message: /is not a regular file \(a device\)/, inProcess });
  });

  // The example imports from '@agentc/cli': every clean run of the executable above resolves that name too.
  it("resolves both `from 'agentc'` and `from '@agentc/cli'` in a workspace that installed nothing", async () => {
    for (const name of ['agentc', '@agentc/cli']) {
      const dir = await copyExample('hostile');
      await edit(dir, CONFIG, (t) => t.replace(/from '(@agentc\/cli|agentc)'/, `from '${name}'`).replace('export default', '// alias\nexport default'));
      expect(await readFile(join(dir, CONFIG), 'utf8')).toContain(`from '${name}'`);
      const r = await runCli(['check', '--cwd', dir, '--format', 'json'], { freshConfig: true });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ errorCount: 0, warningCount: 0 });
    }
  });

  it('functions and symbols in the config still reach validation as non-data (and are quoted as written)', async () => {
    const dir = await copyExample('hostile');
    await edit(dir, CONFIG, (t) =>
      t.replace(
        "flags: ['receipts_v2', 'offer_stacking'],",
        "flags: ['receipts_v2', 'offer_stacking'],\n  budgets: (() => 1) as never,\n  rules: { 'unused-block': Symbol('off') } as never,",
      ),
    );
    const { diagnostics } = await compile({ root: dir });
    const schema = diagnostics.filter((d) => d.rule === 'schema').map((d) => d.message);
    expect(
      schema.some((m) => /"budgets" of the config must be an object, not function \(\) => 1/.test(m)),
      summarize(diagnostics),
    ).toBe(true);
    expect(
      schema.some((m) => /unused-block/.test(m)),
      summarize(diagnostics),
    ).toBe(true);
  });

  it('watch mode: an unchanged config is reused, a changed one is evaluated again', async () => {
    const dir = await copyExample('hostile');
    const cache = createCompileCache();
    expect((await compile({ root: dir, cache })).diagnostics).toEqual([]);
    const first = cache.config?.load;
    await compile({ root: dir, cache });
    expect(cache.config?.load).toBe(first);
    await writeFile(join(dir, CONFIG), (await readFile(join(dir, CONFIG), 'utf8')).replace('export default', 'throw null;\nexport default'));
    const broken = await compile({ root: dir, cache });
    expect(broken.diagnostics.map((d) => d.rule)).toContain('config-load');
  });
});
