/**
 * `--format json`: `{ formatVersion: "1", summary, changes, agents }` — the
 * BundleDiff as data, keys sorted, LF, trailing newline; nothing else on stdout.
 */
import { canonicalJson } from './json.js';
import type { RenderOptions } from './render-common.js';
import type { BundleDiff } from './types.js';

export const DIFF_FORMAT_VERSION = '1';

export function renderJson(diff: BundleDiff, options: RenderOptions = {}): string {
  const summary: Record<string, unknown> = { ...diff.summary };
  if (options.beforeLabel !== undefined) summary.beforeLabel = options.beforeLabel;
  if (options.afterLabel !== undefined) summary.afterLabel = options.afterLabel;
  const doc = { formatVersion: DIFF_FORMAT_VERSION, summary, changes: diff.changes, agents: diff.agents };
  return `${JSON.stringify(JSON.parse(canonicalJson(doc)), null, 2)}\n`;
}
