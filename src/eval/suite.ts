/**
 * Eval suites as data: `evals/*.yaml` parsed and validated against
 * schemas/eval-suite.schema.json, then checked against a bundle (unknown
 * agents and flags are problems with exact positions).
 *
 * Invariants: a suite that parses here is well-formed (every case has a message
 * and an `expect.agents` list); problems are collected, never thrown; positions
 * are 1-based whole-file line/column.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Bundle } from '../bundle/types.js';
import { didYouMean } from '../diagnostics/did-you-mean.js';
import { SourceFile } from '../load/source.js';
import { parseYaml, type Locator } from '../parse/yaml.js';

export interface EvalTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface HandoffCheck {
  query_contains?: string[];
  prior_context?: boolean;
}

export interface EvalCase {
  name?: string;
  message: string;
  history?: EvalTurn[];
  flags?: string[];
  expect: { agents: string[]; intent_count?: number; handoff?: Record<string, HandoffCheck> };
}

export interface EvalSuite {
  /** Workspace-relative path (forward slashes). */
  file: string;
  agent: string;
  repeat: number;
  flags: string[];
  cases: EvalCase[];
}

export interface SuiteProblem {
  file: string;
  line: number;
  column: number;
  message: string;
}

export type SuiteResult = { ok: true; suite: EvalSuite; locate: Locator } | { ok: false; problems: SuiteProblem[] };

function loadSchema(): object {
  // schemas/ sits two levels above src/eval and dist/eval alike.
  const url = new URL('../../schemas/eval-suite.schema.json', import.meta.url);
  return JSON.parse(readFileSync(fileURLToPath(url), 'utf8')) as object;
}

/** Parses one suite file's text; `file` is the name used in problems. */
export function parseSuite(file: string, text: string): SuiteResult {
  const source = new SourceFile(file, text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'));
  const parsed = parseYaml(source);
  if (parsed.errors.length > 0) {
    return { ok: false, problems: parsed.errors.map((e) => ({ file, line: e.range.start.line, column: e.range.start.column, message: e.message })) };
  }
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const validate = ajv.compile(loadSchema());
  if (!validate(parsed.value)) {
    const problems = (validate.errors ?? []).map((err) => {
      const path = err.instancePath.split('/').slice(1).map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, '/').replace(/~0/g, '~')));
      const extra = err.keyword === 'additionalProperties' ? (err.params as { additionalProperty: string }).additionalProperty : undefined;
      const at = parsed.locate(extra !== undefined ? [...path, extra] : path, extra !== undefined ? 'key' : 'value');
      const label = path.length === 0 ? 'suite' : path.join('.');
      const message = extra !== undefined ? `${label}: unknown key "${extra}"` : `${label}: ${err.message ?? 'is invalid'}`;
      return { file, line: at.start.line, column: at.start.column, message };
    });
    return { ok: false, problems: dedupe(problems) };
  }
  const raw = parsed.value as Omit<EvalSuite, 'file' | 'repeat' | 'flags'> & { repeat?: number; flags?: string[] };
  return { ok: true, suite: { file, agent: raw.agent, repeat: raw.repeat ?? 1, flags: raw.flags ?? [], cases: raw.cases }, locate: parsed.locate };
}

/** Problems of a well-formed suite against a bundle: unknown orchestrator, sub-agents, flags. */
export function checkSuite(suite: EvalSuite, locate: Locator, bundle: Bundle): SuiteProblem[] {
  const problems: SuiteProblem[] = [];
  const at = (path: (string | number)[], message: string, part: 'key' | 'value' = 'value') => {
    const r = locate(path, part);
    problems.push({ file: suite.file, line: r.start.line, column: r.start.column, message });
  };
  const agents = Object.keys(bundle.agents).sort();
  const root = Object.prototype.hasOwnProperty.call(bundle.agents, suite.agent) ? bundle.agents[suite.agent] : undefined;
  if (root === undefined) {
    at(['agent'], `unknown agent "${suite.agent}".${hintOf(suite.agent, agents)}`);
    return problems;
  }
  const subs = routedAgents(bundle, suite.agent);
  if (subs.length === 0) at(['agent'], `agent "${suite.agent}" has no sub-agents: it routes nothing.`);
  const flag = (f: string, path: (string | number)[]) => {
    if (!bundle.flags.includes(f)) at(path, `unknown feature flag "${f}".${hintOf(f, bundle.flags)}`);
  };
  suite.flags.forEach((f, i) => flag(f, ['flags', i]));
  suite.cases.forEach((c, i) => {
    (c.flags ?? []).forEach((f, j) => flag(f, ['cases', i, 'flags', j]));
    c.expect.agents.forEach((a, j) => {
      if (!subs.includes(a)) at(['cases', i, 'expect', 'agents', j], `"${a}" is not a sub-agent of ${suite.agent}.${hintOf(a, subs)}`);
    });
    for (const a of Object.keys(c.expect.handoff ?? {})) {
      if (!c.expect.agents.includes(a)) at(['cases', i, 'expect', 'handoff', a], `handoff checks "${a}", which this case does not expect to be asked.`, 'key');
    }
  });
  return problems;
}

/** The sub-agents an orchestrator can route to, sorted (from its dispatch table). */
export function routedAgents(bundle: Bundle, agent: string): string[] {
  const table = bundle.agents[agent]?.dispatch.table ?? {};
  const out = new Set<string>();
  for (const entry of Object.values(table)) if (entry.kind === 'sub_agent') out.add(entry.agent);
  return [...out].sort();
}

function hintOf(name: string, candidates: string[]): string {
  const hint = didYouMean(name, candidates);
  return hint ? ` ${hint}` : '';
}

function dedupe(problems: SuiteProblem[]): SuiteProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const k = `${p.line}:${p.column}:${p.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
