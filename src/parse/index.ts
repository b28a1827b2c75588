/** Parse phase: every loaded file → its model (cards, blocks, tools, config), plus diagnostics. */
import type { DiagnosticBag } from '../diagnostics/diagnostic.js';
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

export function parseWorkspace(ws: Workspace, config: ConfigLoad | undefined, bag: DiagnosticBag): ParsedWorkspace {
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
  return {
    cards: ws.cards.map((f) => parseCard(f, bag)).filter(present),
    blocks: ws.blocks.map((f) => parseBlock(f, bag)).filter(present),
    tools: ws.tools.map((f) => parseTool(f, bag)).filter(present),
    config: parseConfig(config?.error ? undefined : config?.file, config?.value, bag),
  };
}
