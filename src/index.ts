export { defineConfig, type AgentcConfig } from './config/define-config.js';
export type * from './bundle/types.js';
export type { Diagnostic, Range, Position, RelatedInformation } from './diagnostics/diagnostic.js';
export type { ModelEntry, RuleSetting } from './parse/types.js';
