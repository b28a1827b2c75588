/** Format → importer. The OpenAI Agents importer (and ts-morph) is loaded only when used. */
import { importAdk } from './formats/adk.js';
import { importCagent } from './formats/cagent.js';
import { importClaudeCode } from './formats/claude-code.js';
import { importFastAgent } from './formats/fast-agent.js';
import type { ImportFormat, ImportSource } from './types.js';

export async function readSource(format: ImportFormat, cwd: string, paths: readonly string[]): Promise<ImportSource> {
  switch (format) {
    case 'claude-code':
      return importClaudeCode(cwd, paths);
    case 'cagent':
      return importCagent(cwd, paths);
    case 'adk':
      return importAdk(cwd, paths);
    case 'fast-agent':
      return importFastAgent(cwd, paths);
    case 'openai-agents-ts': {
      const { importOpenAIAgentsTs } = await import('./formats/openai-agents-ts.js');
      return importOpenAIAgentsTs(cwd, paths);
    }
  }
}

/** The model a card gets when its source names none. */
export const DEFAULT_MODEL: Record<ImportFormat, string> = {
  'claude-code': 'sonnet',
  cagent: 'openai/gpt-4.1-mini',
  adk: 'gemini-2.5-flash',
  'fast-agent': 'gpt-4.1-mini',
  'openai-agents-ts': 'gpt-4.1',
};
