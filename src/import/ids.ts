/**
 * Deterministic, collision-free id normalization. Invariant: the same list of
 * source names always yields the same ids; two different source names never get
 * the same id; a name that is already valid keeps its spelling.
 */
export interface IdRule {
  /** The pattern ids must match. */
  valid: RegExp;
  maxLength: number;
  /** Characters kept (after lower-casing when `lower`). */
  keep: RegExp;
  lower: boolean;
  /** Prefix when the first character is not allowed. */
  lead: string;
  sep: string;
}

/** Card ids: ^[a-z][a-z0-9_]{0,47}$. */
export const AGENT_ID: IdRule = { valid: /^[a-z][a-z0-9_]{0,47}$/, maxLength: 48, keep: /[a-z0-9]/, lower: true, lead: 'agent_', sep: '_' };
/** Tool contract names: ^[a-zA-Z0-9_-]{1,64}$ (kept in snake case for readability). */
export const TOOL_ID: IdRule = { valid: /^[a-zA-Z0-9_-]{1,64}$/, maxLength: 64, keep: /[a-zA-Z0-9-]/, lower: false, lead: '', sep: '_' };

export class IdMap {
  private readonly bySource = new Map<string, string>();
  private readonly taken = new Set<string>();

  constructor(
    private readonly rule: IdRule,
    reserved: Iterable<string> = [],
  ) {
    for (const r of reserved) this.taken.add(r);
  }

  /** The id for `source`, assigned on first request (call in a deterministic order). */
  id(source: string): string {
    const known = this.bySource.get(source);
    if (known !== undefined) return known;
    const base = normalize(source, this.rule);
    let id = base;
    for (let n = 2; this.taken.has(id); n++) {
      const suffix = `${this.rule.sep}${n}`;
      id = base.slice(0, this.rule.maxLength - suffix.length) + suffix;
    }
    this.taken.add(id);
    this.bySource.set(source, id);
    return id;
  }

  /** Source names whose id differs from their spelling, in assignment order. */
  renamed(): { source: string; id: string }[] {
    return [...this.bySource].filter(([s, id]) => s !== id).map(([source, id]) => ({ source, id }));
  }
}

export function normalize(source: string, rule: IdRule): string {
  if (rule.valid.test(source)) return source;
  // camelCase → snake_case before lower-casing, so "HistoryTutor" reads as history_tutor.
  // Accents dropped (é → e) before anything else, so ids stay readable.
  const plain = source.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const spaced = plain.replace(/([a-z0-9])([A-Z])/g, `$1${rule.sep}$2`);
  const text = rule.lower ? spaced.toLowerCase() : spaced;
  let out = '';
  for (const ch of text) out += rule.keep.test(ch) ? ch : rule.sep;
  out = out
    .split(rule.sep)
    .filter((p) => p !== '')
    .join(rule.sep);
  if (out === '') out = 'unnamed';
  if (rule.lower && !/^[a-z]/.test(out)) out = rule.lead + out;
  out = out.slice(0, rule.maxLength).replace(new RegExp(`${rule.sep}+$`), '');
  return out;
}
