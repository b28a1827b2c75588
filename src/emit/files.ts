/**
 * Bundle → every generated file, by path relative to the output directory
 * (`/` separators). Pure and deterministic: paths in sorted order, LF only.
 *
 * With an EmitCache (watch mode) the big files come as UTF-8 chunks assembled
 * from per-agent pieces, and an agent whose bundle entry is the same object as
 * last time keeps its prompt files: the same bytes as without a cache, made in
 * time proportional to what changed.
 */
import type { Bundle, BundleAgent, BundleModel, BundlePrefix } from '../bundle/types.js';
import { bundleTsContent } from './bundle-ts.js';
import { createEmitCache, type AgentFragments, type EmitCache } from './cache.js';
import { entryAgent } from './entry-agent.js';
import { compareCodeUnits } from '../bundle/canonical-json.js';
import { contentToString, type FileContent, type OutputFiles } from './content.js';
import { bundleJsonChunks, fragmentsOf } from './fragments.js';
import { renderOrchestratorTs } from './orchestrator-ts.js';
import { promptFilePath, renderPromptFile, renderPromptFileBytes } from './prompts.js';

export function emitFiles(bundle: Bundle): Map<string, string>;
export function emitFiles(bundle: Bundle, cache: EmitCache): Map<string, FileContent>;
export function emitFiles(bundle: Bundle, cache?: EmitCache): Map<string, FileContent> {
  const memo = cache ?? createEmitCache();
  const kept = cache === undefined || cache.once ? undefined : keptFiles(bundle, cache);
  if (kept !== undefined) return kept;
  const ids = Object.keys(bundle.agents).sort(compareCodeUnits);
  const agents = ids.map((id) => fragmentsOf(memo, id, bundle.agents[id]!));
  const files = new Map<string, FileContent>();
  files.set('bundle.json', bundleJsonChunks(bundle, memo));
  files.set('bundle.ts', bundleTsContent(bundle, memo));
  files.set('orchestrator.ts', orchestratorTs(bundle, memo));
  for (const a of agents) for (const [path, text] of promptFiles(a, bundle)) files.set(path, text);
  const sorted = new Map<string, FileContent>();
  for (const path of sortedPaths(files, memo)) {
    const content = files.get(path)!;
    sorted.set(path, cache ? content : contentToString(content));
  }
  if (cache !== undefined && !cache.once) cache.lastFiles = { bundle, files: sorted };
  return sorted;
}

/** The agent's prompt files (path, text), kept with its fragments while its model is the same object. */
function promptFiles(a: AgentFragments, bundle: Bundle): readonly [string, string][] {
  const model = bundle.models[a.entry.model];
  if (a.prompts === undefined || a.prompts.model !== model) {
    a.prompts = { model, files: a.entry.prefixes.map((p) => [promptFilePath(a.id, p.key), renderPromptFile(a.entry, p, model)]) };
  }
  return a.prompts.files;
}

/**
 * Watch, for a bundle createBundle made with a delta from the bundle the last files were made for,
 * with the same agents and models: the last files (a copy, in the same order: the map handed out
 * is kept as it is, and its users never change it) with bundle.json,
 * bundle.ts, orchestrator.ts and the changed agents' prompt files set again. Undefined when a
 * changed agent's prompt files are not at the same paths (then every path is listed and sorted).
 */
function keptFiles(bundle: Bundle, cache: EmitCache): Map<string, FileContent> | undefined {
  const delta = cache.last?.hashed === bundle ? cache.last.delta : undefined;
  const last = cache.lastFiles;
  if (delta === undefined || last === undefined || last.bundle !== delta.previous.hashed || !delta.sameIds || bundle.models !== last.bundle.models)
    return undefined;
  const prompts: (readonly [string, string])[] = [];
  for (const [id, before] of delta.changed) {
    const made = promptFiles(fragmentsOf(cache, id, bundle.agents[id]!), bundle);
    if (before === undefined || made.length !== before.prefixes.length) return undefined;
    if (!made.every(([path], i) => path === promptFilePath(id, before.prefixes[i]!.key))) return undefined;
    prompts.push(...made);
  }
  const files = new Map(last.files);
  files.set('bundle.json', bundleJsonChunks(bundle, cache));
  files.set('bundle.ts', bundleTsContent(bundle, cache));
  files.set('orchestrator.ts', orchestratorTs(bundle, cache));
  for (const [path, text] of prompts) files.set(path, text);
  cache.lastFiles = { bundle, files };
  return files;
}

