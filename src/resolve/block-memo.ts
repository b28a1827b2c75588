/**
 * What resolve derives from one block's text alone — never from the config or
 * the agent: the context roots its body reads and (for a body that reads
 * nothing) its render and token counts. (Rendering itself is the template
 * interpreter over the AST the parse phase built: nothing to compile or keep.)
 *
 * A compile finds this data through `BlockMemos`: a fresh one per run by
 * default; `CompileCache` (src/compile.ts) keeps it across compiles, keyed by
 * the block's path and the SHA-256 of its file's text, so a block whose file is
 * unchanged is not analysed, compiled, rendered or counted again.
 */
import { createHash } from 'node:crypto';
import type { Range } from '../diagnostics/diagnostic.js';
import type { Block } from '../parse/types.js';
import type { Encoding } from '../tokenize/index.js';

/** A render of a body that reads nothing from the context (RenderError without its Block). */
export type StableRender = { text: string } | { message: string; range: Range | undefined; kind: 'failure' | 'size' };

export interface BlockDerived {
  /** Sorted context roots the body reads (see contextDependencies). */
  dependencies?: string[];
  /** Only for bodies with no dependencies. */
  stableRender?: StableRender;
  /** Tokens of stableRender's text + separator, by encoding. */
  stableCounts?: Map<Encoding, number>;
}

export interface BlockMemos {
  of(block: Block): BlockDerived;
}

/** Derived data for one run only (a compile without a CompileCache, tests). */
export function runBlockMemos(): BlockMemos {
  const byBlock = new Map<Block, BlockDerived>();
  return {
    of(block) {
      let d = byBlock.get(block);
      if (!d) byBlock.set(block, (d = {}));
      return d;
    },
  };
}

/**
 * Derived data kept across compiles: by block path, valid while the SHA-256 of
 * the file's text is unchanged. `retain` drops the paths a compile no longer
 * has (deleted or renamed files), so the store never outgrows the workspace.
 */
export class PersistentBlockMemos {
  private readonly entries = new Map<string, { hash: string; derived: BlockDerived }>();

  /** This run's view: hashes each block's text once per run. */
  forRun(): BlockMemos {
    const seen = new Map<Block, BlockDerived>();
    return {
      of: (block) => {
        let d = seen.get(block);
        if (d) return d;
        const hash = createHash('sha256').update(block.file.text, 'utf8').digest('hex');
        const hit = this.entries.get(block.file.path);
        d = hit && hit.hash === hash ? hit.derived : {};
        if (d !== hit?.derived) this.entries.set(block.file.path, { hash, derived: d });
        seen.set(block, d);
        return d;
      },
    };
  }

  /** Forgets every path not in `paths` (after a compile: the workspace's current block files). */
  retain(paths: ReadonlySet<string>): void {
    for (const p of this.entries.keys()) if (!paths.has(p)) this.entries.delete(p);
  }

  /** Forgets the given paths, or everything. */
  invalidate(paths?: readonly string[]): void {
    if (!paths) this.entries.clear();
    else for (const p of paths) this.entries.delete(p);
  }

  get size(): number {
    return this.entries.size;
  }
}
