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
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { RuleId } from '../diagnostics/catalog.js';
import type { Block } from '../parse/types.js';
import type { Program } from '../resolve/types.js';
import type { ProgramPart, Rule } from './rule.js';

/** One compile's view: the stored diagnostics of a rule whose parts are unchanged, and `set` after a run. */
export interface RuleMemoRun {
  get(rule: Rule): readonly Diagnostic[] | undefined;
  set(rule: Rule, diagnostics: readonly Diagnostic[]): void;
}

export class PersistentRuleMemos {
  private entries = new Map<RuleId, { key: string; diagnostics: readonly Diagnostic[] }>();
  private readonly heads = new WeakMap<Block, string>();
  private readonly versions = new Map<ProgramPart | 'config', { key: readonly unknown[]; n: number }>();
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
    };
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
        p === 'cardTable'
          ? sameTable(last.key, program.cards, (card) => card)
          : p === 'toolTable'
            ? sameTable(last.key, program.tools, (tool) => tool)
            : p === 'blockHeads' && sameTable(last.key, program.blocks, (block) => this.head(block));
      if (same) return last.n;
    }
    return this.version(p, this.partKey(program, p));
  }

  invalidate(): void {
    this.entries.clear();
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
