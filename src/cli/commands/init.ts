/**
 * `agentc init [DIR]`: scaffold a starter workspace that passes `agentc check`.
 * Refuses (exit 2) to overwrite files that differ from the starter unless --force;
 * writes nothing at all when it refuses.
 */
import { statSync } from 'node:fs';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { paint } from '../../diagnostics/render/ansi.js';
import { readSchemaFiles } from '../../init/schemas.js';
import { starterFiles, STARTER_ORCHESTRATOR } from '../../init/template.js';
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
  const files = [...starterFiles({ name }), ...schemas.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  const plan = planInit(root, files, opts.force === true);
  if (!plan.ok) {
    const lines: string[] = [];
    if (plan.blocked.length > 0) {
      lines.push(`agentc init: cannot create the workspace in ${shown}:`);
      for (const b of plan.blocked) lines.push(`  ${b.path}: ${b.reason}`);
    }
    if (plan.conflicts.length > 0 && opts.force !== true) {
      const n = plan.conflicts.length;
      lines.push(`agentc init: ${n} file${n === 1 ? '' : 's'} in ${shown} already exist${n === 1 ? 's' : ''} and differ${n === 1 ? 's' : ''} from the starter:`);
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
  const note = { create: '', overwrite: '  (overwritten)', unchanged: '  (unchanged)' } as const;
  for (const f of plan.files) out.push(`  ${f.path}${note[f.action]}`);
  out.push('', p.bold('Next steps:'));
  const steps: [string, string][] = [];
  if (root !== resolve(io.cwd)) steps.push([`cd ${shellQuote(shown)}`, '']);
  steps.push(
    ['npm install --save-dev agentc', 'types for agentc.config.ts in your editor (optional)'],
    ['npx agentc check', 'validate cards, blocks and tool contracts'],
    [`npx agentc prompt ${STARTER_ORCHESTRATOR}`, "read the orchestrator's assembled prompt"],
    ['npx agentc build', 'write generated/, then commit it'],
  );
  const width = Math.max(...steps.map(([c]) => c.length));
  for (const [cmd, what] of steps) out.push(what === '' ? `  ${cmd}` : `  ${cmd.padEnd(width)}  ${p.grey(what)}`);
  out.push('', 'README.md explains the layout and how to add a sub-agent.');
  io.stdout(out.join('\n') + '\n');
  return EXIT.ok;
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
