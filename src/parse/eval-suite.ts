/**
 * Parses evals/<name>.yaml into an EvalSuiteFile (docs/eval.md): YAML syntax
 * errors are `yaml-syntax`, shape errors `schema` (schemas/eval-suite.schema.json),
 * each with its exact range. Names in the suite (agents, tools, flags) are not
 * resolved here: that is the check phase's (src/check/rules/eval-*.ts).
 *
 * Invariant: a suite is returned only when it validated completely, so every
 * case has a message and an `expect.agents` list and later phases never re-check
 * shapes; an invalid suite is reported, never half-used.
 */
import { DiagnosticBag } from '../diagnostics/diagnostic.js';
import type { SourceFile } from '../load/source.js';
import { readMapping } from './mapping-file.js';
import type { Locator } from './yaml.js';

export interface EvalTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface HandoffCheck {
  query_contains?: string[];
  prior_context?: boolean;
}

export interface EvalExpect {
  /** Exactly the sub-agents the orchestrator must ask; [] = a direct answer. */
  agents: string[];
  /** The orchestrator's own tools the routing call must call (among others). */
  tools?: string[];
  intent_count?: number;
  handoff?: Record<string, HandoffCheck>;
}

export interface EvalCase {
  name?: string;
  message: string;
  history?: EvalTurn[];
  flags?: string[];
  expect: EvalExpect;
}

export interface EvalSuiteData {
  agent: string;
  repeat: number;
  flags: string[];
  cases: EvalCase[];
}

export interface EvalSuiteFile {
  kind: 'eval';
  file: SourceFile;
  data: EvalSuiteData;
  locate: Locator;
}

export function parseEvalSuite(file: SourceFile, bag: DiagnosticBag): EvalSuiteFile | undefined {
  const own = new DiagnosticBag();
  const m = readMapping(file, own, {
    format: 'eval-suite',
    syntaxRule: 'yaml-syntax',
    shape: (raw, locate) => ({
      rule: 'schema',
      range: locate([]),
      ...(raw == null
        ? { message: 'suiteEmpty', data: { file: file.path } }
        : { message: 'suiteNotMapping', data: { file: file.path, what: Array.isArray(raw) ? 'a list' : 'a single value' } }),
    }),
    subject: () => `eval suite ${file.path}`,
  });
  bag.pushAll(own.items);
  if (!m || own.items.length > 0) return undefined;
  const raw = m.raw as Partial<EvalSuiteData> & Pick<EvalSuiteData, 'agent' | 'cases'>;
  return { kind: 'eval', file, data: { agent: raw.agent, repeat: raw.repeat ?? 1, flags: raw.flags ?? [], cases: raw.cases }, locate: m.locate };
}
