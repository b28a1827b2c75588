/** A hand-made set of diagnostics over in-memory files, covering every code-frame case. */
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { fakeDiagnostic } from './fake-diagnostic.js';
import { normalizeNewlines, SourceFile } from '../../src/load/source.js';

const rewardsCrlf = [
  '# yaml-language-server: $schema=../schemas/agent-card.schema.json',
  'id: rewards',
  'description: >-',
  '  Points balance, redemption history, and what a redemption would cost.',
  'role: native',
  'owner: rewards',
  'model: gpt-5.4-mini-low',
  'fallback_model: gpt-4.1-mini',
  'tools: [get_user_pionts, get_redemption_history]',
  'prompt_blocks: [persona-rewards]',
  '',
].join('\r\n');

const routing = [
  '---',
  'category: instructions',
  'owner: platform',
  '---',
  'Route each turn:',
  '\t- call at most\t{{dispatch.fan_out_capp}} tools',
  'Done.',
  '',
].join('\n');

const longLine =
  'Keep answers short. ' +
  'This sentence pads the line so that it is much wider than any terminal would show in one go, '.repeat(2) +
  'as of 2025-01-31T10:00:00Z the program changed; ' +
  'and more text follows the literal so that the line is trimmed on both sides of the span.';
const long = ['---', 'category: context', 'owner: rewards', '---', longLine, ''].join('\n');

const support = [
  'id: support',
  'description: >-',
  '  Help.',
  '  Everything.',
  '  Anything at all.',
  '  Really.',
  'role: native',
  'owner: support',
  'model: gpt-4.1-mini',
  '',
].join('\n');

const wide = ['id: 商店', 'owner: 🛒 shop', 'model: gpt-x', ''].join('\n');

export const files = new Map<string, SourceFile>(
  [
    new SourceFile('cards/rewards.yaml', normalizeNewlines(rewardsCrlf)),
    new SourceFile('blocks/routing.md', routing),
    new SourceFile('blocks/long.md', long),
    new SourceFile('cards/support.yaml', support),
    new SourceFile('cards/wide.yaml', wide),
  ].map((f) => [f.path, f]),
);

const longStart = longLine.indexOf('2025-01-31T10:00:00Z') + 1;

export const diagnostics: Diagnostic[] = [
  fakeDiagnostic({
    rule: 'volatile-in-prefix',
    data: { block: 'long', kind: 'timestamp', text: '2025-01-31T10:00:00Z' },
    file: 'blocks/long.md',
    range: { start: { line: 5, column: longStart }, end: { line: 5, column: longStart + 20 } },
  }),
  fakeDiagnostic({
    rule: 'unknown-tool',
    data: { card: 'rewards', name: 'get_user_pionts' },
    file: 'cards/rewards.yaml',
    range: { start: { line: 9, column: 9 }, end: { line: 9, column: 24 } },
    hint: 'Did you mean "get_user_points"?',
    related: [{ file: 'schemas/tools/get_user_points.yaml', range: { start: { line: 2, column: 7 }, end: { line: 2, column: 22 } }, message: 'declared here' }],
  }),
  fakeDiagnostic({
    rule: 'template-unknown-variable',
    text: 'Block "routing" reads "dispatch.fan_out_capp", which the compile-time context lacks.',
    file: 'blocks/routing.md',
    range: { start: { line: 6, column: 18 }, end: { line: 6, column: 43 } },
    hint: 'Did you mean "dispatch.fan_out_cap"?',
  }),
  fakeDiagnostic({
    rule: 'description-budget',
    text: 'Sub-agent "support" has a 5-token description; under 8 tokens is too vague to route on.',
    file: 'cards/support.yaml',
    range: { start: { line: 2, column: 14 }, end: { line: 7, column: 1 } },
  }),
  fakeDiagnostic({
    rule: 'unknown-model',
    data: { card: 'wide', field: 'model', name: 'gpt-x' },
    file: 'cards/wide.yaml',
    range: { start: { line: 3, column: 8 }, end: { line: 3, column: 13 } },
  }),
  fakeDiagnostic({
    rule: 'block-ownership',
    data: { card: 'wide', cardOwner: '🛒 shop', name: 'x', blockOwner: 'y' },
    file: 'cards/wide.yaml',
    range: { start: { line: 2, column: 8 }, end: { line: 2, column: 15 } },
  }),
  fakeDiagnostic({
    rule: 'config-load',
    text: 'agentc.config.ts does not export a config: add `export default defineConfig({ ... })`.',
  }),
  fakeDiagnostic({
    rule: 'unused-tool',
    data: { name: 'get_legacy_points' },
    file: 'schemas/tools/get_legacy_points.yaml',
  }),
];
