/**
 * The whole pipeline on one screen: load → parse → resolve → check (→ emit).
 * Each phase reads only earlier phases' output and returns diagnostics instead
 * of throwing; a thrown error here is an agentc bug.
 */
import type { Bundle } from './bundle/types.js';
import type { Diagnostic } from './diagnostics/diagnostic.js';
import type { SourceFile } from './load/source.js';
import type { Program } from './resolve/types.js';

export interface CompileOptions {
  /** Absolute workspace root. */
  root: string;
  /** Also create the bundle (only when there are no errors). */
  bundle?: boolean;
}

export interface CompileResult {
  /** Sorted, with severities from the config applied and 'off' rules removed. */
  diagnostics: Diagnostic[];
  /** Every file read, by workspace-relative path (for code frames). */
  files: Map<string, SourceFile>;
  program: Program | undefined;
  /** Present when requested and there is no error. */
  bundle: Bundle | undefined;
  /** True when the workspace itself could not be read (exit 2, not 1). */
  fatal: boolean;
}

export declare function compile(options: CompileOptions): Promise<CompileResult>;
