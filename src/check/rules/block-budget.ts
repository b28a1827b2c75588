import type { RelatedInput } from '../../diagnostics/diagnostic.js';
import type { Block } from '../../parse/types.js';
import { itemPass } from '../item-findings.js';
import type { Rule } from '../rule.js';
import { blockAt } from '../support.js';

/**
 * A rendered block stays within its max_tokens. Reported at the block's
 * max_tokens, once per block and distinct token count (naming the first card
 * in id order; every card with that count is related).
 */
export const blockBudget: Rule<'block-budget'> = {
  id: 'block-budget',
  needsConfig: true,
  run(program, report, items) {
    const over = new Map<string, { block: Block; tokens: number; max: number; card: string; related: RelatedInput[] }>();
    for (const { found } of items.findings(BY_AGENT)) {
      for (const f of found) {
        const key = `${f.block.file.path}\u0000${f.tokens}`;
        const entry = over.get(key);
        if (entry === undefined) over.set(key, { block: f.block, tokens: f.tokens, max: f.max, card: f.card, related: [f.related] });
        else entry.related.push(f.related);
      }
    }
    for (const { block, tokens, max, card, related } of over.values()) {
      report({
        file: block.file.path,
        range: blockAt(block, ['max_tokens']),
        message: 'overBudget',
        data: { block: block.data.id, tokens, card, max },
        hint: { id: 'shorten', data: { over: tokens - max, tokens } },
        related,
      });
    }
  },
};

/** One agent's over-budget block at one token count (once per block and count), and where the agent's card uses it. */
interface OverBudget {
  block: Block;
  tokens: number;
  max: number;
  card: string;
  related: RelatedInput;
}

/** The agent's over-budget blocks in cohort and prompt order (reads the agent and its card). */
const BY_AGENT = itemPass<'agent', OverBudget>('agent', (_program, agent, found) => {
  const card = agent.card;
  const seen = new Set<string>();
  for (const cohort of agent.cohorts) {
    for (const r of cohort.blocks) {
      const max = r.block.data.max_tokens;
      if (max === undefined || r.tokens <= max) continue;
      const key = `${r.block.file.path}\u0000${r.tokens}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const ref = agent.blocks.find((b) => b.block === r.block);
      found({
        block: r.block,
        tokens: r.tokens,
        max,
        card: card.data.id,
        related: {
          file: card.file.path,
          range: ref?.declaredAt ?? card.locate(['id']),
          ...(ref?.required
            ? { message: 'injectedInto' as const, data: { card: card.data.id } }
            : { message: 'usedBy' as const, data: { card: card.data.id } }),
        },
      });
    }
  }
});