/**
 * orchestrator.ts, a function of the entry agent only (renderOrchestratorTs): with a delta whose
 * agents kept their ids, roles and sub-agents, the last one's entry agent without looking at the others.
 */
function orchestratorTs(bundle: Bundle, cache: EmitCache): string {
  const last = cache.orchestrator;
  const delta = cache.last?.hashed === bundle ? cache.last.delta : undefined;
  let entry: string | undefined;
  if (last !== undefined && delta !== undefined && last.bundle === delta.previous.hashed && delta.sameIds && sameRoots(delta.changed, bundle))
    entry = last.entry;
  else entry = entryAgent(bundle);
  const text = last !== undefined && last.entry === entry ? last.text : renderOrchestratorTs(bundle, entry);
  if (!cache.once) cache.orchestrator = { bundle, entry, text };
  return text;
}

/** Whether every changed agent has the role and sub-agents it had (what entryAgent reads of it). */
function sameRoots(changed: ReadonlyMap<string, BundleAgent | undefined>, bundle: Bundle): boolean {
  for (const [id, before] of changed) {
    const now = bundle.agents[id]!;
    if (before === undefined || before.role !== now.role || before.sub_agents.length !== now.sub_agents.length) return false;
    if (!before.sub_agents.every((s, i) => s === now.sub_agents[i])) return false;
  }
  return true;
}

/** The paths in code-unit order; the same list as last time (item by item, as made) keeps its order. */
function sortedPaths(files: ReadonlyMap<string, FileContent>, cache: EmitCache): readonly string[] {
  const paths = [...files.keys()];
  const last = cache.fileOrder;
  if (last !== undefined && last.paths.length === paths.length && last.paths.every((p, i) => p === paths[i])) return last.order;
  const order = [...paths].sort(compareCodeUnits);
  if (!cache.once) cache.fileOrder = { paths, order };
  return order;
}

/**
 * The same files and bytes as emitFiles, made for one write or compare (`agentc
 * build`): bundle.json, bundle.ts and orchestrator.ts at once (the bundle hash
 * has made bundle.json's pieces already), each prompt file only when it is asked
 * for, as its UTF-8 bytes (encoded in place, never first built as a string), and never kept. So a build holds one prompt file at a
 * time instead of every one of them, and each is encoded once, for its hash and
 * its write.
 */
export function emitOutput(bundle: Bundle, cache: EmitCache = createEmitCache()): OutputFiles {
  const made = new Map<string, FileContent>();
  made.set('bundle.json', bundleJsonChunks(bundle, cache));
  made.set('bundle.ts', bundleTsContent(bundle, cache));
  made.set('orchestrator.ts', orchestratorTs(bundle, cache));
  const prompts = new Map<
    string,
    { entry: BundleAgent; prefix: BundlePrefix; model: BundleModel | undefined; texts: readonly { text: string }[] | undefined }
  >();
  for (const id of Object.keys(bundle.agents).sort(compareCodeUnits)) {
    const entry = bundle.agents[id]!;
    const model = bundle.models[entry.model];
    // The block texts createBundle kept with the entry's fragments (the prompt file then never slices the prefix text).
    const uses = cache.fragments.get(entry)?.uses;
    entry.prefixes.forEach((prefix, i) => prompts.set(promptFilePath(id, prefix.key), { entry, prefix, model, texts: uses?.[i] }));
  }
  for (const path of made.keys()) prompts.delete(path);
  const paths = [...made.keys(), ...prompts.keys()].sort(compareCodeUnits);
  const get = (rel: string): FileContent | undefined => {
    const content = made.get(rel);
    if (content !== undefined) return content;
    const p = prompts.get(rel);
    return p === undefined ? undefined : [renderPromptFileBytes(p.entry, p.prefix, p.model, p.texts)];
  };
  return {
    size: paths.length,
    keys: () => paths.values(),
    has: (rel) => made.has(rel) || prompts.has(rel),
    get,
    *[Symbol.iterator]() {
      for (const rel of paths) yield [rel, get(rel)!];
    },
  };
}
