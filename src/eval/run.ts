/**
 * Runs suites: every case × repeat through the routing step, with a
 * concurrency limit and an optional on-disk results cache.
 *
 * Invariants: results are in suite/case/repeat order whatever the completion
 * order; the cache key is (prompt prefix hash, suffix, tools, messages, model,
 * seed, repeat index), so an unchanged prompt is never re-asked and a changed
 * one always is; failed calls are never cached; the cache lives in the
 * directory the caller names (no module-level state).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { makeDirs } from '../make-dirs.js';
import { join } from 'node:path';
import type { Bundle } from '../bundle/types.js';
import type { LlmClient, LlmRequest } from '../runtime/index.js';
import { runFullTurn } from './full.js';
import { buildRoutingRequest, routeOnce, type RouteObservation } from './route.js';
import { caseResult, scoreRun, summarize, type CaseResult, type EvalSummary } from './score.js';
import { routedAgents, type EvalSuite } from './suite.js';

export interface RunSuitesOptions {
  bundle: Bundle;
  llm: LlmClient;
  suites: EvalSuite[];
  /** Extra flags switched on for every case. */
  flags?: string[];
  concurrency?: number;
  /** Directory for cached replies; undefined: no cache. */
  cacheDir?: string;
  /** Sent to the provider as its sampling seed where the API has one (Chat Completions); part of the cache key. */
  seed?: number;
  /** Run whole turns through the runtime (src/eval/full.ts) instead of the routing call alone; never cached. */
  full?: boolean;
  /** Called after each finished run (done, total). */
  onProgress?: (done: number, total: number) => void;
}

export interface EvalResult {
  cases: CaseResult[];
  summary: EvalSummary;
  /** Runs answered from the cache. */
  cached: number;
  /** The seed sent to the provider, or null. */
  seed: number | null;
  /** `routing`: the orchestrator's routing call only; `full`: whole turns. */
  mode: 'routing' | 'full';
}

export async function runSuites(o: RunSuitesOptions): Promise<EvalResult> {
  const jobs: { suite: EvalSuite; index: number; repeat: number; flags: string[]; req: LlmRequest }[] = [];
  const controller = new AbortController();
  for (const suite of o.suites) {
    suite.cases.forEach((c, index) => {
      const flags = [...new Set([...suite.flags, ...(c.flags ?? []), ...(o.flags ?? [])])].sort();
      for (let r = 0; r < suite.repeat; r++) {
        const req = buildRoutingRequest(o.bundle, suite.agent, c, flags, controller.signal);
        if (o.seed !== undefined) req.seed = o.seed;
        jobs.push({ suite, index, repeat: r, flags, req });
      }
    });
  }
  const observations = new Array<RouteObservation>(jobs.length);
  let cached = 0;
  let done = 0;
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      const job = jobs[i]!;
      const key = o.cacheDir !== undefined && !o.full ? cacheKey(job.req, job.repeat, o.seed) : undefined;
      let obs = key !== undefined ? await readCache(o.cacheDir!, key) : undefined;
      if (obs !== undefined) cached++;
      else if (o.full) {
        const episode = `eval-${i}`;
        obs = await runFullTurn({
          bundle: o.bundle,
          llm: o.llm,
          agent: job.suite.agent,
          case: job.suite.cases[job.index]!,
          flags: job.flags,
          episode,
          ...(o.seed !== undefined ? { seed: o.seed } : {}),
        });
      } else {
        obs = await routeOnce(o.bundle, o.llm, job.req);
        if (key !== undefined && obs.error === undefined) await writeCache(o.cacheDir!, key, obs);
      }
      observations[i] = obs;
      o.onProgress?.(++done, jobs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency ?? 4, jobs.length)) }, worker));

  const cases: CaseResult[] = [];
  let j = 0;
  for (const suite of o.suites) {
    suite.cases.forEach((c, index) => {
      const runs = [];
      for (let r = 0; r < suite.repeat; r++) runs.push(scoreRun(c, observations[j++]!));
      cases.push(caseResult(suite, index, runs));
    });
  }
  const subAgents = [...new Set(o.suites.flatMap((s) => routedAgents(o.bundle, s.agent)))].sort();
  return { cases, summary: summarize(cases, o.suites, observations, subAgents), cached, seed: o.seed ?? null, mode: o.full ? 'full' : 'routing' };
}

export function cacheKey(req: LlmRequest, repeat: number, seed: number | undefined): string {
  const material = {
    prefix: req.system.prefixSha256 ?? createHash('sha256').update(req.system.prefix).digest('hex'),
    suffix: req.system.suffix,
    tools: req.tools,
    messages: req.messages,
    model: req.model.model,
    provider: req.model.provider,
    repeat,
    seed: seed ?? null,
  };
  return createHash('sha256').update(JSON.stringify(material)).digest('hex');
}

async function readCache(dir: string, key: string): Promise<RouteObservation | undefined> {
  try {
    const v = JSON.parse(await readFile(join(dir, `${key}.json`), 'utf8')) as RouteObservation;
    return Array.isArray(v.agents) && Array.isArray(v.handoffs) ? v : undefined;
  } catch {
    return undefined;
  }
}

async function writeCache(dir: string, key: string, obs: RouteObservation): Promise<void> {
  try {
    await makeDirs(dir, { stat, mkdir: (d) => mkdir(d) });
    const tmp = join(dir, `${key}.${process.pid}.tmp`);
    await writeFile(tmp, `${JSON.stringify(obs)}\n`);
    await rename(tmp, join(dir, `${key}.json`));
  } catch {
    // A cache that cannot be written only costs a re-run next time.
  }
}
