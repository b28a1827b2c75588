/**
 * TypeScript names for generated code: tool names → `PascalCaseArgs` interface
 * names, unique within one generated module and clear of the module's own
 * exports. Deterministic: names are assigned in sorted order of the input.
 */
import { compareCodeUnits } from '../bundle/canonical-json.js';

/** Names bundle.ts exports itself; a generated interface name never takes one. */
export const RESERVED_TYPE_NAMES = new Set([
  'AgentId',
  'AgentCommon',
  'AgentStatusEvents',
  'AgentToolNames',
  'AnthropicToolOf',
  'Bundle',
  'BundleAgents',
  'BundlePrefix',
  'DeepMutable',
  'DeepReadonly',
  'Envelope',
  'FlagName',
  'JsonSchemaObject',
  'NeutralToolOf',
  'OpenAIToolOf',
  'ReadonlyAgents',
  'StatusEvent',
  'TemplateNode',
  'ToolArgsByName',
  'ToolContext',
  'ToolHandlers',
  'ToolName',
  'ToolResult',
]);

export function pascalCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  const joined = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
  if (joined === '') return 'Tool';
  return /^[0-9]/.test(joined) ? `T${joined}` : joined;
}

/** Hands out unique type names: `base`, then `base2`, `base3`… never a reserved name. */
export function nameAllocator(): (base: string) => string {
  const taken = new Set(RESERVED_TYPE_NAMES);
  return (base) => {
    let candidate = base;
    for (let i = 2; taken.has(candidate); i++) candidate = `${base}${i}`;
    taken.add(candidate);
    return candidate;
  };
}

/** `get_user_points` → `GetUserPointsArgs` (before de-duplication). */
export function argsTypeBase(toolName: string): string {
  return `${pascalCase(toolName)}Args`;
}

/**
 * A string union type of `values` (sorted, unique), or `never`, to follow `=` or
 * `:` directly: it starts with a space, or with a newline when it spans lines.
 */
export function stringUnion(values: Iterable<string>, indent = '  '): string {
  const sorted = [...new Set(values)].sort(compareCodeUnits);
  if (sorted.length === 0) return ' never';
  if (sorted.length <= 3) return ` ${sorted.map((v) => JSON.stringify(v)).join(' | ')}`;
  return `\n${sorted.map((v) => `${indent}| ${JSON.stringify(v)}`).join('\n')}`;
}
