/** Parse phase: every loaded file → its model (cards, blocks, tools, config), plus diagnostics. */
import { DiagnosticBag, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { SourceFile } from '../load/source.js';
import type { Workspace } from '../load/workspace.js';
import type { ConfigLoad } from '../load/config.js';
import { parseBlock } from './block.js';
import { parseCard } from './card.js';
import { parseConfig } from './config.js';
import { parseTool } from './tool.js';
import type { Block, Card, ConfigFile, Tool } from './types.js';

export interface ParsedWorkspace {
  cards: Card[];
  blocks: Block[];
  tools: Tool[];
  config: ConfigFile;
}

/**
 * Parse results by file path, reused while a file's text is unchanged (watch
 * mode). Each entry keeps the diagnostics its file produced, so a cached file
 * reports exactly what a fresh parse would.
 */
export type ParseCache = Map<string, { text: string; result: Card | Block | Tool | undefined; diagnostics: Diagnostic[] }>;

export function parseWorkspace(ws: Workspace, config: ConfigLoad | undefined, bag: DiagnosticBag, cache?: ParseCache): ParsedWorkspace {
  if (config?.error) {
    bag.add({
      rule: 'config-load',
      file: config.file?.path ?? ws.configPath,
      ...(config.error.range ? { range: config.error.range } : {}),
      data: { detail: config.error.message },
      ...(config.error.hint ? { hint: config.error.hint } : {}),
    });
  }
  const present = <T>(x: T | undefined): x is T => x !== undefined;
  const cached = <T extends Card | Block | Tool>(parse: (f: SourceFile, b: DiagnosticBag) => T | undefined) => (f: SourceFile): T | undefined => {
    if (!cache) return parse(f, bag);
    const hit = cache.get(f.path);
    if (hit && hit.text === f.text) {
      bag.push(...hit.diagnostics);
      return hit.result as T | undefined;
    }
    const own = new DiagnosticBag();
    const result = parse(f, own);
    cache.set(f.path, { text: f.text, result, diagnostics: own.items });
    bag.push(...own.items);
    return result;
  };
  if (cache) {
    const live = new Set([...ws.cards, ...ws.blocks, ...ws.tools].map((f) => f.path));
    for (const path of cache.keys()) if (!live.has(path)) cache.delete(path);
  }
  return {
    cards: ws.cards.map(cached(parseCard)).filter(present),
    blocks: ws.blocks.map(cached(parseBlock)).filter(present),
    tools: ws.tools.map(cached(parseTool)).filter(present),
    config: parseConfig(config?.error ? undefined : config?.file, config?.value, bag),
  };
}
