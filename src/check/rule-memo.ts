/**
 * Check results kept across compiles (watch mode, the language server), owned by
 * `CompileCache.rules` (src/compile.ts); a compile without one runs every rule.
 *
 * A rule that declares `reads` (src/check/rule.ts) is a pure function of those
 * parts of the program, so its diagnostics (never mutated once made) are replayed
 * while each part is the same:
 * - `cardTable` / `toolTable`: the id → parsed object table, compared by object identity
 *   (parsed objects are never mutated; a changed file parses into a new object);
 *   what is derived from the cards alone (`program.parents`, the sub-agent graph) goes with `cardTable`;
 * - `blockHeads`: each block's id, path, data and front matter text — everything of a
 *   block but its body (an edit to a block's prose keeps it; rules reading it must not
 *   read `body` or `template`);
 * - `unparsed`: the stems of files that did not parse;
 * - `duplicates`: the ids given twice, with both files and the range;
 * - always: the config's status, file text and resolved value (`configKey`).
 * A rule without `reads` runs on every compile.
 *
 * An `ItemPass` (src/check/item-findings.ts) keeps each item's findings under the
 * config's version and the compile they were brought up to date in: a compile whose
 * `Program.revision` follows that one looks again at the changed ids alone; any
 * other compile, or another config, looks at every item.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { RuleId } from '../diagnostics/catalog.js';
import type { Block } from '../parse/types.js';
import type { Program } from '../resolve/types.js';
import type { ProgramPart, Rule } from './rule.js';
import { findAll, findItem, inIdOrder, itemTable, type CheckRun, type ItemFound, type ItemKind, type ItemPass } from './item-findings.js';

/** One compile's view: the stored diagnostics of a rule whose parts are unchanged, and `set` after a run; items' findings kept across compiles. */
export interface RuleMemoRun extends CheckRun {
  get(rule: Rule): readonly Diagnostic[] | undefined;
  set(rule: Rule, diagnostics: readonly Diagnostic[]): void;
}

/** A pass's findings: by id (items with findings only), in id order, as of the compile `at` under config version `config`. */
interface ItemState {
  config: number;
  at: object;
  byId: Map<string, ItemFound<ItemKind, unknown>>;
  list: readonly ItemFound<ItemKind, unknown>[];
}

/** A part's key and number; for a table part also the compile it was last compared in (`Program.revision`) and that compile's blocks. */
interface PartVersion {
  key: readonly unknown[];
  n: number;
  at?: object;
  blocks?: ReadonlyMap<string, Block>;
}

export class PersistentRuleMemos {
  private entries = new Map<RuleId, { key: string; diagnostics: readonly Diagnostic[] }>();
  private items = new Map<ItemPass<ItemKind, unknown>, ItemState>();
  private readonly heads = new WeakMap<Block, string>();
  private readonly versions = new Map<ProgramPart | 'config', PartVersion>();
  private lastVersion = 0;

  forRun(program: Program): RuleMemoRun {
    const config = program.config;
    const configKey = `${program.configStatus}\u0000${config.file?.path ?? ''}\u0000${config.file?.text ?? ''}\u0000${JSON.stringify(config.data)}\u0000${invalidModels(config.invalidModels)}`;
    const parts = new Map<ProgramPart | 'config', number>([['config', this.version('config', [configKey])]]);
    const part = (p: ProgramPart): number => {
      let n = parts.get(p);
      if (n === undefined) parts.set(p, (n = this.partVersion(program, p)));
      return n;
    };
    const keyOf = (rule: Rule): string | undefined => (rule.reads ? [parts.get('config'), ...rule.reads.map((p) => `${p}=${part(p)}`)].join(',') : undefined);
    return {
      get: (rule) => {
        const key = keyOf(rule);
        const hit = key === undefined ? undefined : this.entries.get(rule.id);
        return hit !== undefined && hit.key === key ? hit.diagnostics : undefined;
      },
      set: (rule, diagnostics) => {
        const key = keyOf(rule);
        if (key === undefined) this.entries.delete(rule.id);
        else this.entries.set(rule.id, { key, diagnostics });
      },
      findings: <K extends ItemKind, F>(pass: ItemPass<K, F>) =>
        this.findings(program, pass as ItemPass<ItemKind, unknown>, parts.get('config')!) as readonly ItemFound<K, F>[],
    };
  }

  /** The pass's findings for `program`: brought up to date from the last compile's by the ids changed since, else found anew. */
  private findings(program: Program, pass: ItemPass<ItemKind, unknown>, config: number): readonly ItemFound<ItemKind, unknown>[] {
    const revision = program.revision;
    const last = this.items.get(pass);
    if (revision === undefined) {
      this.items.delete(pass);
      return inIdOrder(findAll(program, pass).values());
    }
    if (last !== undefined && last.config === config) {
      if (last.at === revision.self) return last.list;
      const changed = revision.changed;
      if (changed !== undefined && last.at === changed.since) {
        const table = itemTable(program, pass.kind);
        let moved = false;
        for (const id of changed[pass.kind]) {
          const item = table.get(id);
          const had = last.byId.get(id);
          if (had !== undefined && had.item === item) continue;
          const now = item === undefined ? undefined : findItem(program, pass, id, item);
          if (now !== undefined) last.byId.set(id, now);
          else if (had !== undefined) last.byId.delete(id);
          moved ||= now !== undefined || had !== undefined;
        }
        if (moved) last.list = inIdOrder(last.byId.values());
        last.at = revision.self;
        return last.list;
      }
    }
    const byId = findAll(program, pass);
    const state: ItemState = { config, at: revision.self, byId, list: inIdOrder(byId.values()) };
    this.items.set(pass, state);
    return state.list;
  }

