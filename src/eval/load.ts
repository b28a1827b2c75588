/**
 * Finds and reads suite files: the named ones, else every `evals/*.yaml` (and
 * .yml) of the workspace, sorted.
 *
 * Invariant: an unreadable or malformed suite is a problem, never a throw.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { Bundle } from '../bundle/types.js';
import { hasExtension, WORKSPACE_LAYOUT } from '../load/layout.js';
import { checkSuite, parseSuite, type EvalSuite, type SuiteProblem } from './suite.js';

export async function suiteFiles(root: string, cwd: string, named: readonly string[]): Promise<string[]> {
  if (named.length > 0) return named.map((f) => resolve(cwd, f));
  try {
    const evals = WORKSPACE_LAYOUT.evals;
    const entries = await readdir(join(root, evals.dir));
    return entries.filter((e) => hasExtension(evals, e)).sort().map((e) => join(root, evals.dir, e));
  } catch {
    return [];
  }
}

/** Reads, validates and checks each file against the bundle. */
export async function loadSuites(root: string, files: readonly string[], bundle: Bundle): Promise<{ suites: EvalSuite[]; problems: SuiteProblem[] }> {
  const suites: EvalSuite[] = [];
  const problems: SuiteProblem[] = [];
  for (const abs of files) {
    const file = relative(root, abs).split('\\').join('/') || abs;
    let text: string;
    try {
      text = await readFile(abs, 'utf8');
    } catch (e) {
      const code = (e as { code?: string }).code;
      problems.push({ file, line: 1, column: 1, message: `cannot read suite${code === 'ENOENT' ? ': no such file' : code ? ` (${code})` : ''}` });
      continue;
    }
    const parsed = parseSuite(file, text);
    if (!parsed.ok) {
      problems.push(...parsed.problems);
      continue;
    }
    const found = checkSuite(parsed.suite, parsed.locate, bundle);
    problems.push(...found);
    if (found.length === 0) suites.push(parsed.suite);
  }
  return { suites, problems };
}

export function formatProblem(p: SuiteProblem): string {
  return `${p.file}:${p.line}:${p.column} - error: ${p.message}\n`;
}
