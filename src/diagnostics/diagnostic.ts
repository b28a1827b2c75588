import {
  CATALOG,
  formatRelated,
  formatRuleHint,
  formatRuleMessage,
  type HintRef,
  type MessageRef,
  type RelatedRef,
  type RuleId,
  type Severity,
} from './catalog.js';

/** 1-based line and column. */
export interface Position {
  line: number;
  column: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface RelatedInformation {
  file: string;
  range?: Range;
  message: string;
}

/** The public diagnostic shape (docs/cli.md#diagnostics). `file` is workspace-relative with `/` separators. */
export interface Diagnostic {
  code: string;
  rule: RuleId;
  severity: Severity;
  message: string;
  file?: string;
  range?: Range;
  hint?: string;
  related?: RelatedInformation[];
}

/** A related location as a phase reports it: a catalog label (RELATED) with its data. */
export type RelatedInput = { file: string; range?: Range } & RelatedRef;

/** Where a diagnostic points and what it relates to; the same for every rule. */
export interface DiagnosticPlace {
  /** Overrides the catalog's default severity (rules with a warn/error split, e.g. fan-out-cap). */
  severity?: Severity;
  file?: string;
  range?: Range;
  related?: RelatedInput[];
}

/**
 * What a rule reports: one of its catalog messages with exactly that template's
 * data, and optionally one of its catalog hints. The catalog supplies code,
 * severity and text.
 */
export type ReportInput<R extends RuleId> = R extends RuleId ? DiagnosticPlace & MessageRef<R> & { hint?: HintRef<R> } : never;

/** What a phase supplies: a report of a named rule. */
export type DiagnosticInput<R extends RuleId = RuleId> = R extends RuleId ? ReportInput<R> & { rule: R } : never;

/** Loosely typed view of an input, for code that handles every rule alike. */
interface AnyInput extends DiagnosticPlace {
  rule: RuleId;
  message: string;
  data?: Readonly<Record<string, unknown>>;
  hint?: { id: string; data?: Readonly<Record<string, unknown>> };
}

export function createDiagnostic<R extends RuleId>(typed: DiagnosticInput<R>): Diagnostic {
  const input = typed as AnyInput;
  const entry = CATALOG[input.rule];
  const d: Diagnostic = {
    code: entry.code,
    rule: input.rule,
    severity: input.severity ?? entry.severity,
    message: formatRuleMessage(input.rule, input.message, input.data),
  };
  if (input.file !== undefined) d.file = input.file;
  if (input.range !== undefined) d.range = input.range;
  if (input.hint !== undefined) d.hint = formatRuleHint(input.rule, input.hint.id, input.hint.data);
  if (input.related !== undefined && input.related.length > 0) {
    d.related = input.related.map((r) => (r.range ? { file: r.file, range: r.range, message: formatRelated(r) } : { file: r.file, message: formatRelated(r) }));
  }
  return d;
}

/** Collects diagnostics; phases push into one and never throw for user input. */
export class DiagnosticBag {
  readonly items: Diagnostic[] = [];

  add<R extends RuleId>(input: DiagnosticInput<R>): void {
    this.items.push(createDiagnostic(input));
  }

  push(...ds: Diagnostic[]): void {
    this.pushAll(ds);
  }

  /** Any number of diagnostics (a spread into push() overflows the stack past ~100k arguments). */
  pushAll(ds: readonly Diagnostic[]): void {
    for (const d of ds) this.items.push(d);
  }
}

/** Sort order of docs/cli.md#diagnostics: file, line, column, code (diagnostics without a file first). */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  const fa = a.file ?? '';
  const fb = b.file ?? '';
  if (fa !== fb) return fa < fb ? -1 : 1;
  const la = a.range?.start.line ?? 0;
  const lb = b.range?.start.line ?? 0;
  if (la !== lb) return la - lb;
  const ca = a.range?.start.column ?? 0;
  const cb = b.range?.start.column ?? 0;
  if (ca !== cb) return ca - cb;
  if (a.code !== b.code) return a.code < b.code ? -1 : 1;
  return a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
}

export function sortDiagnostics(ds: readonly Diagnostic[]): Diagnostic[] {
  return [...ds].sort(compareDiagnostics);
}

/** Drop exact duplicates (same code, file, range, message), keeping the first. */
export function dedupeDiagnostics(ds: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const d of ds) {
    const key = JSON.stringify([d.code, d.file, d.range, d.message]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}

export function countBySeverity(ds: readonly Diagnostic[]): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const d of ds) {
    if (d.severity === 'error') errors++;
    else warnings++;
  }
  return { errors, warnings };
}
