/**
 * A copy of the repo's own workspace in a temp dir whose config imports a
 * helper file (config-fields.ts), with the config written from a small model
 * so tests can edit it field by field.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp-dirs.js';

const repo = join(import.meta.dirname, '..', '..');
const baseConfig = readFileSync(join(repo, 'agentc.config.ts'), 'utf8');

export interface ConfigModel {
  /** dynamicContext.fields written in the config itself. */
  fields: string[];
  /** More fields, imported from config-fields.ts. */
  imported: string[];
  warnRatio: number;
  maxSubAgents: number;
  flags: string[];
  rules: Record<string, 'off' | 'warning' | 'error'>;
}

export const BASE_MODEL: ConfigModel = {
  fields: ['date', 'locale', 'location', 'user_id'],
  imported: [],
  warnRatio: 0.25,
  maxSubAgents: 9,
  flags: ['receipts_v2', 'offer_stacking'],
  rules: {},
};

/** The repo's config with the model's values; the suffix template reads only `date` (always a field). */
export function configText(m: ConfigModel): string {
  const replace = (text: string, from: string, to: string): string => {
    if (!text.includes(from)) throw new Error(`config fixture: "${from}" not found`);
    return text.replace(from, to);
  };
  let t = `import { extraFields } from './config-fields';\n${baseConfig}`;
  t = replace(t, 'promptWarnRatio: 0.25', `promptWarnRatio: ${m.warnRatio}`);
  t = replace(t, 'maxSubAgents: 9', `maxSubAgents: ${m.maxSubAgents}`);
  t = replace(t, "flags: ['receipts_v2', 'offer_stacking'],", `flags: ${JSON.stringify(m.flags)},\n  rules: ${JSON.stringify(m.rules)},`);
  t = replace(t, "fields: ['date', 'locale', 'location', 'user_id'],", `fields: [...${JSON.stringify(m.fields)}, ...extraFields],`);
  t = replace(
    t,
    "template: '<context>\\nDate: {{date}}\\nLocale: {{locale}}\\nLocation: {{location}}\\n</context>',",
    "template: '<context>\\nDate: {{date}}\\n</context>',",
  );
  return t;
}

export function fieldsText(imported: string[]): string {
  return `export const extraFields: string[] = ${JSON.stringify(imported)};\n`;
}

export function makeWorkspace(m: ConfigModel = BASE_MODEL): string {
  const dir = tempDir('agentc-cache-');
  for (const p of ['cards', 'blocks', 'schemas/tools']) cpSync(join(repo, p), join(dir, p), { recursive: true });
  writeConfig(dir, m);
  return dir;
}

export function writeConfig(dir: string, m: ConfigModel): void {
  writeFileSync(join(dir, 'agentc.config.ts'), configText(m));
  writeFileSync(join(dir, 'config-fields.ts'), fieldsText(m.imported));
}
