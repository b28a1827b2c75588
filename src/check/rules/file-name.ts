import { isWindowsReservedName, PORTABLE_NAME_MAX_BYTES, PROMPTS_DIR, promptFileName } from '../../bundle/file-names.js';
import type { Rule } from '../rule.js';
import { blockIdAt, cardAt, sortedBlocks, sortedCards, sortedTools, toolAt } from '../support.js';

/**
 * Every file named after an id is portable (see src/bundle/file-names.ts): a
 * card's, block's or tool's own file and each cohort's generated prompt file
 * are at most PORTABLE_NAME_MAX_BYTES long and never a Windows device name.
 * Reported before `build`, so it never fails half-way with ENAMETOOLONG.
 */
export const fileName: Rule = {
  id: 'file-name',
  run(program, report) {
    const reserved = (kind: string, id: string, file: string, output: string[]): string =>
      `${kind} id "${id}" is a name Windows reserves for a device: ${[file, ...output].join(' and ')} cannot be checked out on Windows.`;
    for (const card of sortedCards(program)) {
      const id = card.data.id;
      if (isWindowsReservedName(id)) {
        report({ file: card.file.path, range: cardAt(card, ['id']), data: { detail: reserved('Card', id, card.file.path, [`generated/${PROMPTS_DIR}/${promptFileName(id, '')}`]) }, hint: 'Rename the card (and its file).' });
      }
      const agent = program.agents.get(id);
      const longest = (agent?.cohorts ?? [])
        .map((c) => promptFileName(id, c.key))
        .reduce<string | undefined>((a, b) => (a === undefined || Buffer.byteLength(b) > Buffer.byteLength(a) ? b : a), undefined);
      if (longest !== undefined && Buffer.byteLength(longest) > PORTABLE_NAME_MAX_BYTES) {
        report({
          file: card.file.path,
          range: cardAt(card, ['id']),
          data: { detail: `Agent "${id}" needs the prompt file ${PROMPTS_DIR}/${longest}, whose name is ${Buffer.byteLength(longest)} bytes long; file names are limited to ${PORTABLE_NAME_MAX_BYTES} bytes.` },
          hint: `The name joins the agent id and the feature flags its blocks use (${agent!.flags.join(', ')}): shorten them, or use fewer flags in this agent's blocks.`,
        });
      }
    }
    for (const block of sortedBlocks(program)) {
      if (isWindowsReservedName(block.data.id)) report({ file: block.file.path, range: blockIdAt(block), data: { detail: reserved('Block', block.data.id, block.file.path, []) }, hint: 'Rename the block (and its file).' });
    }
    for (const tool of sortedTools(program)) {
      if (isWindowsReservedName(tool.data.name)) report({ file: tool.file.path, range: toolAt(tool, ['name']), data: { detail: reserved('Tool', tool.data.name, tool.file.path, []) }, hint: 'Rename the tool (and its file).' });
    }
  },
};
