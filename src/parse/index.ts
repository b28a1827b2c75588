/** Parse phase: every loaded file → its model (cards, blocks, tools, config), plus diagnostics. */
import { DiagnosticBag, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { SourceFile } from '../load/source.js';
import type { Workspace } from '../load/workspace.js';
import type { ConfigLoad } from '../load/config.js';
import { sourceKindOf } from '../load/layout.js';
import { parseBlock } from './block.js';
import { parseCard } from './card.js';
import { parseEvalSuite, type EvalSuiteFile } from './eval-suite.js';
import { parseConfig } from './config.js';
import { parseTool } from './tool.js';
import type { Block, Card, ConfigFile, Tool } from './types.js';
import { stemOf } from './util.js';

export interface ParsedWorkspace {
  cards: Card[];
  blocks: Block[];
  tools: Tool[];
  config: ConfigFile;
  /** Eval suites that validated (evals/*.yaml); names in them are resolved by the check phase. */
  evals: EvalSuiteFile[];
  /** Workspace-relative path of the config file found, whether or not it loaded; absent when there is none. */
  configPath: string | undefined;
  /**
   * File stems of cards, blocks and tools that exist but did not parse. Their
   * ids are unknown, so references to the stem are not "unknown" (the file's own
   * error says what is wrong) and nothing can be called unused.
   */
  unparsed: Unparsed;
}

export interface Unparsed {
  cards: Set<string>;
  blocks: Set<string>;
  tools: Set<string>;
  /** A blocks/ sub-folder could not be read: any block id may be one of its files. */
  someBlocksUnread?: boolean;
}

/**
 * Parse results by file path, reused while a file's text is unchanged (watch
 * mode). Each entry keeps the diagnostics its file produced, so a cached file
 * reports exactly what a fresh parse would.
 */
export type ParseCache = Map<string, { text: string; result: Card | Block | Tool | EvalSuiteFile | undefined; diagnostics: Diagnostic[] }>;

/**
 * Parses the workspace's files and its config (the config's value as loaded).
 * Diagnostics reach `bag` in this order: the config's load error, then cards,
 * blocks, tools, evals, config.
 */
export function parseWorkspace(ws: Workspace, config: ConfigLoad | undefined, bag: DiagnosticBag, cache?: ParseCache): ParsedWorkspace {
  const cached =
    <T extends Card | Block | Tool | EvalSuiteFile>(parse: (f: SourceFile, b: DiagnosticBag) => T | undefined, bag: DiagnosticBag) =>
    (f: SourceFile): T | undefined => {
      if (!cache) return parse(f, bag);
      const hit = cache.get(f.path);
      if (hit && hit.text === f.text) {
        bag.pushAll(hit.diagnostics);
        return hit.result as T | undefined;
      }
      const own = new DiagnosticBag();
      const result = parse(f, own);
      cache.set(f.path, { text: f.text, result, diagnostics: own.items });
      bag.pushAll(own.items);
      return result;
    };
  const unparsed: Unparsed = { cards: new Set(), blocks: new Set(), tools: new Set(), someBlocksUnread: (ws.unreadDirs?.length ?? 0) > 0 };
  // Named like a card, block or tool but not a file: its id is unknown, not missing.
  for (const path of ws.notFiles ?? []) {
    const kind = sourceKindOf(path);
    const set = kind === 'card' ? unparsed.cards : kind === 'block' ? unparsed.blocks : unparsed.tools;
    set.add(stemOf(path));
  }
  const all = <T>(files: SourceFile[], parse: (f: SourceFile) => T | undefined, failed: Set<string>): T[] => {
    const out: T[] = [];
    for (const f of files) {
      const r = parse(f);
      if (r === undefined) failed.add(stemOf(f.path));
      else out.push(r);
    }
    return out;
  };
  if (config?.error) {
    const { range, ...problem } = config.error;
    bag.add({ rule: 'config-load', file: config.file?.path ?? ws.configPath, ...(range ? { range } : {}), ...problem });
  } else if (!ws.configPath) {
    // One error for the missing config; rules that read it stand down (Program.configStatus).
    if (ws.configLookalike !== undefined) {
      const file = ws.configLookalike;
      bag.add({ rule: 'config-load', file, message: 'unsupportedName', data: { file }, hint: { id: 'rename', data: { file } } });
    } else bag.add({ rule: 'config-load', message: 'notFound', hint: { id: 'create' } });
  }
  const cards = all(ws.cards, cached(parseCard, bag), unparsed.cards);
  const blocks = all(ws.blocks, cached(parseBlock, bag), unparsed.blocks);
  const tools = all(ws.tools, cached(parseTool, bag), unparsed.tools);
  const evals = (ws.evals ?? []).flatMap((f) => cached(parseEvalSuite, bag)(f) ?? []);
  // A config that did not load keeps no file: resolve's configStatus reads that.
  const configFile = parseConfig(config?.error ? undefined : config?.file, config?.value, bag);
  // Every file now has its entry; more entries than files means some are for files gone since.
  const count = ws.cards.length + ws.blocks.length + ws.tools.length + (ws.evals?.length ?? 0);
  if (cache && cache.size > count) {
    const live = new Set([...ws.cards, ...ws.blocks, ...ws.tools, ...(ws.evals ?? [])].map((f) => f.path));
    for (const path of cache.keys()) if (!live.has(path)) cache.delete(path);
  }
  return { unparsed, cards, blocks, tools, evals, config: configFile, configPath: ws.configPath };
}
