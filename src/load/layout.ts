/**
 * The workspace layout, spelled out once: where each kind of file lives and
 * which file names count. Load lists files by it, parse and check name paths by
 * it, init and import write by it, the CLI (build output, watch), the language
 * server and eval read it; `Program.layout` carries it. Directories are
 * workspace-relative and `/`-separated (join them for the file system).
 *
 * Invariant: these directory names appear as literals in src/ only here
 * (test/load/layout.test.ts).
 */

export interface SourceDir {
  /** Workspace-relative, `/`-separated. */
  dir: string;
  /** Files in sub-folders count too. */
  recursive: boolean;
  /** File name endings that count (case-sensitive), with the dot; the first is the one agentc writes. */
  extensions: readonly string[];
}

export interface WorkspaceLayout {
  /** Agent cards: `cards/<id>.yaml`. */
  cards: SourceDir;
  /** Prompt blocks: `blocks/**\/<id>.md`. */
  blocks: SourceDir;
  /** Tool contracts: `schemas/tools/<name>.yaml` (or .json). */
  tools: SourceDir;
  /** JSON Schemas of agentc's formats, copied by `agentc init` for editor completion. */
  schemas: string;
  /** Where `agentc build` writes by default. */
  generated: string;
  /** Eval suites: `evals/*.yaml`. */
  evals: SourceDir;
}

export const WORKSPACE_LAYOUT: WorkspaceLayout = Object.freeze({
  cards: Object.freeze({ dir: 'cards', recursive: false, extensions: Object.freeze(['.yaml', '.yml']) }),
  blocks: Object.freeze({ dir: 'blocks', recursive: true, extensions: Object.freeze(['.md']) }),
  tools: Object.freeze({ dir: 'schemas/tools', recursive: false, extensions: Object.freeze(['.yaml', '.yml', '.json']) }),
  schemas: 'schemas',
  generated: 'generated',
  evals: Object.freeze({ dir: 'evals', recursive: false, extensions: Object.freeze(['.yaml', '.yml']) }),
});

/** The kinds of workspace source file, each in its own folder. */
export type SourceKind = 'card' | 'block' | 'tool';

/** The folder of a kind of source file. */
export function sourceDir(kind: SourceKind, layout: WorkspaceLayout = WORKSPACE_LAYOUT): SourceDir {
  return kind === 'card' ? layout.cards : kind === 'block' ? layout.blocks : layout.tools;
}

/** Whether a file name has one of the extensions of `dir`. */
export function hasExtension(dir: SourceDir, name: string): boolean {
  return dir.extensions.some((e) => name.endsWith(e));
}

/** The kind of workspace file a workspace-relative path names by its folder, if any. */
export function sourceKindOf(path: string, layout: WorkspaceLayout = WORKSPACE_LAYOUT): SourceKind | undefined {
  const p = path.replace(/\\/g, '/');
  for (const kind of ['card', 'block', 'tool'] as const) if (p.startsWith(`${sourceDir(kind, layout).dir}/`)) return kind;
  return undefined;
}

/** `cards/<id>.yaml` */
export function cardPath(id: string, layout: WorkspaceLayout = WORKSPACE_LAYOUT): string {
  return `${layout.cards.dir}/${id}${layout.cards.extensions[0]}`;
}

/** `blocks/<folder>/<id>.md` */
export function blockPath(folder: string, id: string, layout: WorkspaceLayout = WORKSPACE_LAYOUT): string {
  return `${layout.blocks.dir}/${folder}/${id}${layout.blocks.extensions[0]}`;
}

/** `schemas/tools/<name><extension>` (`.yaml` unless given). */
export function toolPath(name: string, extension: string = WORKSPACE_LAYOUT.tools.extensions[0]!, layout: WorkspaceLayout = WORKSPACE_LAYOUT): string {
  return `${layout.tools.dir}/${name}${extension}`;
}

/** Glob patterns of a source folder's files (editor settings, CI): `cards/*.yaml`, `cards/*.yml`. */
export function globsOf(dir: SourceDir): string[] {
  return dir.extensions.map((e) => `${dir.dir}/${dir.recursive ? '**/' : ''}*${e}`);
}
