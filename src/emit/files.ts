/**
 * Bundle → every generated file, by path relative to the output directory
 * (`/` separators). Pure and deterministic: paths in sorted order, LF only.
 */
import type { Bundle } from '../bundle/types.js';
import { renderBundleTs } from './bundle-ts.js';
import { canonicalJson, compareCodeUnits } from './canonical-json.js';
import { renderOrchestratorTs } from './orchestrator-ts.js';
import { promptFilePath, renderPromptFile } from './prompts.js';

export function emitFiles(bundle: Bundle): Map<string, string> {
  const files = new Map<string, string>();
  files.set('bundle.json', canonicalJson(bundle));
  files.set('bundle.ts', renderBundleTs(bundle));
  files.set('orchestrator.ts', renderOrchestratorTs(bundle));
  for (const id of Object.keys(bundle.agents)) {
    const agent = bundle.agents[id]!;
    const model = bundle.models[agent.model];
    for (const prefix of agent.prefixes) {
      files.set(promptFilePath(id, prefix.key), renderPromptFile(agent, prefix, model));
    }
  }
  const sorted = new Map<string, string>();
  for (const path of [...files.keys()].sort(compareCodeUnits)) {
    sorted.set(path, files.get(path)!);
  }
  return sorted;
}
