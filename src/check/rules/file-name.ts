import { isWindowsReservedName, PORTABLE_NAME_MAX_BYTES, PROMPTS_DIR, promptFileName } from '../../bundle/file-names.js';
import type { Agent } from '../../resolve/types.js';
import type { ReportInput } from '../../diagnostics/diagnostic.js';
import { itemPass, reportFound } from '../item-findings.js';
import type { Report, Rule } from '../rule.js';
import { blockIdAt, cardAt, toolAt } from '../support.js';

/**
 * Every file named after an id is portable (see src/bundle/file-names.ts): a
 * card's, block's or tool's own file and each cohort's generated prompt file
 * are at most PORTABLE_NAME_MAX_BYTES long and never a Windows device name.
 * Reported before `build`, so it never fails half-way with ENAMETOOLONG.
 */
export const fileName: Rule<'file-name'> = {
  id: 'file-name',
  run(program, report, items) {
    reportFound(items.findings(BY_AGENT), report);
    reportFound(items.findings(BY_BLOCK), report);
    reportFound(items.findings(BY_TOOL), report);
  },
};

/** The agent's card file and prompt files (reads the agent, its card and the workspace layout). */
const BY_AGENT = itemPass<'agent', ReportInput<'file-name'>>('agent', (program, agent, report) => {
  const card = agent.card;
  const id = card.data.id;
  if (isWindowsReservedName(id)) {
    const files = [card.file.path, `${program.layout.generated}/${PROMPTS_DIR}/${promptFileName(id, '')}`].join(' and ');
    report({ file: card.file.path, range: cardAt(card, ['id']), message: 'reserved', data: { kind: 'Card', id, files }, hint: { id: 'renameCard' } });
  }
  checkPromptNames(agent, report);
});

/** The block's own file (reads the block only). */
const BY_BLOCK = itemPass<'block', ReportInput<'file-name'>>('block', (_program, block, report) => {
  const id = block.data.id;
  if (isWindowsReservedName(id))
    report({
      file: block.file.path,
      range: blockIdAt(block),
      message: 'reserved',
      data: { kind: 'Block', id, files: block.file.path },
      hint: { id: 'renameBlock' },
    });
});

/** The tool's own file (reads the tool only). */
const BY_TOOL = itemPass<'tool', ReportInput<'file-name'>>('tool', (_program, tool, report) => {
  const id = tool.data.name;
  if (isWindowsReservedName(id))
    report({
      file: tool.file.path,
      range: toolAt(tool, ['name']),
      message: 'reserved',
      data: { kind: 'Tool', id, files: tool.file.path },
      hint: { id: 'renameTool' },
    });
});

/** The agent's longest prompt file name fits (reads the agent only). */
function checkPromptNames(agent: Agent, report: Report<'file-name'>): void {
  const card = agent.card;
  const id = card.data.id;
  const longest = agent.cohorts
    .map((c) => promptFileName(id, c.key))
    .reduce<string | undefined>((a, b) => (a === undefined || Buffer.byteLength(b) > Buffer.byteLength(a) ? b : a), undefined);
  if (longest !== undefined && Buffer.byteLength(longest) > PORTABLE_NAME_MAX_BYTES) {
    report({
      file: card.file.path,
      range: cardAt(card, ['id']),
      message: 'tooLong',
      data: { agent: id, path: `${PROMPTS_DIR}/${longest}`, bytes: Buffer.byteLength(longest), max: PORTABLE_NAME_MAX_BYTES },
      hint: { id: 'shorten', data: { flags: agent.flags.join(', ') } },
    });
  }
}
