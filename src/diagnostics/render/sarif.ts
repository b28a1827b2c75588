/**
 * SARIF 2.1.0, shaped for GitHub code scanning: one run, every catalog rule in
 * tool.driver.rules, one result per diagnostic. Invariants: deterministic (no
 * timestamps, no absolute paths, sorted results); every result has a location
 * (GitHub rejects the whole file otherwise: workspace-level diagnostics are
 * anchored at agentc.config.ts); `partialFingerprints` depend on the rule, file and
 * message — not on line numbers — so a finding keeps its identity when lines move.
 */
import { createHash } from 'node:crypto';
import type * as Sarif from 'sarif';
import { CATALOG, RULE_IDS, ruleTemplates, type RuleId } from '../catalog.js';
import { ruleDocUrl } from '../docs-url.js';
import type { Diagnostic, Range } from '../diagnostic.js';
import { displayPath, sorted, type RenderOptions } from './common.js';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
export const AGENTC_INFORMATION_URI = 'https://agentc.dev';
export const SRCROOT = '%SRCROOT%';
/** Where diagnostics that belong to no file are anchored. */
export const WORKSPACE_ANCHOR = 'agentc.config.ts';
export const FINGERPRINT_KEY = 'agentc/v1';

/** A rule as agentc writes it (the SARIF types come from `@types/sarif`). */
export type SarifRule = Sarif.ReportingDescriptor;
export type SarifPhysicalLocation = Sarif.PhysicalLocation;
/** A result as agentc writes it: always located, levelled and fingerprinted. */
export type SarifResult = Sarif.Result & Required<Pick<Sarif.Result, 'ruleId' | 'ruleIndex' | 'level' | 'locations' | 'partialFingerprints'>>;
/** The log as agentc writes it: exactly one run, with its results. */
export type SarifLog = Sarif.Log & { runs: [Sarif.Run & { results: SarifResult[] }] };

/** Rules ordered by code, so existing rules keep their relative order as rules are added. */
export function sarifRuleIds(): RuleId[] {
  return [...RULE_IDS].sort((a, b) => (CATALOG[a].code < CATALOG[b].code ? -1 : CATALOG[a].code > CATALOG[b].code ? 1 : 0));
}

export function sarifRules(): SarifRule[] {
  return sarifRuleIds().map((id) => {
    const entry = CATALOG[id];
    const name = pascalCase(id);
    return {
      id,
      // SARIF1001: a name that only differs from the id in case must be omitted.
      ...(name.toLowerCase() === id.toLowerCase() ? {} : { name }),
      shortDescription: { text: entry.summary },
      fullDescription: { text: `${entry.code} ${id}: ${entry.summary}` },
      helpUri: ruleDocUrl(id),
      messageStrings: messageStrings(id),
      ...help(id),
      defaultConfiguration: { level: entry.severity },
      properties: { code: entry.code, group: entry.group, tags: ['agentc', entry.group] },
    };
  });
}

export function sarifLog(diagnostics: readonly Diagnostic[], opts: Pick<RenderOptions, 'cwd' | 'root' | 'toolVersion'>): SarifLog {
  const ruleIndex = new Map<RuleId, number>(sarifRuleIds().map((id, i) => [id, i]));
  const seen = new Map<string, number>();
  const results = sorted(diagnostics).map((d): SarifResult => {
    const file = d.file ?? WORKSPACE_ANCHOR;
    const text = d.hint === undefined ? d.message : `${d.message}\n${d.hint}`;
    const base = createHash('sha256')
      .update(JSON.stringify([d.rule, file, d.message]))
      .digest('hex')
      .slice(0, 32);
    const occurrence = (seen.get(base) ?? 0) + 1;
    seen.set(base, occurrence);
    const result: SarifResult = {
      ruleId: d.rule,
      ruleIndex: ruleIndex.get(d.rule) ?? -1,
      level: d.severity,
      message: { text },
      locations: [{ physicalLocation: physical(file, d.file === undefined ? undefined : d.range, opts) }],
      partialFingerprints: { [FINGERPRINT_KEY]: `${base}:${occurrence}` },
    };
    if (d.related !== undefined && d.related.length > 0) {
      result.relatedLocations = d.related.map((r, i) => ({
        id: i + 1,
        physicalLocation: physical(r.file, r.range, opts),
        message: { text: r.message },
      }));
    }
    return result;
  });
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'agentc',
            version: opts.toolVersion,
            semanticVersion: opts.toolVersion,
            informationUri: AGENTC_INFORMATION_URI,
            rules: sarifRules(),
          },
        },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}

export function renderSarif(diagnostics: readonly Diagnostic[], opts: Pick<RenderOptions, 'cwd' | 'root' | 'toolVersion'>): string {
  return JSON.stringify(sarifLog(diagnostics, opts), null, 2) + '\n';
}

function physical(file: string, range: Range | undefined, opts: Pick<RenderOptions, 'cwd' | 'root'>): SarifPhysicalLocation {
  const loc: SarifPhysicalLocation = { artifactLocation: { uri: toUri(displayPath(file, opts)), uriBaseId: SRCROOT } };
  if (range !== undefined) {
    const startLine = Math.max(1, range.start.line);
    const startColumn = Math.max(1, range.start.column);
    let endLine = Math.max(1, range.end.line);
    let endColumn = Math.max(1, range.end.column);
    // SARIF requires the end not to precede the start.
    if (endLine < startLine || (endLine === startLine && endColumn < startColumn)) {
      endLine = startLine;
      endColumn = startColumn;
    }
    loc.region = { startLine, startColumn, endLine, endColumn };
  }
  return loc;
}

/** A relative URI reference: each path segment percent-encoded. */
function toUri(path: string): string {
  return path
    .split('/')
    .map((seg) => (seg === '..' || seg === '.' ? seg : encodeURIComponent(seg)))
    .join('/');
}

function pascalCase(id: string): string {
  return id
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

function messageStrings(id: RuleId): Record<string, { text: string }> {
  const t = ruleTemplates(id);
  const out: Record<string, { text: string }> = {};
  for (const [k, v] of Object.entries(t.messages)) out[k] = { text: v };
  return out;
}

function help(id: RuleId): { help?: { text: string } } {
  const hints = Object.values(ruleTemplates(id).hints);
  return hints.length === 0 ? {} : { help: { text: hints.join('\n') } };
}
