import { closest, didYouMeanHint } from '../../diagnostics/did-you-mean.js';
import type { Range } from '../../diagnostics/diagnostic.js';
import type { Rule } from '../rule.js';
import { mismatchedStems, sortedCards, sortedTools } from '../support.js';

/** Every tools and policy.tool_whitelist entry of a card names a tool contract. */
export const unknownTool: Rule<'unknown-tool'> = {
  id: 'unknown-tool',
  reads: ['cardTable', 'toolTable', 'unparsed'],
  run(program, report) {
    const names = sortedTools(program).map((t) => t.data.name);
    const mismatched = mismatchedStems(program).tools;
    for (const card of sortedCards(program)) {
      const entries: { name: string; path: (string | number)[] }[] = [
        ...card.data.tools.map((name, i) => ({ name, path: ['tools', i] })),
        ...(card.data.policy.tool_whitelist ?? []).map((name, i) => ({ name, path: ['policy', 'tool_whitelist', i] })),
      ];
      for (const { name, path } of entries) {
        if (program.tools.has(name) || program.unparsed.tools.has(name) || mismatched.has(name)) continue;
        const range: Range = card.locate(path);
        const match = closest(name, names);
        const tool = match === undefined ? undefined : program.tools.get(match);
        report({
          file: card.file.path,
          range,
          message: 'unknown',
          data: { card: card.data.id, name },
          hint: didYouMeanHint(name, names) ?? (/^[a-zA-Z0-9_-]{1,64}$/.test(name) ? { id: 'addContract', data: { name } } : { id: 'notAName' }),
          related: tool ? [{ file: tool.file.path, range: tool.locate(['name']), message: 'declaredHere' }] : [],
        });
      }
    }
  },
};