  /** A number per part that changes whenever the part's key does (each key compared once per run, not once per rule; items by ===). */
  private version(part: ProgramPart | 'config', key: readonly unknown[]): number {
    const last = this.versions.get(part);
    if (last !== undefined && last.key.length === key.length && last.key.every((x, i) => x === key[i])) return last.n;
    const n = ++this.lastVersion;
    this.versions.set(part, { key, n });
    return n;
  }

  /** The part's version: a table is compared with the last key in place (no list made while it is the same). */
  private partVersion(program: Program, p: ProgramPart): number {
    const last = this.versions.get(p);
    if (last !== undefined) {
      const same =
        this.unchangedSince(program, p, last) ??
        (p === 'cardTable'
          ? sameTable(last.key, program.cards, (card) => card)
          : p === 'toolTable'
            ? sameTable(last.key, program.tools, (tool) => tool)
            : p === 'blockHeads' && sameTable(last.key, program.blocks, (block) => this.head(block)));
      if (same) {
        last.at = program.revision?.self;
        last.blocks = program.blocks;
        return last.n;
      }
    }
    const n = this.version(p, this.partKey(program, p));
    const now = this.versions.get(p)!;
    now.at = program.revision?.self;
    now.blocks = program.blocks;
    return n;
  }

  /**
   * Whether a table part is the same as when `last` was compared, told by the ids changed since that
   * compile (`Program.revision`) alone; undefined when they do not tell (another compile, another part).
   */
  private unchangedSince(program: Program, p: ProgramPart, last: PartVersion): boolean | undefined {
    const changed = program.revision?.changed;
    if (changed === undefined || last.at === undefined || changed.since !== last.at) return undefined;
    switch (p) {
      case 'cardTable':
        return changed.card.size === 0;
      case 'toolTable':
        return changed.tool.size === 0;
      case 'blockHeads': {
        // Same ids in the same places (none added or removed), each changed block with the same head.
        const before = last.blocks;
        if (before === undefined) return undefined;
        for (const id of changed.block) {
          const was = before.get(id);
          const is = program.blocks.get(id);
          if (was === undefined || is === undefined || this.head(was) !== this.head(is)) return false;
        }
        return true;
      }
      default:
        return undefined;
    }
  }

  invalidate(): void {
    this.entries.clear();
    this.items.clear();
    this.versions.clear();
  }

  /** The part as a list whose items are compared by ===: ids, parsed objects, and strings made once per object. */
  private partKey(program: Program, p: ProgramPart): unknown[] {
    switch (p) {
      case 'cardTable':
        return table(program.cards, (card) => card);
      case 'toolTable':
        return table(program.tools, (tool) => tool);
      case 'blockHeads':
        return table(program.blocks, (block) => this.head(block));
      case 'duplicates':
        return [JSON.stringify(program.duplicates.map((d) => [d.kind, d.id, d.first.path, d.file.path, d.range]))];
      case 'unparsed': {
        const u = program.unparsed;
        return [JSON.stringify([[...u.cards].sort(), [...u.blocks].sort(), [...u.tools].sort(), u.someBlocksUnread === true])];
      }
    }
  }

  /** A block without its body, made once per block object (an unchanged block gives the same string object). */
  private head(block: Block): string {
    let h = this.heads.get(block);
    if (h === undefined) {
      h = JSON.stringify([block.file.path, block.data, block.file.text.slice(0, block.bodyOffset)]);
      this.heads.set(block, h);
    }
    return h;
  }
}

/** Whether `key` is table(map, item), without making it. */
function sameTable<T>(key: readonly unknown[], map: ReadonlyMap<string, T>, item: (t: T) => unknown): boolean {
  if (key.length !== map.size * 2) return false;
  let i = 0;
  let same = true;
  // forEach, not for…of: no [id, t] pair made per entry.
  map.forEach((t, id) => {
    if (same && (key[i] !== id || key[i + 1] !== item(t))) same = false;
    i += 2;
  });
  return same;
}

/** id, item, id, item… in the table's order. */
function table<T>(map: ReadonlyMap<string, T>, item: (t: T) => unknown): unknown[] {
  const out: unknown[] = [];
  for (const [id, t] of map) out.push(id, item(t));
  return out;
}

function invalidModels(v: ReadonlySet<string> | 'all' | undefined): string {
  return v === undefined ? '' : v === 'all' ? 'all' : JSON.stringify([...v].sort());
}
