/**
 * Bundle → every generated file, by path relative to the output directory
 * (`/` separators). Pure and deterministic: paths in sorted order, LF only.
 *
 * With an EmitCache (watch mode) the big files come as UTF-8 chunks assembled
 * from per-agent pieces, and an agent whose bundle entry is the same object as
 * last time keeps its prompt files: the same bytes as without a cache, made in
 * time proportional to what changed.
 */
import type { Bundle } from '../bundle/types.js';
import { bundleTsContent } from './bundle-ts.js';
import { createEmitCache, type EmitCache } from './cache.js';
import { compareCodeUnits } from '../bundle/canonical-json.js';
import { contentToString, type FileContent } from './content.js';
import { fragmentsOf, jsonChunks, layoutOf } from './fragments.js';
import { renderOrchestratorTs } from './orchestrator-ts.js';
import { promptFilePath, renderPromptFile } from './prompts.js';

export function emitFiles(bundle: Bundle): Map<string, string>;
export function emitFiles(bundle: Bundle, cache: EmitCache): Map<string, FileContent>;
export function emitFiles(bundle: Bundle, cache?: EmitCache): Map<string, FileContent> {
  const memo = cache ?? createEmitCache();
  const ids = Object.keys(bundle.agents).sort(compareCodeUnits);
  const agents = ids.map((id) => fragmentsOf(memo, id, bundle.agents[id]!));
  const files = new Map<string, FileContent>();
  const layout = layoutOf(bundle, memo);
  const json = jsonChunks(layout.frame, layout.pieces);
  files.set('bundle.json', json);
  files.set('bundle.ts', bundleTsContent(bundle, memo));
  files.set('orchestrator.ts', renderOrchestratorTs(bundle));
  for (const a of agents) {
    const model = bundle.models[a.entry.model];
    if (a.prompts === undefined || a.prompts.model !== model) {
      a.prompts = { model, files: a.entry.prefixes.map((p) => [promptFilePath(a.id, p.key), renderPromptFile(a.entry, p, model)]) };
    }
    for (const [path, text] of a.prompts.files) files.set(path, text);
  }
  const sorted = new Map<string, FileContent>();
  for (const path of [...files.keys()].sort(compareCodeUnits)) {
    const content = files.get(path)!;
    sorted.set(path, cache ? content : contentToString(content));
  }
  return sorted;
}
