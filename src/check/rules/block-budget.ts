import type { Block, Card } from '../../parse/types.js';
import type { Rule } from '../rule.js';
import { blockAt, sortedCards } from '../support.js';

/**
 * A rendered block stays within its max_tokens. Reported at the block's
 * max_tokens, once per block and distinct token count (naming the first card
 * in id order; every card with that count is related).
 */
export const blockBudget: Rule<'block-budget'> = {
  id: 'block-budget',
  needsConfig: true,
  run(program, report) {
    const over = new Map<string, { block: Block; tokens: number; max: number; cards: Card[] }>();
    for (const card of sortedCards(program)) {
      const agent = program.agents.get(card.data.id);
      if (!agent) continue;
      for (const cohort of agent.cohorts) {
        for (const r of cohort.blocks) {
          const max = r.block.data.max_tokens;
          if (max === undefined || r.tokens <= max) continue;
          const key = `${r.block.file.path}\u0000${r.tokens}`;
          const entry = over.get(key) ?? { block: r.block, tokens: r.tokens, max, cards: [] };
          if (!entry.cards.includes(card)) entry.cards.push(card);
          over.set(key, entry);
        }
      }
    }
    for (const { block, tokens, max, cards } of over.values()) {
      report({
        file: block.file.path,
        range: blockAt(block, ['max_tokens']),
        message: 'overBudget',
        data: { block: block.data.id, tokens, card: cards[0]!.data.id, max },
        hint: { id: 'shorten', data: { over: tokens - max, tokens } },
        related: cards.map((card) => {
          const ref = program.agents.get(card.data.id)?.blocks.find((b) => b.block === block);
          return {
            file: card.file.path,
            range: ref?.declaredAt ?? card.locate(['id']),
            ...(ref?.required
              ? { message: 'injectedInto' as const, data: { card: card.data.id } }
              : { message: 'usedBy' as const, data: { card: card.data.id } }),
          };
        }),
      });
    }
  },
};
