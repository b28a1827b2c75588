/**
 * The rule severities a workspace's config sets (`rules: { … }` in
 * agentc.config.*), for `agentc rules`. Empty when the directory has no config;
 * a config that does not load or validate yields `problem` and no settings.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatRuleMessage, type RuleId } from '../diagnostics/catalog.js';
import { DiagnosticBag } from '../diagnostics/diagnostic.js';
import { loadConfig } from '../load/config.js';
import { CONFIG_NAMES } from '../load/workspace.js';
import { parseConfig } from '../parse/config.js';
import type { RuleSetting } from '../parse/types.js';
import { loadValidators } from '../parse/validate.js';

export type RuleSettings = Partial<Record<RuleId, RuleSetting>>;

export async function workspaceRuleSettings(root: string): Promise<{ settings: RuleSettings; configPath?: string; problem?: string }> {
  const configPath = CONFIG_NAMES.find((name) => existsSync(join(root, name)));
  if (configPath === undefined) return { settings: {} };
  const [load] = await Promise.all([loadConfig(root, configPath), loadValidators()]);
  if (load.error) return { settings: {}, configPath, problem: formatRuleMessage('config-load', load.error.message, load.error.data) };
  const bag = new DiagnosticBag();
  const config = parseConfig(load.file, load.value, bag);
  const failed = bag.items.find((d) => d.severity === 'error');
  if (failed) return { settings: {}, configPath, problem: failed.message };
  return { settings: config.data.rules as RuleSettings, configPath };
}
