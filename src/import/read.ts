/**
 * Reading source files for the importers. Invariant: never throws on user input —
 * unreadable paths and malformed YAML come back as problems; file lists are sorted.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parse } from 'yaml';
import type { Problem } from './types.js';

export interface InputFile {
  abs: string;
  /** As shown in the report: relative to the working directory, `/`-separated. */
  shown: string;
  /** Found by walking a directory (not named on the command line). */
  walked?: boolean;
}

export function shownPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  return (rel === '' || rel.startsWith('..') ? abs : rel).split(sep).join('/');
}

/** Files named by `paths`; directories are walked (sorted) for names `accept` takes. */
export function collectFiles(cwd: string, paths: readonly string[], accept: (name: string) => boolean, problems: Problem[]): InputFile[] {
  const out: InputFile[] = [];
  const seen = new Set<string>();
  const add = (abs: string, walked: boolean) => {
    if (seen.has(abs)) return;
    seen.add(abs);
    out.push({ abs, shown: shownPath(cwd, abs), walked });
  };
  const walk = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (e) {
      problems.push({ file: shownPath(cwd, dir), message: `cannot read the directory (${errCode(e)})` });
      return;
    }
    for (const name of names) {
      // Hidden directories (.git, .venv…) and node_modules hold no agents; Claude Code's live in .claude/.
      if (name === 'node_modules' || (name.startsWith('.') && name !== '.claude')) continue;
      const abs = join(dir, name);
      const st = statOrUndefined(abs);
      if (st?.isDirectory()) {
        if (depth < 8) walk(abs, depth + 1);
      } else if (st?.isFile() && accept(name)) add(abs, true);
    }
  };
  for (const p of paths) {
    const abs = join(p.startsWith('/') ? '' : cwd, p);
    const st = statOrUndefined(abs);
    if (!st) problems.push({ file: p, message: 'no such file or directory' });
    else if (st.isDirectory()) walk(abs, 0);
    else add(abs, false);
  }
  return out;
}

export function readText(file: InputFile, problems: Problem[]): string | undefined {
  try {
    return readFileSync(file.abs, 'utf8')
      .replace(/^\uFEFF/, '')
      .replace(/\r\n?/g, '\n');
  } catch (e) {
    problems.push({ file: file.shown, message: `cannot read the file (${errCode(e)})` });
    return undefined;
  }
}

/** YAML text → value; a syntax error becomes a problem. */
export function parseYaml(text: string, file: string, problems: Problem[]): unknown {
  try {
    return parse(text, { prettyErrors: false });
  } catch (e) {
    problems.push({ file, message: `invalid YAML: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}` });
    return undefined;
  }
}

export interface FrontMatter {
  data: unknown;
  /** Everything after the closing `---` line. */
  body: string;
}

/** `---\n<yaml>\n---\n<body>`; undefined (and a problem) when the file has no front matter. */
export function splitFrontMatter(text: string, file: string, problems: Problem[], noFrontMatter: Problem[] = problems): FrontMatter | undefined {
  // The closing --- is a line of its own (a --- inside a value does not end the front matter).
  const m = /^---[ \t]*\n(?:([\s\S]*?)\n)?---[ \t]*(?:\n|$)/.exec(text);
  if (!m) {
    noFrontMatter.push({ file, message: 'no YAML front matter (a file starting with a "---" line)' });
    return undefined;
  }
  const data = parseYaml(m[1] ?? '', file, problems);
  return { data, body: text.slice(m[0].length) };
}

function statOrUndefined(p: string) {
  try {
    return statSync(p);
  } catch {
    return undefined;
  }
}

function errCode(e: unknown): string {
  return (e as NodeJS.ErrnoException)?.code ?? (e instanceof Error ? e.message : String(e));
}
