/**
 * Which suites a run uses: the named files, else every `evals/*.yaml` the
 * workspace compile already loaded and checked. A named file outside the
 * workspace's evals/ goes through the same parse function and the same check
 * rules (src/check/rules/eval-*.ts) against the compiled Program — there is no
 * second validation path.
 *
 * Invariant: an unreadable or malformed suite is a diagnostic, never a throw;
 * the config's `rules:` settings apply as in `agentc check`.
 */
import { readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { runChecks } from '../check/index.js';
import { SUITE_RULES } from '../check/rules/index.js';
import { applyRuleSettings } from '../compile.js';
import { DiagnosticBag, sortDiagnostics, type Diagnostic } from '../diagnostics/diagnostic.js';
import { decodeText, SourceFile } from '../load/source.js';
import { parseEvalSuite, type EvalSuiteFile } from '../parse/eval-suite.js';
import type { Program } from '../resolve/types.js';
import { toEvalSuite, type EvalSuite } from './suite.js';

export interface LoadedSuites {
  suites: EvalSuite[];
  /** Problems with the suites, as `agentc check` reports them (sorted). */
  diagnostics: Diagnostic[];
}

export interface LoadSuitesOptions {
  /** Name files relative to this workspace root (default: the program's). */
  root?: string;
  /** Always read the named files from disk, never reuse the program's copies (diff's before side: the suite is the working tree's). */
  reread?: boolean;
}

/**
 * The suites of a run. `named` are paths relative to `cwd`; none means every
 * suite of the compiled workspace (`program.evals`, already checked).
 */
export async function loadSuites(program: Program, cwd: string, named: readonly string[], o: LoadSuitesOptions = {}): Promise<LoadedSuites> {
  if (named.length === 0) return { suites: program.evals.map(toEvalSuite), diagnostics: [] };
  const known = new Map(o.reread ? [] : program.evals.map((s) => [s.file.path, s]));
  const suites: EvalSuite[] = [];
  const bag = new DiagnosticBag();
  const fresh: EvalSuiteFile[] = [];
  const order: (EvalSuiteFile | undefined)[] = [];
  for (const name of named) {
    const abs = resolve(cwd, name);
    const rel = relative(o.root ?? program.root, abs)
      .split('\\')
      .join('/');
    const path = rel.startsWith('../') || rel === '' ? abs : rel;
    const hit = known.get(path);
    if (hit !== undefined) {
      order.push(hit);
      continue;
    }
    const file = await readSuite(abs, path, bag);
    const parsed = file === undefined ? undefined : parseEvalSuite(file, bag);
    if (parsed !== undefined) fresh.push(parsed);
    order.push(parsed);
  }
  const checked = runChecks({ ...program, evals: fresh }, SUITE_RULES);
  const diagnostics = sortDiagnostics(applyRuleSettings([...bag.items, ...checked], program.config.data.rules));
  const failed = new Set(diagnostics.filter((d) => d.severity === 'error').map((d) => d.file));
  for (const s of order) if (s !== undefined && !failed.has(s.file.path)) suites.push(toEvalSuite(s));
  return { suites, diagnostics };
}

async function readSuite(abs: string, path: string, bag: DiagnosticBag): Promise<SourceFile | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'I/O error';
    bag.add({
      rule: 'yaml-syntax',
      file: path,
      range: { start: { line: 1, column: 1 }, end: { line: 1, column: 1 } },
      message: 'unreadable',
      data: { file: path, code },
    });
    return undefined;
  }
  const decoded = decodeText(bytes);
  if (!decoded.ok) {
    bag.add({
      rule: 'yaml-syntax',
      file: path,
      range: { start: { line: 1, column: 1 }, end: { line: 1, column: 2 } },
      message: decoded.reason,
      data: { file: path, offset: decoded.offset },
      hint: { id: 'notText' },
    });
    return undefined;
  }
  return new SourceFile(path, decoded.text);
}
