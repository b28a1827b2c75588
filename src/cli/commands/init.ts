/**
 * `agentc init [DIR]`: scaffold a starter workspace that passes `agentc check`,
 * as a project a team can commit (package.json, .gitattributes, editor settings,
 * CI workflow). Refuses (exit 2) a directory holding anything but the starter's
 * own paths and npm's files (package.json, package-lock.json, node_modules, .git),
 * and files that differ from the starter, unless --force; writes nothing at all
 * when it refuses. An existing package.json is merged, never replaced. Every
 * command it prints installs or runs only our own packages.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { paint } from '../../diagnostics/render/ansi.js';
import { readSchemaFiles } from '../../init/schemas.js';
import { mergePackageJson } from '../../init/project.js';
import { starterFiles, STARTER_ORCHESTRATOR, type StarterFile } from '../../init/template.js';
import { AGENTC_VERSION } from '../../version.js';
import { planInit, writePlan } from '../../init/write.js';
import { EXIT, useColor, type CliIO } from '../io.js';

export interface InitOptions {
  /** Target directory, resolved against io.cwd (default: '.'). */
  dir: string;
  force?: boolean;
}

export async function initCommand(opts: InitOptions, io: CliIO): Promise<number> {
  const p = paint(useColor(io));
  const root = resolve(io.cwd, opts.dir === '' ? '.' : opts.dir);
  const shown = showDir(io.cwd, root);

  const existing = statOrUndefined(root);
  if (existing !== undefined && !existing.isDirectory()) {
    io.stderr(`agentc init: ${shown} exists and is not a directory.\n`);
    return EXIT.failure;
  }

  const schemas = readSchemaFiles();
  if (!schemas.ok) {
    io.stderr(`agentc init: ${schemas.message}\n`);
    return EXIT.failure;
  }
  const name = basename(root) || 'agentc workspace';
  const files = [...starterFiles({ name, version: AGENTC_VERSION }), ...schemas.files]
    .map((f) => (f.path === 'package.json' ? withExistingPackageJson(root, f, name) : f))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  const foreign = foreignEntries(root, files);
  if (foreign.length > 0 && opts.force !== true) {
    const n = foreign.length;
    io.stderr(
      `agentc init: ${shown} is not empty: ${n} entr${n === 1 ? 'y is' : 'ies are'} not part of the starter:\n` +
        foreign.map((e) => `  ${e}\n`).join('') +
        'Nothing was written. Choose an empty directory, or re-run with --force to add the workspace beside them.\n',
    );
    return EXIT.failure;
  }

  const plan = planInit(root, files, opts.force === true);
  if (!plan.ok) {
    const lines: string[] = [];
    if (plan.blocked.length > 0) {
      lines.push(`agentc init: cannot create the workspace in ${shown}:`);
      for (const b of plan.blocked) lines.push(`  ${b.path}: ${b.reason}`);
    }
    if (plan.conflicts.length > 0 && opts.force !== true) {
      const n = plan.conflicts.length;
      lines.push(
        `agentc init: ${n} file${n === 1 ? '' : 's'} in ${shown} already exist${n === 1 ? 's' : ''} and differ${n === 1 ? 's' : ''} from the starter:`,
      );
      for (const c of plan.conflicts) lines.push(`  ${c}`);
      lines.push('Nothing was written. Re-run with --force to overwrite them, or choose an empty directory.');
    } else {
      lines.push('Nothing was written.');
    }
    io.stderr(lines.join('\n') + '\n');
    return EXIT.failure;
  }

  const result = writePlan(root, plan.files);
  if (!result.ok) {
    const partial = result.written.length > 0 ? ` (${result.written.length} file(s) were written before the failure)` : '';
    io.stderr(`agentc init: ${result.message}${partial}.\n`);
    return EXIT.failure;
  }

  const changed = plan.files.filter((f) => f.action !== 'unchanged').length;
  const out: string[] = [];
  out.push(
    changed === 0
      ? `The agentc starter workspace in ${shown} is already complete; nothing to write.`
      : `Created an agentc workspace in ${shown} (${changed} file${changed === 1 ? '' : 's'} written).`,
    '',
  );
  const note = { create: '', overwrite: '  (overwritten)', update: '  (updated)', unchanged: '  (unchanged)' } as const;
  for (const f of plan.files) out.push(`  ${f.path}${note[f.action]}`);
  out.push('', p.bold('Next steps:'));
  const steps: [string, string][] = [];
  if (root !== resolve(io.cwd)) steps.push([`cd ${shellQuote(shown)}`, '']);
  steps.push(
    ['npm install', 'install @agentc/cli and @agentc/runtime (package.json)'],
    ['npm run check', 'validate cards, blocks and tool contracts'],
    [`npx --no-install agentc prompt ${STARTER_ORCHESTRATOR}`, "read the orchestrator's assembled prompt"],
    ['npm run build', 'write generated/, then commit it'],
  );
  const width = Math.max(...steps.map(([c]) => c.length));
  for (const [cmd, what] of steps) out.push(what === '' ? `  ${cmd}` : `  ${cmd.padEnd(width)}  ${p.grey(what)}`);
  out.push('', 'README.md explains the layout and how to add a sub-agent.');
  io.stdout(out.join('\n') + '\n');
  return EXIT.ok;
}

/** Files npm makes before a project has anything else; init works beside them. */
const NPM_ENTRIES = new Set(['.git', 'node_modules', 'package.json', 'package-lock.json']);

/** Top-level entries of `root` that are neither the starter's own paths nor npm's files, sorted. */
function foreignEntries(root: string, files: readonly StarterFile[]): string[] {
  const own = new Set(files.map((f) => f.path.split('/')[0]!));
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch {
    return [];
  }
  return entries.filter((e) => !own.has(e) && !NPM_ENTRIES.has(e)).sort();
}

/** package.json merged into the one already there (dependencies it declares are kept); ours when there is none or it is not JSON. */
function withExistingPackageJson(root: string, ours: StarterFile, name: string): StarterFile {
  let text: string;
  try {
    text = readFileSync(join(root, 'package.json'), 'utf8');
  } catch {
    return ours;
  }
  const merged = mergePackageJson(text, name, AGENTC_VERSION);
  return merged === undefined ? ours : { path: ours.path, content: merged, merged: true };
}

/** The directory as the user should read it: relative to where they are when inside it. */
function showDir(cwd: string, root: string): string {
  const rel = relative(resolve(cwd), root);
  if (rel === '') return 'the current directory';
  if (rel === '..' || rel.startsWith('..' + sep) || isAbsolute(rel)) return root;
  return rel.split(sep).join('/');
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
