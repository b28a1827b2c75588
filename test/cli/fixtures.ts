/**
 * Workspaces for the CLI tests, all copies of the example workspace:
 *   failing  — 2 errors in 2 kinds of file (a tool typo in a card, an unknown
 *              template variable in a block) and warnings (an unused block; the tool the typo left unused);
 *   warnings — only the unused-block warning.
 */
import { copyExample, edit, write } from '../robustness/workspace.js';

export const UNUSED_BLOCK = '---\ncategory: context\nowner: platform\nreusable: true\n---\nNotes that no card uses yet.\n';

export async function warningsWorkspace(): Promise<string> {
  const dir = await copyExample('cli-warn');
  await write(dir, 'blocks/shared/context-unused.md', UNUSED_BLOCK);
  return dir;
}

export async function failingWorkspace(): Promise<string> {
  const dir = await warningsWorkspace();
  await edit(dir, 'cards/rewards.yaml', (t) => t.replace('tools: [get_user_points,', 'tools: [get_user_pionts,'));
  await edit(dir, 'blocks/rewards/persona-rewards.md', (t) => t.replace('`{{agent.id}}`', '`{{agent.idd}}`'));
  return dir;
}
