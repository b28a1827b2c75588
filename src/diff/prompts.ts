/**
 * Compares an agent's prompt prefixes, cohort by cohort (a cohort is a set of
 * feature flags; key '' is the default cohort). Produces the per-cohort detail
 * (token delta, hash change = lost prompt cache, unified diff of the text) and
 * the prompt-level changes.
 *
 * Invariant: a cohort counts as changed exactly when its sha256 (or, should a
 * hash be missing, its text) differs; `cacheInvalidated` is true for every
 * changed, added or removed cohort.
 */
import { formatInt } from '../diagnostics/format-number.js';
import { makeChange } from './changes.js';
import { unifiedDiff } from './unified.js';
import type { BundleAgent, BundlePrefix } from '../bundle/types.js';
import type { Change, CohortDiff } from './types.js';

export interface PromptComparison {
  cohorts: CohortDiff[];
  changes: Change[];
}

/** Display name of a cohort key. */
export function cohortName(key: string): string {
  return key === '' ? 'default' : key;
}

/** The generated prompt file of a cohort (docs/cli.md#agentc-build), used as the diff's file name. */
export function promptFile(agent: string, key: string): string {
  return key === '' ? `prompts/${agent}.md` : `prompts/${agent}@${key}.md`;
}

/** `before` or `after` may be absent (agent added or removed). */
export function comparePrompts(id: string, before: BundleAgent | undefined, after: BundleAgent | undefined): PromptComparison {
  const mapBefore = byKey(before?.prefixes ?? []);
  const mapAfter = byKey(after?.prefixes ?? []);
  const keys = [...new Set([...mapBefore.keys(), ...mapAfter.keys()])].sort();
  // A flagged cohort that exists on one side only is compared with the default
  // cohort on the other side: that is the prompt those users get there. (For a new
  // agent, with its new default cohort: what the flag adds.)
  const defaultBefore = mapBefore.get('') ?? (before === undefined ? mapAfter.get('') : undefined);
  const defaultAfter = mapAfter.get('');
  const cohorts = keys.map((key) => {
    const b = mapBefore.get(key);
    const a = mapAfter.get(key);
    if (key !== '' && b === undefined && defaultBefore !== undefined) return compareCohort(id, key, b, a, { key: '', prefix: defaultBefore });
    if (key !== '' && a === undefined && after !== undefined && defaultAfter !== undefined)
      return compareCohort(id, key, b, a, { key: '', prefix: defaultAfter });
    return compareCohort(id, key, b, a, undefined);
  });
  const changes: Change[] = [];
  if (before !== undefined && after !== undefined) {
    const budget = after.policy.token_budget?.input ?? before.policy.token_budget?.input;
    changes.push(...cohortChanges(id, cohorts, budget));
    changes.push(...blockChanges(id, before, after));
  }
  return { cohorts, changes };
}

/** `base` stands in for the side where the cohort is missing. */
function compareCohort(
  agent: string,
  key: string,
  b: BundlePrefix | undefined,
  a: BundlePrefix | undefined,
  base: { key: string; prefix: BundlePrefix } | undefined,
): CohortDiff {
  const changed = b === undefined || a === undefined || b.sha256 !== a.sha256 || b.text !== a.text;
  const status = b === undefined ? 'added' : a === undefined ? 'removed' : changed ? 'changed' : 'unchanged';
  const from = b ?? (a !== undefined ? base?.prefix : undefined);
  const to = a ?? (b !== undefined ? base?.prefix : undefined);
  const fromKey = b !== undefined ? key : base?.key;
  const toKey = a !== undefined ? key : base?.key;
  const diff: CohortDiff = {
    key,
    status,
    tokenDelta: (to?.tokens ?? 0) - (from?.tokens ?? 0),
    cacheInvalidated: changed,
    changedBlocks: changed ? changedBlocks(from, to) : [],
    unifiedDiff: changed
      ? unifiedDiff(from?.text ?? '', to?.text ?? '', {
          fromFile: fromKey === undefined || from === undefined ? null : promptFile(agent, fromKey),
          toFile: toKey === undefined || to === undefined ? null : promptFile(agent, toKey),
        })
      : '',
  };
  if (base !== undefined && status !== 'changed' && status !== 'unchanged') diff.comparedWith = base.key;
  if (b !== undefined) {
    diff.tokensBefore = b.tokens;
    diff.sha256Before = b.sha256;
  }
  if (a !== undefined) {
    diff.tokensAfter = a.tokens;
    diff.sha256After = a.sha256;
  }
  return diff;
}

/** Blocks whose text changed, then blocks added, then blocks removed (reordering is reported separately). */
function changedBlocks(b: BundlePrefix | undefined, a: BundlePrefix | undefined): string[] {
  const textsBefore = blockTexts(b);
  const textsAfter = blockTexts(a);
  const out: string[] = [];
  for (const [id, text] of textsAfter) if (textsBefore.has(id) && textsBefore.get(id) !== text) out.push(id);
  for (const id of textsAfter.keys()) if (!textsBefore.has(id)) out.push(id);
  for (const id of textsBefore.keys()) if (!textsAfter.has(id)) out.push(id);
  return out;
}

