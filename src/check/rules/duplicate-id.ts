import type { Range } from '../../diagnostics/diagnostic.js';
import { sourceDir } from '../../load/layout.js';
import type { Program } from '../../resolve/types.js';
import { stemOf } from '../../parse/util.js';
import type { Rule } from '../rule.js';
import { blockIdAt } from '../support.js';

const KIND = { card: 'Card', block: 'Block', tool: 'Tool' } as const;

/** No two cards, two blocks or two tools share an id (every duplicate after the first is reported). */
export const duplicateId: Rule<'duplicate-id'> = {
  id: 'duplicate-id',
  run(program, report) {
    for (const d of program.duplicates) {
      // A card or tool whose id differs from its file name is reported by id-mismatch; the clash is its consequence.
      if (d.kind !== 'block' && (stemOf(d.file.path) !== d.id || stemOf(d.first.path) !== d.id)) continue;
      const range = firstRange(program, d.kind, d.id, d.first.path);
      report({
        file: d.file.path,
        range: d.range,
        message: 'duplicate',
        data: { kind: KIND[d.kind], id: d.id },
        hint: { id: 'rename', data: { dir: `${sourceDir(d.kind, program.layout).dir}/` } },
        related: [{ file: d.first.path, ...(range ? { range } : {}), message: 'firstDeclaredHere' }],
      });
    }
  },
};

/** Where the winning declaration names its id (when it is the file that won). */
function firstRange(program: Program, kind: 'card' | 'block' | 'tool', id: string, path: string): Range | undefined {
  if (kind === 'card') {
    const c = program.cards.get(id);
    return c?.file.path === path ? c.locate(['id']) : undefined;
  }
  if (kind === 'tool') {
    const t = program.tools.get(id);
    return t?.file.path === path ? t.locate(['name']) : undefined;
  }
  const b = program.blocks.get(id);
  return b?.file.path === path ? blockIdAt(b) : undefined;
}
