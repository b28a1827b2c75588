export { defineConfig, type AgentcConfig } from './config/define-config.js';
export type * from './bundle/types.js';
export type { Diagnostic, Range, Position, RelatedInformation } from './diagnostics/diagnostic.js';
export type { ModelEntry, RuleSetting } from './parse/types.js';
export type { CompileOptions, CompileResult, MemoryCompileOptions, ProgressSink } from './compile.js';

/**
 * Compiles a workspace: on disk (`{ root }`) or in memory (`{ files, config }`).
 * Loaded on first call, so a config importing `defineConfig` from this package does not load the compiler.
 */
export async function compile(
  options: import('./compile.js').CompileOptions | import('./compile.js').MemoryCompileOptions,
): Promise<import('./compile.js').CompileResult> {
  const { compile: run } = await import('./compile.js');
  return run(options);
}