function blockTexts(p: BundlePrefix | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const block of p?.blocks ?? []) map.set(block.id, p!.text.slice(block.start, block.start + block.length));
  return map;
}

function cohortChanges(agent: string, cohorts: CohortDiff[], budget: number | undefined): Change[] {
  const changes: Change[] = [];
  const changed = cohorts.filter((c) => c.status === 'changed');
  if (changed.length > 0) {
    const lost = cohorts.filter((c) => c.cacheInvalidated).length;
    const sameDelta = changed.every((c) => c.tokenDelta === changed[0]!.tokenDelta);
    const described = sameDelta
      ? `${changed.map((c) => cohortName(c.key)).join(', ')}: ${describeDelta(changed[0]!.tokenDelta, budget, changed.length > 1)}`
      : changed.map((c) => `${cohortName(c.key)}: ${describeDelta(c.tokenDelta, budget)}`).join(', ');
    const before: Record<string, number> = {};
    const after: Record<string, number> = {};
    for (const c of changed) {
      before[cohortName(c.key)] = c.tokensBefore!;
      after[cohortName(c.key)] = c.tokensAfter!;
    }
    changes.push(
      makeChange(
        'prompt-changed',
        agent,
        'prompt',
        {
          cohorts: `${changed.length === 1 ? 'cohort' : 'cohorts'} ${described}`,
          cacheCount: `${lost} ${lost === 1 ? 'cohort' : 'cohorts'}`,
        },
        before,
        after,
      ),
    );
  }
  for (const c of cohorts) {
    if (c.status === 'added') {
      changes.push(
        makeChange('cohort-added', agent, `prompt[${c.key}]`, { cohort: cohortName(c.key), tokens: c.tokensAfter ?? 0, delta: signed(c.tokenDelta) }),
      );
    } else if (c.status === 'removed') {
      changes.push(makeChange('cohort-removed', agent, `prompt[${c.key}]`, { cohort: cohortName(c.key), delta: signed(c.tokenDelta) }));
    }
  }
  return changes;
}

/** "+12 tokens (+0.15% of the 8,000-token input budget)"; `each` → "+12 tokens each (…)". */
export function describeDelta(delta: number, budget: number | undefined, each = false): string {
  const tokens = `${signedTokens(delta)}${each ? ' each' : ''}`;
  if (budget === undefined || budget <= 0) return tokens;
  return `${tokens} (${signedPercent(delta / budget)} of the ${formatInt(budget)}-token input budget)`;
}

/** "+1 token", "−12 tokens", "±0 tokens" */
export function signedTokens(n: number): string {
  return `${signed(n)} ${Math.abs(n) === 1 ? 'token' : 'tokens'}`;
}

export function signed(n: number): string {
  return n > 0 ? `+${formatInt(n)}` : n < 0 ? `−${formatInt(-n)}` : '±0';
}

/** Share as a signed percentage with up to 2 decimals: "+0.15%". */
export function signedPercent(share: number): string {
  const pct = Math.round(share * 10000) / 100;
  return pct > 0 ? `+${pct}%` : pct < 0 ? `−${-pct}%` : '±0%';
}

function blockChanges(agent: string, before: BundleAgent, after: BundleAgent): Change[] {
  const changes: Change[] = [];
  const idsBefore = blockCohorts(before);
  const idsAfter = blockCohorts(after);
  for (const [id, keys] of idsAfter) {
    if (!idsBefore.has(id)) changes.push(makeChange('block-added', agent, `prompt.blocks.${id}`, { block: id, where: where(keys) }));
  }
  for (const [id, keys] of idsBefore) {
    if (!idsAfter.has(id)) changes.push(makeChange('block-removed', agent, `prompt.blocks.${id}`, { block: id, where: where(keys) }));
  }
  // Reordering: the default cohort's block ids, same multiset in a different order.
  const orderBefore = (defaultPrefix(before)?.blocks ?? []).map((b) => b.id);
  const orderAfter = (defaultPrefix(after)?.blocks ?? []).map((b) => b.id);
  const sameSet = [...orderBefore].sort().join('\n') === [...orderAfter].sort().join('\n');
  if (sameSet && orderBefore.join('\n') !== orderAfter.join('\n')) {
    changes.push(
      makeChange('blocks-reordered', agent, 'prompt.blocks', { before: orderBefore.join(', '), after: orderAfter.join(', ') }, orderBefore, orderAfter),
    );
  }
  return changes;
}

/** Block id → keys of the cohorts it appears in, in first-seen order. */
function blockCohorts(agent: BundleAgent): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const prefix of agent.prefixes) {
    for (const block of prefix.blocks) {
      const keys = map.get(block.id) ?? [];
      if (!keys.includes(prefix.key)) keys.push(prefix.key);
      map.set(block.id, keys);
    }
  }
  return map;
}

function where(keys: string[]): string {
  if (keys.includes('')) return '';
  return ` (only with flags: ${keys.map(cohortName).join(', ')})`;
}

export function defaultPrefix(agent: BundleAgent): BundlePrefix | undefined {
  return agent.prefixes.find((p) => p.key === '') ?? agent.prefixes[0];
}

function byKey(prefixes: BundlePrefix[]): Map<string, BundlePrefix> {
  return new Map(prefixes.map((p) => [p.key, p]));
}
